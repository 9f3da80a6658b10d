// Package search is grep's pattern engine: the reference's regex dialect
// (Rust's regex crate as ripgrep's grep-regex drives it), a literal
// prefilter, and the in-memory line search of one file.
//
// # Dialect
//
// A pattern goes through the same steps as in the reference:
//
//  1. Braces that cannot be a counted repetition are escaped ({N}, {N,},
//     {N,M} stay; so do the braces of \p{..}, \x{..}, \u{..}).
//  2. The pattern, wrapped in (?:...) as grep-regex does, is parsed by a
//     port of regex-syntax's parser into a syntax tree (ast.go,
//     parse.go): same grammar, same errors, same spans, so rejections
//     print exactly like the reference's ("Regex error: regex parse
//     error: ..." with the carets).
//  3. If parsing fails with an unclosed or unopened group, the unescaped
//     parentheses are escaped and the pattern is compiled once more;
//     `hello(` searches for the text `hello(`.
//  4. The tree is translated to a hir with every flag resolved
//     (translate.go): Unicode \w \d \s, Unicode simple case folding for
//     (?i) (Go's unicode.SimpleFold orbits, the same equivalence classes
//     as Rust's), \p{..} with regex-syntax's loose name matching, class
//     set operations (&&, --, ~~), (?x), (?U), (?R), (?-u) byte classes.
//  5. The hir is compiled to a byte-oriented Thompson NFA (nfa.go) in
//     which Unicode classes are UTF-8 automata, as in Rust's regex: a
//     Unicode class never matches invalid UTF-8, (?-u) classes match raw
//     bytes, and `.` never matches half a character.
//
// This is translation at the syntax-tree level, but not onto Go's regexp:
// regexp/syntax cannot express Unicode word boundaries, \< and \>, CRLF
// anchors or raw bytes, and Go's regexp matches at 20-40 MB/s where the
// reference needs a DFA. The engine below runs at the reference's speed.
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
// Lines are split on '\n' and each is a separate haystack, as in the
// reference's line-oriented searcher: `^`, `$`, \A and \z match at line
// boundaries whatever the flags, nothing ever spans lines, and `$` does not
// match before '\r'. Matcher.HasMatch instead looks at the raw buffer, as the
// reference does in filesWithMatches mode.
//
// # Prefilter
//
// literal.go extracts from the hir the strings any match must contain (a
// required literal, alternatives, ASCII-case-folded strings). The buffer is
// scanned for the rarest of them with memchr on their rarest byte (byte
// frequencies in substr.go) and only the lines holding one run the DFA; other
// required strings are checked on the line first. A pattern that is a small
// set of strings never runs the automaton (lineMode modePure). When
// candidates turn out too dense the search switches to the DFA alone.
//
// # Known differences from the reference
//
// Unicode data comes from Go's unicode package (Unicode 15.0; the reference
// has 16.0), so characters new in 16.0 differ. Script_Extensions is
// approximated by Script; derived properties Go has no table for are
// computed from their definitions (Alphabetic, Lowercase, ID_Start, XID_*,
// Changes_When_*, Grapheme_Base, ...). \p{Emoji}, \p{Emoji_Presentation},
// \p{Emoji_Modifier}, \p{Emoji_Modifier_Base}, \p{Emoji_Component},
// \p{Extended_Pictographic}, \p{Bidi_Mirrored}, \p{Age=..},
// \p{Grapheme_Cluster_Break=..}, \p{Word_Break=..} and \p{Sentence_Break=..}
// are rejected as unknown properties. The "compiled regex exceeds size
// limit of 104857600" rejection is an estimate of the reference's program
// size; behind it the NFA's real size in bytes is computed as it is built
// and limited to 10 MiB, Rust regex's default ("... 10485760 bytes").
//
// # Look-around, backreferences, budgets
//
// A pattern rejected only for look-around or a backreference runs on
// regexp2 (backtrack.go), line by line, behind the prefilter of the pattern
// with those parts taken out. Budgets: 1 s per line and 3 s per file on the
// backtracking engine, 2^25 thread steps per file in the NFA simulation;
// past one, Search fails with a *BudgetError and grep ends the call.
package search
