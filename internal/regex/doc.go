// Package regex is grep's regex engines: a pattern of the reference's
// dialect (parsed by internal/regex/syntax) compiled to a byte-oriented
// NFA, a lazy DFA, a literal prefilter, and a backtracking engine for
// look-around and backreferences. It answers which lines of a buffer hold
// a match (LineIter) and whether a buffer holds one at all (HasMatch);
// internal/search builds grep's reports on it.
//
// # Compiling
//
// The Hir is rejected as the reference rejects it when its compiled
// program would exceed 100 MiB ("compiled regex exceeds size limit of
// 104857600", an estimate of the reference's program size, size.go); it is
// then compiled to a byte-oriented Thompson NFA (nfa.go) in which Unicode
// classes are UTF-8 automata, as in Rust's regex: a Unicode class never
// matches invalid UTF-8, (?-u) classes match raw bytes, and `.` never
// matches half a character. The NFA's real size in bytes is computed as it
// is built and limited to 10 MiB, Rust regex's default ("... 10485760
// bytes"). Go's regexp matches at 20-40 MB/s where the reference needs a
// DFA; these engines run at the reference's speed.
//
// # Matching
//
// Matching is existence-only (a matching line counts once), which is all
// grep needs, so there are no captures and no leftmost-first semantics to
// honour. The NFA drives a lazy DFA (dfa.go) built one transition at a time
// and cached per goroutine: about one table lookup per input byte. Word
// boundaries, line anchors and CRLF anchors are resolved inside the DFA by
// remembering what the previous byte was. Unicode word boundaries (\b, \B,
// \<, \>) are only decided by the DFA on ASCII input: when a line holds a
// non-ASCII byte and the pattern has one, the DFA quits and that line alone
// is checked by an NFA simulation with the exact Unicode semantics (the
// characters around the position are decoded; invalid UTF-8 is not a word
// character). ASCII lines keep the fast path. This is what Rust's lazy DFA
// does.
//
// LineIter splits the buffer on '\n' and each line is a separate haystack,
// as in the reference's line-oriented searcher: `^`, `$`, \A and \z match at
// line boundaries whatever the flags, nothing ever spans lines, and `$`
// does not match before '\r'. HasMatch instead looks at the raw buffer, as
// the reference does in filesWithMatches mode.
//
// # Prefilter
//
// syntax.Literals extracts from the Hir the strings any match must contain
// (a required literal, alternatives, ASCII-case-folded strings). The buffer
// is scanned for the rarest of them with memchr on their rarest byte (byte
// frequencies in syntax) and only the lines holding one run the DFA; other
// required strings are checked on the line first (substr.go). A pattern
// that is a small set of strings never runs the automaton (lineMode
// modePure). When candidates turn out too dense the search switches to the
// DFA alone. Needs turns the same literals into the condition a content
// index (internal/index) checks before a file is read.
//
// # Look-around, backreferences, budgets
//
// A pattern rejected only for look-around or a backreference runs on
// regexp2 (backtrack.go), line by line, behind the prefilter of the pattern
// with those parts taken out. Budgets: 1 s per line and 3 s per file on the
// backtracking engine, 2^25 thread steps per file in the NFA simulation;
// past one, the iteration fails with a *BudgetError.
package regex
