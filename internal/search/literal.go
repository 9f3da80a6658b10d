package search

import "strings"

// Literal analysis of a hir, in the spirit of ripgrep's: what strings must
// any match contain? The answer drives the prefilter: the whole buffer is
// scanned for those strings with fast substring search and only the lines
// holding one are verified by the automaton. When the pattern is nothing
// but a small set of strings the automaton never runs.

// lit is a string; when fold is set its ASCII letters are stored in lower
// case and match either case (other bytes match exactly).
type lit struct {
	s    string
	fold bool
}

// litInfo describes the strings a hir node matches.
type litInfo struct {
	// exact, when non-nil, lists strings such that the node matches
	// exactly those (or, with lossy, at least those: a superset).
	exact []lit
	lossy bool
	// req lists sets of strings; every match contains a member of each.
	req [][]lit
	// look: the node contains an assertion, so exact is conditional.
	look bool
}

const (
	maxExactSet  = 64
	maxExactLen  = 256
	maxClassLits = 16
)

func extractLits(h *hir) litInfo {
	switch h.kind {
	case hirEmpty:
		return litInfo{exact: []lit{{}}}
	case hirLook:
		return litInfo{exact: []lit{{}}, look: true}
	case hirLiteral:
		return litInfo{exact: []lit{{s: string(h.lit)}}}
	case hirClass:
		if h.cls.size() > maxClassLits {
			return litInfo{}
		}
		var runes []rune
		for _, r := range h.cls {
			for c := r.lo; c <= r.hi; c++ {
				runes = append(runes, c)
			}
		}
		if len(runes) == 0 {
			return litInfo{}
		}
		return litInfo{exact: foldPairs(runes)}
	case hirBytes:
		n := 0
		for _, r := range h.bcls {
			n += int(r.hi) - int(r.lo) + 1
		}
		if n > maxClassLits || n == 0 {
			return litInfo{}
		}
		var ls []lit
		for _, r := range h.bcls {
			for c := int(r.lo); c <= int(r.hi); c++ {
				if 'A' <= c && c <= 'Z' && r.lo <= byte(c)+32 && byte(c)+32 <= r.hi {
					continue
				}
				ls = append(ls, lit{s: string([]byte{byte(c)})})
			}
		}
		return litInfo{exact: mergeByteFolds(h.bcls, ls)}
	case hirConcat:
		return concatLits(h.subs)
	case hirAlt:
		return altLits(h.subs)
	case hirRepeat:
		return repeatLits(h)
	}
	return litInfo{}
}

// foldPairs turns a list of runes into literals, merging an ASCII letter
// and its other case into one case-folded literal.
func foldPairs(runes []rune) []lit {
	has := map[rune]bool{}
	for _, r := range runes {
		has[r] = true
	}
	var out []lit
	for _, r := range runes {
		if 'A' <= r && r <= 'Z' && has[r+32] {
			continue
		}
		if 'a' <= r && r <= 'z' && has[r-32] {
			out = append(out, lit{s: string(r), fold: true})
			continue
		}
		out = append(out, lit{s: string(r)})
	}
	return out
}

func mergeByteFolds(c byteClass, ls []lit) []lit {
	in := func(b byte) bool {
		for _, r := range c {
			if r.lo <= b && b <= r.hi {
				return true
			}
		}
		return false
	}
	for i, l := range ls {
		b := l.s[0]
		if 'a' <= b && b <= 'z' && in(b-32) {
			ls[i].fold = true
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

func lowerASCII(s string) string {
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
func cross(a, b []lit) ([]lit, bool) {
	out := make([]lit, 0, len(a)*len(b))
	lossy := false
	seen := map[lit]bool{}
	for _, x := range a {
		for _, y := range b {
			var l lit
			switch {
			case x.fold == y.fold:
				l = lit{s: x.s + y.s, fold: x.fold}
			case x.fold:
				lossy = lossy || hasASCIILetter(y.s)
				l = lit{s: x.s + lowerASCII(y.s), fold: true}
			default:
				lossy = lossy || hasASCIILetter(x.s)
				l = lit{s: lowerASCII(x.s) + y.s, fold: true}
			}
			if l.fold && !hasASCIILetter(l.s) {
				l.fold = false
			}
			if !seen[l] {
				seen[l] = true
				out = append(out, l)
			}
		}
	}
	return out, lossy
}

func allNonEmpty(ls []lit) bool {
	if len(ls) == 0 {
		return false
	}
	for _, l := range ls {
		if l.s == "" {
			return false
		}
	}
	return true
}

func concatLits(subs []*hir) litInfo {
	var out litInfo
	cur := []lit{{}}
	curLossy := false
	allExact := true
	flush := func() {
		if allNonEmpty(cur) {
			out.req = append(out.req, cur)
		}
		cur = []lit{{}}
	}
	for _, s := range subs {
		ci := extractLits(s)
		out.look = out.look || ci.look
		if ci.exact != nil && len(cur)*len(ci.exact) <= maxExactSet && maxLen(cur)+maxLen(ci.exact) <= maxExactLen {
			var lossy bool
			cur, lossy = cross(cur, ci.exact)
			curLossy = curLossy || lossy || ci.lossy
			continue
		}
		allExact = false
		flush()
		if ci.exact != nil && allNonEmpty(ci.exact) {
			out.req = append(out.req, ci.exact)
		}
		out.req = append(out.req, ci.req...)
	}
	if allExact {
		out.exact = cur
		out.lossy = curLossy
		return out
	}
	flush()
	return out
}

func maxLen(ls []lit) int {
	n := 0
	for _, l := range ls {
		n = max(n, len(l.s))
	}
	return n
}

func altLits(subs []*hir) litInfo {
	var out litInfo
	var exact []lit
	seen := map[lit]bool{}
	allExact := true
	var req []lit
	reqOK := true
	for _, s := range subs {
		ci := extractLits(s)
		out.look = out.look || ci.look
		if ci.exact != nil {
			for _, l := range ci.exact {
				if !seen[l] {
					seen[l] = true
					exact = append(exact, l)
				}
			}
			out.lossy = out.lossy || ci.lossy
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
		out.exact = exact
		return out
	}
	out.lossy = false
	if reqOK && len(req) <= maxExactSet {
		out.req = [][]lit{dedupLits(req)}
	}
	return out
}

func dedupLits(ls []lit) []lit {
	seen := map[lit]bool{}
	out := ls[:0:0]
	for _, l := range ls {
		if !seen[l] {
			seen[l] = true
			out = append(out, l)
		}
	}
	return out
}

func repeatLits(h *hir) litInfo {
	ci := extractLits(h.subs[0])
	out := litInfo{look: ci.look}
	if h.min == 0 {
		if h.max == 1 && ci.exact != nil {
			out.exact = dedupLits(append(append([]lit{}, ci.exact...), lit{}))
			out.lossy = ci.lossy
		}
		return out
	}
	if ci.exact != nil && allNonEmpty(ci.exact) {
		out.req = append(out.req, ci.exact)
	}
	out.req = append(out.req, ci.req...)
	if h.min == h.max && ci.exact != nil && h.min <= 16 {
		cur := []lit{{}}
		lossy := ci.lossy
		ok := true
		for i := uint32(0); i < h.min; i++ {
			if len(cur)*len(ci.exact) > maxExactSet || maxLen(cur)+maxLen(ci.exact) > maxExactLen {
				ok = false
				break
			}
			var l bool
			cur, l = cross(cur, ci.exact)
			lossy = lossy || l
		}
		if ok {
			out.exact, out.lossy = cur, lossy
		}
	}
	return out
}

// bestSet returns the most selective set every match of a node contains.
func bestSet(ci litInfo) []lit {
	var best []lit
	bestCost := 0.0
	consider := func(s []lit) {
		if !allNonEmpty(s) {
			return
		}
		c := setCost(s)
		if best == nil || c < bestCost {
			best, bestCost = s, c
		}
	}
	if ci.exact != nil {
		consider(ci.exact)
	}
	for _, s := range ci.req {
		consider(s)
	}
	return best
}

// setCost estimates the probability that a member of s starts at a given
// position of typical text: lower is more selective.
func setCost(s []lit) float64 {
	c := 0.0
	for _, l := range s {
		c += litProb(l)
	}
	return c
}

func litProb(l lit) float64 {
	p := 1.0
	for i := 0; i < len(l.s) && i < 8; i++ {
		p *= bytePairProb(l.s[i], l.fold)
	}
	return p
}

func bytePairProb(b byte, fold bool) float64 {
	p := byteProb(b)
	if fold && 'a' <= b && b <= 'z' {
		p += byteProb(b - 32)
	}
	return p
}

// withoutNewline drops strings that contain '\n': they cannot occur inside
// a line.
func withoutNewline(s []lit) []lit {
	out := s[:0:0]
	for _, l := range s {
		if !strings.Contains(l.s, "\n") {
			out = append(out, l)
		}
	}
	return out
}
