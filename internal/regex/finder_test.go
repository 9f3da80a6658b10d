package regex

import (
	"bytes"
	"math/rand"
	"testing"

	"github.com/fscache/fscache/internal/regex/syntax"
)

// naiveFind is the oracle for finder.find: the first occurrence of needle
// (ASCII case-folded when fold) starting in [from, end).
func naiveFind(h []byte, needle string, fold bool, from, end int) int {
	n := []byte(needle)
	for i := from; i < end && i+len(n) <= len(h); i++ {
		s := h[i : i+len(n)]
		if fold && bytes.EqualFold(s, n) || !fold && bytes.Equal(s, n) {
			return i
		}
	}
	return -1
}

// TestFinderAgainstNaive checks every search path of the finder (memchr on
// a very rare byte, the vectorised two-byte scan on common ones, folded and
// not) against a naive search, over random haystacks, needles and windows.
func TestFinderAgainstNaive(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	alphabets := []string{"ab", "abcm MAIN func", "func main()\n\tzqxj", "eeeeeeeeeeeeeeeex"}
	for iter := 0; iter < 20000; iter++ {
		alpha := alphabets[iter%len(alphabets)]
		h := make([]byte, rng.Intn(300))
		for i := range h {
			h[i] = alpha[rng.Intn(len(alpha))]
		}
		nl := 1 + rng.Intn(6)
		nb := make([]byte, nl)
		for i := range nb {
			nb[i] = alpha[rng.Intn(len(alpha))]
		}
		fold := rng.Intn(2) == 0
		needle := string(nb)
		if fold {
			needle = string(bytes.ToLower(nb))
		}
		f := newFinder(syntax.Lit{S: needle, Fold: fold})
		from := rng.Intn(len(h) + 1)
		end := from + rng.Intn(len(h)-from+1)
		// find may read past end (but not past len(h)) and only reports
		// starts before end.
		want := naiveFind(h, needle, fold, from, end)
		if got := f.find(h, from, end); got != want {
			t.Fatalf("find(%q in %q, fold %v, [%d,%d)) = %d, want %d", needle, h, fold, from, end, got, want)
		}
	}
}

func TestFinder(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	alpha := "abcAB_(\n"
	for range 2000 {
		hay := make([]byte, r.Intn(200))
		for i := range hay {
			hay[i] = alpha[r.Intn(len(alpha))]
		}
		nb := make([]byte, 1+r.Intn(3))
		for i := range nb {
			nb[i] = alpha[r.Intn(len(alpha)-1)]
		}
		l := syntax.Lit{S: string(nb)}
		fold := r.Intn(2) == 0
		if fold {
			l = syntax.Lit{S: syntax.LowerASCII(l.S), Fold: true}
		}
		from := r.Intn(len(hay) + 1)
		want := -1
		for i := from; i+len(nb) <= len(hay); i++ {
			if fold && bytes.EqualFold(hay[i:i+len(nb)], nb) || !fold && bytes.Equal(hay[i:i+len(nb)], nb) {
				want = i
				break
			}
		}
		if got := newFinder(l).find(hay, from, len(hay)); got != want {
			t.Fatalf("find %+v in %q from %d = %d, want %d", l, hay, from, got, want)
		}
	}
}

// TestFinderSSE2 is TestFinderAgainstNaive with indexPair's 32-byte loop
// (AVX2) off: its 16-byte loop alone.
func TestFinderSSE2(t *testing.T) {
	detectCPU() // or the first finder would set it again
	old := useAVX2
	useAVX2 = false
	defer func() { useAVX2 = old }()
	TestFinderAgainstNaive(t)
}
