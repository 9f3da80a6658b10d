package regex

import (
	"unsafe"

	"github.com/fscache/fscache/internal/regex/syntax"
)

// The reference rejects patterns whose compiled program would exceed 100
// MiB ("compiled regex exceeds size limit of 104857600"). rustSize
// estimates that program size from the hir with costs fitted to the
// reference's answers: a byte costs 32, a one-byte class 64 plus 8 per
// range, a multi-byte class in proportion to its UTF-8 automaton, and a
// repetition x{n,m} n copies of x plus m-n optional copies.

const rustSizeLimit = 100 << 20

func rustSize(h *syntax.Hir) float64 {
	return sizer{}.size(h)
}

// sizer memoizes the size of classes (a pattern may repeat one class
// thousands of times).
type sizer map[string]float64

func (z sizer) size(h *syntax.Hir) float64 {
	switch h.Kind {
	case syntax.HirLiteral:
		return 32 * float64(len(h.Lit))
	case syntax.HirBytes:
		return 64 + 8*float64(len(h.Bcls))
	case syntax.HirClass:
		key := classKey(h.Cls)
		if c, ok := z[key]; ok {
			return c
		}
		c := classSize(h.Cls)
		z[key] = c
		return c
	case syntax.HirConcat:
		s := 0.0
		for _, sub := range h.Subs {
			s += z.size(sub)
		}
		return s
	case syntax.HirAlt:
		s := 56 + 8*float64(len(h.Subs))
		for _, sub := range h.Subs {
			s += z.size(sub)
		}
		return s
	case syntax.HirRepeat:
		c := z.size(h.Subs[0])
		if c == 0 {
			return 0
		}
		if h.Max == syntax.RepeatInf {
			return float64(max(h.Min, 1))*c + 72
		}
		return float64(h.Min)*c + float64(h.Max-h.Min)*(c+40)
	}
	return 0
}

func classSize(c syntax.RuneClass) float64 {
	if len(c) == 0 {
		return 64
	}
	if c[len(c)-1].Hi < 0x80 {
		return 64 + 8*float64(len(c))
	}
	states, trans := 0, 0
	cc := &nfaCompiler{n: &nfa{}, memo: map[string]int32{}, budget: 1 << 30}
	cc.utf8Class(c, cc.add(nfaState{kind: nsMatch}))
	for _, s := range cc.n.states {
		if s.kind == nsSparse {
			states++
			trans += len(s.trans)
		}
	}
	return classStateCost*float64(states) + classTransCost*float64(trans)
}

// Fitted on \w, \pL, \d, \s and . of the reference.
const (
	classStateCost = 4
	classTransCost = 39
)

// classKey is the memory of c as a string, a map key.
func classKey(c syntax.RuneClass) string {
	if len(c) == 0 {
		return ""
	}
	return string(unsafe.Slice((*byte)(unsafe.Pointer(&c[0])), len(c)*int(unsafe.Sizeof(c[0]))))
}
