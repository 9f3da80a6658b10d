//go:build !amd64

package regex

// hasIndexPair reports whether indexPair is implemented (in assembly).
const hasIndexPair = false

// useAVX2 is pair_amd64.go's; nothing reads it here.
var useAVX2 = false

// detectCPU is pair_amd64.go's; there is nothing to detect here.
func detectCPU() {}

func indexPair(p *byte, n, off1, off2, m1, o1, m2, o2 int) int { panic("unreachable") }
