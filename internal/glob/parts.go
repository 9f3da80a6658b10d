package glob

import (
	"errors"
	"strings"
	"unicode/utf8"
)

// Kind is how a Part matches.
type Kind uint8

// The kinds of parts. Base kinds look at the last path component alone:
// the pattern was "**/" followed by tokens that cannot match '/'.
const (
	All        Kind = iota // every path
	BaseLit                // the last component is Lit
	BaseExt                // the last component ends with Lit, ".ext" without another '.'
	BasePrefix             // the last component starts with Lit
	BaseSuffix             // the last component ends with Lit
	BaseProg               // the last component matches the automaton
	PathLit                // the path is Lit
	PathProg               // the path matches the automaton
)

// Part is one alternative of a compiled pattern, with the cheapest exact
// strategy for it. It is immutable and safe for concurrent use.
type Part struct {
	Kind Kind
	// Lit is the literal of the literal kinds.
	Lit    string
	prefix string // literal every match starts with (BaseProg, PathProg)
	suffix string // literal every match ends with (BaseProg, PathProg)
	inner  string // literal every match contains, never with '/' (BaseProg, PathProg; "" when none)
	// starOnly is set for a BaseProg of the shape prefix*suffix: once the
	// prefix and the suffix are found, a long enough name matches.
	starOnly bool
	prog     *prog
}

// CompileParts parses the pattern s and compiles it into parts, any of
// which matching means s matches. Alternations and small ASCII classes are
// expanded (into at most 16 parts), so that "*.{js,ts}" or "*.py[cod]" give
// plain extension parts; most patterns give one part.
func CompileParts(s string, syn Syntax) ([]Part, error) {
	toks, err := parse(s, syn)
	if err != nil {
		return nil, err
	}
	if syn.MaxStates == 0 {
		// "**" that is not recursive and runs of '*' ("*".repeat(100000)
		// answers as "*") would give an automaton whose every state is live
		// at every byte. A bounded syntax (gitignore lines) measures the
		// pattern as written instead: its bound skips a line over it
		// (docs/compat.md), and collapsing would change which lines it skips.
		toks = collapseStars(toks)
	}
	variants := expand(toks)
	if variants == nil {
		variants = [][]token{toks}
	}
	parts := make([]Part, 0, len(variants))
	for _, v := range variants {
		var pt Part
		classify(&pt, v, syn.MaxStates)
		if (pt.Kind == BaseProg || pt.Kind == PathProg) && pt.prog == nil {
			return nil, ErrTooLarge
		}
		parts = append(parts, pt)
	}
	return parts, nil
}

// ErrTooLarge is CompileParts' error for a pattern whose automaton would
// exceed Syntax.MaxStates.
var ErrTooLarge = errors.New("pattern too large to match in bounded time")

// maxVariants bounds the expansion of alternations and classes.
const maxVariants = 16

// expand rewrites a pattern with alternations and small ASCII classes into
// the equivalent list of patterns without them, so that for example
// `*.{js,ts}` or `*.py[cod]` become plain extension rules. It returns nil
// when there is nothing to expand or the expansion would be too large.
func expand(toks []token) [][]token {
	has := false
	for i := range toks {
		if toks[i].kind == tAlt || toks[i].kind == tClass {
			has = true
		}
	}
	if !has {
		return nil
	}
	out, ok := expandSeq(toks)
	if !ok {
		return nil
	}
	for _, v := range out {
		// A lone "**" means "everything" only as a whole glob.
		if len(v) == 1 && v[0].kind == tRecPrefix {
			return nil
		}
	}
	return out
}

func expandSeq(toks []token) ([][]token, bool) {
	out := [][]token{nil}
	for i := range toks {
		t := &toks[i]
		var alts [][]token
		switch t.kind {
		case tAlt:
			for _, br := range t.alts {
				if silent(br) {
					continue // empty branches are dropped by globset
				}
				sub, ok := expandSeq(br)
				if !ok {
					return nil, false
				}
				alts = append(alts, sub...)
			}
			if len(alts) == 0 {
				continue // an alternation of empty branches matches ""
			}
		case tClass:
			set := classSet(t)
			for c := 0; c < 256; c++ {
				if set.has(byte(c)) {
					if c >= utf8.RuneSelf || len(alts) == maxVariants {
						return nil, false
					}
					alts = append(alts, []token{{kind: tLit, ch: rune(c)}})
				}
			}
		default:
			for j := range out {
				out[j] = append(out[j], *t)
			}
			continue
		}
		if len(out)*len(alts) > maxVariants {
			return nil, false
		}
		next := make([][]token, 0, len(out)*len(alts))
		for _, o := range out {
			for _, a := range alts {
				v := make([]token, 0, len(o)+len(a))
				next = append(next, append(append(v, o...), a...))
			}
		}
		out = next
	}
	return out, true
}

// classify picks the cheapest exact matching strategy for toks.
func classify(r *Part, toks []token, max int) {
	if len(toks) == 1 && toks[0].kind == tRecPrefix {
		r.Kind = All // "**" is special-cased to ".*" by globset
		return
	}
	if len(toks) > 0 && toks[0].kind == tRecPrefix {
		rest := toks[1:]
		baseOnly := true
		for i := range rest {
			if canMatchSlash(&rest[i]) {
				baseOnly = false
				break
			}
		}
		if baseOnly {
			// (?:/?|.*/)X with X unable to match '/' matches exactly the
			// paths whose basename matches X.
			if lit, ok := literalOf(rest); ok {
				r.Kind, r.Lit = BaseLit, lit
				return
			}
			if len(rest) == 1 && rest[0].kind == tStar {
				r.Kind = All
				return
			}
			if rest[0].kind == tStar {
				if lit, ok := literalOf(rest[1:]); ok && lit != "" {
					if lit[0] == '.' && !strings.Contains(lit[1:], ".") {
						r.Kind = BaseExt
					} else {
						r.Kind = BaseSuffix
					}
					r.Lit = lit
					return
				}
			}
			if rest[len(rest)-1].kind == tStar {
				if lit, ok := literalOf(rest[:len(rest)-1]); ok && lit != "" {
					r.Kind, r.Lit = BasePrefix, lit
					return
				}
			}
			r.Kind, r.prog = BaseProg, compileProg(rest, max)
			r.prefix, r.suffix = literalEnds(rest)
			r.inner = longestLiteral(rest)
			lits := 0
			for i := range rest {
				if rest[i].kind == tLit {
					lits++
				}
			}
			// prefix, one '*', suffix: the '*' takes whatever lies between
			// (a name holds no '/').
			r.starOnly = lits == len(rest)-1 && rest[utf8.RuneCountInString(r.prefix)].kind == tStar
			return
		}
	}
	if lit, ok := literalOf(toks); ok {
		r.Kind, r.Lit = PathLit, lit
		return
	}
	r.Kind, r.prog = PathProg, compileProg(toks, max)
	r.prefix, r.suffix = literalEnds(toks)
	if inner := longestLiteral(toks); !strings.Contains(inner, "/") {
		r.inner = inner // found within rel or within name, never across the '/'
	}
}

// literalEnds returns the literal runs at the start and at the end of toks.
func literalEnds(toks []token) (prefix, suffix string) {
	i := 0
	for i < len(toks) && toks[i].kind == tLit {
		i++
	}
	prefix, _ = literalOf(toks[:i])
	j := len(toks)
	for j > i && toks[j-1].kind == tLit {
		j--
	}
	suffix, _ = literalOf(toks[j:])
	return prefix, suffix
}

// longestLiteral returns the longest run of literal tokens in toks.
func longestLiteral(toks []token) string {
	bestLit := ""
	for i := 0; i < len(toks); {
		j := i
		for j < len(toks) && toks[j].kind == tLit {
			j++
		}
		if j > i {
			if lit, _ := literalOf(toks[i:j]); len(lit) > len(bestLit) {
				bestLit = lit
			}
			i = j
		} else {
			i++
		}
	}
	return bestLit
}

// A candidate path is name when slash is false, else rel + "/" + name.

func candLen(rel string, slash bool, name string) int {
	if !slash {
		return len(name)
	}
	return len(rel) + 1 + len(name)
}

func candHasPrefix(rel string, slash bool, name, pre string) bool {
	if !slash {
		return strings.HasPrefix(name, pre)
	}
	if len(pre) <= len(rel) {
		return strings.HasPrefix(rel, pre)
	}
	if pre[:len(rel)] != rel || pre[len(rel)] != '/' {
		return false
	}
	return strings.HasPrefix(name, pre[len(rel)+1:])
}

func candHasSuffix(rel string, slash bool, name, suf string) bool {
	if len(suf) <= len(name) {
		return strings.HasSuffix(name, suf)
	}
	if !slash {
		return false
	}
	k := len(suf) - len(name)
	if suf[k:] != name || suf[k-1] != '/' {
		return false
	}
	return strings.HasSuffix(rel, suf[:k-1])
}

// Match reports whether the part matches the candidate path: name when
// slash is false, else rel + "/" + name (name is the last component).
func (r *Part) Match(rel string, slash bool, name string) bool {
	switch r.Kind {
	case All:
		return true
	case BaseLit:
		return name == r.Lit
	case BaseExt, BaseSuffix:
		return strings.HasSuffix(name, r.Lit)
	case BasePrefix:
		return strings.HasPrefix(name, r.Lit)
	case BaseProg:
		if !strings.HasPrefix(name, r.prefix) || !strings.HasSuffix(name, r.suffix) ||
			!strings.Contains(name, r.inner) {
			return false
		}
		if r.starOnly {
			return len(name) >= len(r.prefix)+len(r.suffix)
		}
		return r.prog.matchParts(name)
	case PathLit:
		return candLen(rel, slash, name) == len(r.Lit) && candHasPrefix(rel, slash, name, r.Lit)
	case PathProg:
		if !candHasSuffix(rel, slash, name, r.suffix) || !candHasPrefix(rel, slash, name, r.prefix) {
			return false
		}
		if r.inner != "" && !strings.Contains(name, r.inner) && (!slash || !strings.Contains(rel, r.inner)) {
			return false
		}
		if !slash {
			return r.prog.matchParts(name)
		}
		return r.prog.matchParts(rel, "/", name)
	}
	return false
}

// collapseStars replaces every run of consecutive '*' tokens, in toks and
// in its alternatives, by one: [^/]*[^/]* is [^/]*.
func collapseStars(toks []token) []token {
	out := toks[:0:0]
	for i := range toks {
		t := toks[i]
		switch {
		case t.kind == tStar && len(out) > 0 && out[len(out)-1].kind == tStar:
			continue
		case t.kind == tAlt:
			alts := make([][]token, len(t.alts))
			for j, br := range t.alts {
				alts[j] = collapseStars(br)
			}
			t.tokSets = &tokSets{alts: alts} // t's own: toks is left as it was
		}
		out = append(out, t)
	}
	return out
}
