package regex

import (
	"strings"

	"github.com/fscache/fscache/internal/regex/syntax"
)

// What a file must contain for the pattern to match in it, for a content
// index (internal/index): the required literals of the pattern's hir,
// combined as AND and OR. The condition is necessary, never sufficient: a
// file that does not satisfy it has no match (neither in a line nor in the
// raw buffer), so the caller may skip it; a file that does must still be
// searched.

// NeedOp is the kind of a Need.
type NeedOp uint8

// The kinds of Need.
const (
	// NeedAll is no condition: every file may match.
	NeedAll NeedOp = iota
	// NeedLit: the file contains Lit.
	NeedLit
	// NeedAnd: the file satisfies every one of Subs.
	NeedAnd
	// NeedOr: the file satisfies one of Subs at least.
	NeedOr
)

// Need is a condition every file holding a match satisfies.
type Need struct {
	Op NeedOp
	// Lit (NeedLit) is a byte string whose ASCII letters are lower case:
	// it stands for the string with each of them in either case.
	Lit  string
	Subs []Need
}

// Bounds of a Need, so that a hostile pattern cannot make a large one: past
// them a part is weakened (dropped from an AND, an OR becomes NeedAll),
// which keeps the condition necessary.
const (
	needDepth   = 8
	needMaxOr   = 64
	needMaxAnd  = 32
	needMaxNode = 4096
)

// Needs returns the condition a file satisfies whenever the pattern of o
// (as Compile would run it) matches in it; literals shorter than minLit
// bytes are left out (read as no condition). A pattern Compile rejects, or
// whose literals cannot be extracted, gives NeedAll. A pattern with
// look-around or backreferences is analysed through its relaxed copy (the
// look-around groups removed, backreferences as any text), whose matches
// are a superset of the real pattern's: the backtracking engine only sees
// the lines that copy matches.
func Needs(o Options, minLit int) Need {
	h := needHIR(o, true)
	if h == nil {
		return Need{}
	}
	budget := needMaxNode
	return simplifyNeed(needOf(h, 0, &budget), minLit)
}

// needHIR is the hir compile would build for o (nil when it builds none),
// the relaxed copy's for a backtracking pattern.
func needHIR(o Options, withBacktrack bool) *syntax.Hir {
	h, err := patternHIR(o)
	if err != nil {
		if withBacktrack && syntax.IsBacktrackError(err) {
			if _, relaxed := rewritePCRE(o.Pattern); relaxed != "" {
				po := o
				po.Pattern = relaxed
				return needHIR(po, false)
			}
		}
		return nil
	}
	return h
}

// needOf combines what extractLits says of h with what its parts need.
func needOf(h *syntax.Hir, depth int, budget *int) Need {
	*budget--
	if *budget < 0 {
		return Need{}
	}
	n := needFromLits(syntax.Literals(h))
	if depth >= needDepth {
		return n
	}
	switch h.Kind {
	case syntax.HirConcat:
		parts := []Need{n}
		for _, s := range h.Subs {
			parts = append(parts, needOf(s, depth+1, budget))
		}
		return Need{Op: NeedAnd, Subs: parts}
	case syntax.HirAlt:
		var alts []Need
		for _, s := range h.Subs {
			alts = append(alts, needOf(s, depth+1, budget))
		}
		return Need{Op: NeedAnd, Subs: []Need{n, {Op: NeedOr, Subs: alts}}}
	case syntax.HirRepeat:
		if h.Min > 0 {
			return Need{Op: NeedAnd, Subs: []Need{n, needOf(h.Subs[0], depth+1, budget)}}
		}
	}
	return n
}

// needFromLits is the AND of info's required sets, each an OR of its
// strings.
func needFromLits(info syntax.LitInfo) Need {
	var and []Need
	for _, set := range candidateSets(info) {
		if !syntax.AllNonEmpty(set) {
			continue
		}
		or := make([]Need, 0, len(set))
		for _, l := range set {
			or = append(or, Need{Op: NeedLit, Lit: syntax.LowerASCII(l.S)})
		}
		and = append(and, Need{Op: NeedOr, Subs: or})
	}
	return Need{Op: NeedAnd, Subs: and}
}

// simplifyNeed flattens nested ANDs and ORs, drops NeedAll from ANDs and
// turns an OR with a NeedAll member into NeedAll, within the bounds above;
// a literal shorter than minLit is NeedAll.
func simplifyNeed(n Need, minLit int) Need {
	switch n.Op {
	case NeedAnd:
		var out []Need
		var add func(n Need)
		add = func(n Need) {
			n = simplifyNeed(n, minLit)
			switch n.Op {
			case NeedAll:
			case NeedAnd:
				for _, s := range n.Subs {
					add(s)
				}
			default:
				for _, o := range out {
					if equalNeed(o, n) {
						return
					}
				}
				out = append(out, n)
			}
		}
		for _, s := range n.Subs {
			add(s)
		}
		if len(out) > needMaxAnd {
			out = out[:needMaxAnd]
		}
		switch len(out) {
		case 0:
			return Need{}
		case 1:
			return out[0]
		}
		return Need{Op: NeedAnd, Subs: out}
	case NeedOr:
		var out []Need
		for _, s := range n.Subs {
			s = simplifyNeed(s, minLit)
			switch s.Op {
			case NeedAll:
				return Need{}
			case NeedOr:
				out = append(out, s.Subs...)
			default:
				out = append(out, s)
			}
		}
		if len(out) == 0 || len(out) > needMaxOr {
			return Need{}
		}
		if len(out) == 1 {
			return out[0]
		}
		return Need{Op: NeedOr, Subs: out}
	case NeedLit:
		if len(n.Lit) < minLit {
			return Need{}
		}
	}
	return n
}

func equalNeed(a, b Need) bool {
	if a.Op != b.Op || a.Lit != b.Lit || len(a.Subs) != len(b.Subs) {
		return false
	}
	for i := range a.Subs {
		if !equalNeed(a.Subs[i], b.Subs[i]) {
			return false
		}
	}
	return true
}

// String renders n for tests and debugging: "foo", and(...), or(...), all.
func (n Need) String() string {
	switch n.Op {
	case NeedLit:
		return "\"" + n.Lit + "\""
	case NeedAnd, NeedOr:
		var b strings.Builder
		if n.Op == NeedAnd {
			b.WriteString("and(")
		} else {
			b.WriteString("or(")
		}
		for i, s := range n.Subs {
			if i > 0 {
				b.WriteString(" ")
			}
			b.WriteString(s.String())
		}
		b.WriteString(")")
		return b.String()
	}
	return "all"
}
