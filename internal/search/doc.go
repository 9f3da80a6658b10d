// Package search is grep's line search of one file's content in memory:
// it compiles a pattern (internal/regex) with how its lines are reported
// and collects the matching lines as the reference reports them.
//
// Lines are those of internal/regex's LineIter, split on '\n'. Search
// counts them, stops at the reference's per-file cap (the first match past
// it is counted, not returned), numbers them, adds the context lines
// before and after each (never a line already reported), and formats every
// reported line as the reference does: trailing white space trimmed,
// invalid UTF-8 replaced as Rust's from_utf8_lossy, and lines longer than
// maxColumns cut at a character boundary with "...". Count-only searches
// build no strings and allocate nothing per line.
//
// The search polls its cancel token every 64 KiB of input (the automata
// poll on their own too). A pattern on the backtracking engine runs in a
// goroutine of its own while the caller polls, so a cancellation returns
// even in the middle of a long line.
package search
