package syntax

import "strings"

// Literal analysis of a hir, in the spirit of ripgrep's: what strings must
// any match contain? The answer drives the prefilter: the whole buffer is
// scanned for those strings with fast substring search and only the lines
// holding one are verified by the automaton. When the pattern is nothing
// but a small set of strings the automaton never runs.

// Lit is a string; when fold is set its ASCII letters are stored in lower
// case and match either case (other bytes match exactly).
type Lit struct {
	S    string
	Fold bool
}

// LitInfo describes the strings a hir node matches.
type LitInfo struct {
	// Exact, when non-nil, lists strings such that the node matches
	// exactly those (or, with lossy, at least those: a superset).
	Exact []Lit
	Lossy bool
	// Req lists sets of strings; every match contains a member of each.
	Req [][]Lit
	// Look: the node contains an assertion, so exact is conditional.
	Look bool
}

const (
	maxExactSet  = 64
	maxExactLen  = 256
	maxClassLits = 16
)

// Literals describes the strings the matches of h contain.
func Literals(h *Hir) LitInfo {
	switch h.Kind {
	case HirEmpty:
		return LitInfo{Exact: []Lit{{}}}
	case HirLook:
		return LitInfo{Exact: []Lit{{}}, Look: true}
	case HirLiteral:
		return LitInfo{Exact: []Lit{{S: string(h.Lit)}}}
	case HirClass:
		if h.Cls.size() > maxClassLits {
			return LitInfo{}
		}
		var runes []rune
		for _, r := range h.Cls {
			for c := r.Lo; c <= r.Hi; c++ {
				runes = append(runes, c)
			}
		}
		if len(runes) == 0 {
			return LitInfo{}
		}
		return LitInfo{Exact: foldPairs(runes)}
	case HirBytes:
		n := 0
		for _, r := range h.Bcls {
			n += int(r.Hi) - int(r.Lo) + 1
		}
		if n > maxClassLits || n == 0 {
			return LitInfo{}
		}
		var ls []Lit
		for _, r := range h.Bcls {
			for c := int(r.Lo); c <= int(r.Hi); c++ {
				if 'A' <= c && c <= 'Z' && r.Lo <= byte(c)+32 && byte(c)+32 <= r.Hi {
					continue
				}
				ls = append(ls, Lit{S: string([]byte{byte(c)})})
			}
		}
		return LitInfo{Exact: mergeByteFolds(h.Bcls, ls)}
	case HirConcat:
		return concatLits(h.Subs)
	case HirAlt:
		return altLits(h.Subs)
	case HirRepeat:
		return repeatLits(h)
	}
	return LitInfo{}
}

// foldPairs turns a list of runes into literals, merging an ASCII letter
// and its other case into one case-folded literal.
func foldPairs(runes []rune) []Lit {
	has := map[rune]bool{}
	for _, r := range runes {
		has[r] = true
	}
	var out []Lit
	for _, r := range runes {
		if 'A' <= r && r <= 'Z' && has[r+32] {
			continue
		}
		if 'a' <= r && r <= 'z' && has[r-32] {
			out = append(out, Lit{S: string(r), Fold: true})
			continue
		}
		out = append(out, Lit{S: string(r)})
	}
	return out
}

func mergeByteFolds(c ByteClass, ls []Lit) []Lit {
	in := func(b byte) bool {
		for _, r := range c {
			if r.Lo <= b && b <= r.Hi {
				return true
			}
		}
		return false
	}
	for i, l := range ls {
		b := l.S[0]
		if 'a' <= b && b <= 'z' && in(b-32) {
			ls[i].Fold = true
		}
	}
	return ls
}

func hasASCIILetter(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i] | 0x20
		if 'a' <= c && c <= 'z' {
			return true
		}
	}
	return false
}

// LowerASCII returns s with its ASCII letters in lower case.
func LowerASCII(s string) string {
	if !hasASCIILetter(s) {
		return s
	}
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 32
		}
	}
	return string(b)
}

// cross concatenates every member of a with every member of b. Mixing a
// case-folded with a case-sensitive string folds the result, which loses
// precision (reported by lossy) when the case-sensitive part has letters.
func cross(a, b []Lit) ([]Lit, bool) {
	out := make([]Lit, 0, len(a)*len(b))
	lossy := false
	seen := map[Lit]bool{}
	for _, x := range a {
		for _, y := range b {
			var l Lit
			switch {
			case x.Fold == y.Fold:
				l = Lit{S: x.S + y.S, Fold: x.Fold}
			case x.Fold:
				lossy = lossy || hasASCIILetter(y.S)
				l = Lit{S: x.S + LowerASCII(y.S), Fold: true}
			default:
				lossy = lossy || hasASCIILetter(x.S)
				l = Lit{S: LowerASCII(x.S) + y.S, Fold: true}
			}
			if l.Fold && !hasASCIILetter(l.S) {
				l.Fold = false
			}
			if !seen[l] {
				seen[l] = true
				out = append(out, l)
			}
		}
	}
	return out, lossy
}

// AllNonEmpty reports whether ls has members and none is empty: a set a
// prefilter can search for.
func AllNonEmpty(ls []Lit) bool {
	if len(ls) == 0 {
		return false
	}
	for _, l := range ls {
		if l.S == "" {
			return false
		}
	}
	return true
}

func concatLits(subs []*Hir) LitInfo {
	var out LitInfo
	cur := []Lit{{}}
	curLossy := false
	allExact := true
	flush := func() {
		if AllNonEmpty(cur) {
			out.Req = append(out.Req, cur)
		}
		cur = []Lit{{}}
	}
	for _, s := range subs {
		ci := Literals(s)
		out.Look = out.Look || ci.Look
		if ci.Exact != nil && len(cur)*len(ci.Exact) <= maxExactSet && maxLen(cur)+maxLen(ci.Exact) <= maxExactLen {
			var lossy bool
			cur, lossy = cross(cur, ci.Exact)
			curLossy = curLossy || lossy || ci.Lossy
			continue
		}
		allExact = false
		flush()
		if ci.Exact != nil && AllNonEmpty(ci.Exact) {
			out.Req = append(out.Req, ci.Exact)
		}
		out.Req = append(out.Req, ci.Req...)
	}
	if allExact {
		out.Exact = cur
		out.Lossy = curLossy
		return out
	}
	flush()
	return out
}

func maxLen(ls []Lit) int {
	n := 0
	for _, l := range ls {
		n = max(n, len(l.S))
	}
	return n
}

func altLits(subs []*Hir) LitInfo {
	var out LitInfo
	var exact []Lit
	seen := map[Lit]bool{}
	allExact := true
	var req []Lit
	reqOK := true
	for _, s := range subs {
		ci := Literals(s)
		out.Look = out.Look || ci.Look
		if ci.Exact != nil {
			for _, l := range ci.Exact {
				if !seen[l] {
					seen[l] = true
					exact = append(exact, l)
				}
			}
			out.Lossy = out.Lossy || ci.Lossy
		} else {
			allExact = false
		}
		best := bestSet(ci)
		if best == nil {
			reqOK = false
		} else {
			req = append(req, best...)
		}
	}
	if allExact && len(exact) <= maxExactSet {
		out.Exact = exact
		return out
	}
	out.Lossy = false
	if reqOK && len(req) <= maxExactSet {
		out.Req = [][]Lit{dedupLits(req)}
	}
	return out
}

func dedupLits(ls []Lit) []Lit {
	seen := map[Lit]bool{}
	out := ls[:0:0]
	for _, l := range ls {
		if !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	return out
}

func repeatLits(h *Hir) LitInfo {
	ci := Literals(h.Subs[0])
	out := LitInfo{Look: ci.Look}
	if h.Min == 0 {
		if h.Max == 1 && ci.Exact != nil {
			out.Exact = dedupLits(append(append([]Lit{}, ci.Exact...), Lit{}))
			out.Lossy = ci.Lossy
		}
		return out
	}
	if ci.Exact != nil && AllNonEmpty(ci.Exact) {
		out.Req = append(out.Req, ci.Exact)
	}
	out.Req = append(out.Req, ci.Req...)
	if h.Min == h.Max && ci.Exact != nil && h.Min <= 16 {
		cur := []Lit{{}}
		lossy := ci.Lossy
		ok := true
		for i := uint32(0); i < h.Min; i++ {
			if len(cur)*len(ci.Exact) > maxExactSet || maxLen(cur)+maxLen(ci.Exact) > maxExactLen {
				ok = false
				break
			}
			var l bool
			cur, l = cross(cur, ci.Exact)
			lossy = lossy || l
		}
		if ok {
			out.Exact, out.Lossy = cur, lossy
		}
	}
	return out
}

// bestSet returns the most selective set every match of a node contains.
func bestSet(ci LitInfo) []Lit {
	var best []Lit
	bestCost := 0.0
	consider := func(s []Lit) {
		if !AllNonEmpty(s) {
			return
		}
		c := SetCost(s)
		if best == nil || c < bestCost {
			best, bestCost = s, c
		}
	}
	if ci.Exact != nil {
		consider(ci.Exact)
	}
	for _, s := range ci.Req {
		consider(s)
	}
	return best
}

// SetCost estimates the probability that a member of s starts at a given
// position of typical text: lower is more selective.
func SetCost(s []Lit) float64 {
	c := 0.0
	for _, l := range s {
		c += litProb(l)
	}
	return c
}

func litProb(l Lit) float64 {
	p := 1.0
	for i := 0; i < len(l.S) && i < 8; i++ {
		p *= BytePairProb(l.S[i], l.Fold)
	}
	return p
}

// BytePairProb is the frequency of byte b in typical text, of either case
// when fold is set and b is a lower-case letter.
func BytePairProb(b byte, fold bool) float64 {
	p := byteProb(b)
	if fold && 'a' <= b && b <= 'z' {
		p += byteProb(b - 32)
	}
	return p
}

// WithoutNewline drops strings that contain '\n': they cannot occur inside
// a line.
func WithoutNewline(s []Lit) []Lit {
	out := s[:0:0]
	for _, l := range s {
		if !strings.Contains(l.S, "\n") {
			out = append(out, l)
		}
	}
	return out
}
