// Package syntax is the reference's regex dialect (Rust's regex crate as
// ripgrep's grep-regex drives it) up to a high-level intermediate
// representation, Hir, and what can be read off it: the literals every
// match contains (Literals) and the UTF-8 encodings of a class
// (UTF8Sequences). It matches nothing; internal/regex compiles a Hir to
// automata.
//
// # Dialect
//
// Parse takes a pattern through the same steps as the reference:
//
//  1. Braces that cannot be a counted repetition are escaped ({N}, {N,},
//     {N,M} stay; so do the braces of \p{..}, \x{..}, \u{..}).
//  2. The pattern, wrapped in (?:...) as grep-regex does, is parsed by a
//     port of regex-syntax's parser into a syntax tree (ast.go,
//     parse.go): same grammar, same errors, same spans, so rejections
//     print exactly like the reference's ("regex parse error: ..." with
//     the carets; internal/regex adds the "Regex error: " prefix).
//  3. If parsing fails with an unclosed or unopened group, the unescaped
//     parentheses are escaped and the pattern is parsed once more;
//     `hello(` searches for the text `hello(`.
//  4. The tree is translated to a Hir with every flag resolved
//     (translate.go): Unicode \w \d \s, Unicode simple case folding for
//     (?i) (Go's unicode.SimpleFold orbits, the same equivalence classes
//     as Rust's), \p{..} with regex-syntax's loose name matching, class
//     set operations (&&, --, ~~), (?x), (?U), (?R), (?-u) byte classes.
//
// This is translation at the syntax-tree level, but not onto Go's regexp:
// regexp/syntax cannot express Unicode word boundaries, \< and \>, CRLF
// anchors or raw bytes.
//
// A rejection for look-around or a backreference (IsBacktrackError) is not
// final: internal/regex runs such a pattern on a backtracking engine.
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
// are rejected as unknown properties.
package syntax
