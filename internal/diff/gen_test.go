package diff

import (
	"strconv"
	"strings"
)

// The benchmark inputs: code-like files of a given number of lines and a
// copy with a number of edits (a line replaced, 1-3 lines inserted or 1-3
// deleted at random places). bindings/node/bench/diff-jsdiff.mjs makes the
// same files with the same generator (mulberry32, same choices in the same
// order), so that the Go benchmarks and the side-by-side run diff alike.

// rng is mulberry32.
type rng struct{ s uint32 }

func (r *rng) next() uint32 {
	r.s += 0x6D2B79F5
	t := r.s
	t = (t ^ t>>15) * (1 | t)
	t = (t + (t^t>>7)*(61|t)) ^ t
	return t ^ t>>14
}

// intn is a number in [0, n).
func (r *rng) intn(n int) int { return int(r.next() % uint32(n)) }

var genWords = []string{"value", "index", "count", "result", "options", "buffer", "node", "entry", "path", "name",
	"size", "offset", "items", "state", "config", "error", "handler", "cache", "key", "data"}

// genLine is one code-like line.
func genLine(r *rng) string {
	ind := strings.Repeat("\t", r.intn(4))
	w := func() string { return genWords[r.intn(len(genWords))] }
	switch k := r.intn(20); {
	case k < 3:
		return ""
	case k < 5:
		return ind + "}"
	case k < 6:
		return ind + "return null;"
	case k < 9:
		return ind + "if (" + w() + " === " + strconv.Itoa(r.intn(1000)) + ") {"
	case k < 13:
		return ind + "const " + w() + strconv.Itoa(r.intn(10000)) + " = " + w() + "(" + w() + ", " + strconv.Itoa(r.intn(100000)) + ");"
	case k < 15:
		return ind + "// " + w() + " " + w() + " " + w() + " " + strconv.Itoa(r.intn(1000))
	case k < 17:
		return ind + w() + "." + w() + " = " + w() + "[" + strconv.Itoa(r.intn(100)) + "];"
	default:
		return ind + "function " + w() + strconv.Itoa(r.intn(100000)) + "(" + w() + ", " + w() + ") {"
	}
}

// genPair makes the old and new files: lines lines, edits edits, from seed.
func genPair(lines, edits int, seed uint32) (string, string) {
	r := &rng{s: seed}
	a := make([]string, lines)
	for i := range a {
		a[i] = genLine(r)
	}
	b := append([]string(nil), a...)
	for e := 0; e < edits; e++ {
		pos := r.intn(len(b) + 1)
		switch r.intn(3) {
		case 0:
			if pos < len(b) {
				b[pos] = genLine(r)
			}
		case 1:
			k := 1 + r.intn(3)
			ins := make([]string, k)
			for i := range ins {
				ins[i] = genLine(r)
			}
			b = append(b[:pos], append(ins, b[pos:]...)...)
		default:
			k := 1 + r.intn(3)
			b = append(b[:pos], b[min(pos+k, len(b)):]...)
		}
	}
	join := func(ls []string) string {
		if len(ls) == 0 {
			return ""
		}
		return strings.Join(ls, "\n") + "\n"
	}
	return join(a), join(b)
}
