//go:build !amd64

package regex

// hasIndexPair reports whether indexPair is implemented (in assembly).
const hasIndexPair = false

func indexPair(p *byte, n, off1, off2, m1, o1, m2, o2 int) int { panic("unreachable") }
