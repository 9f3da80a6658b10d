package fuzzy

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestMaskNeverRejectsAMatch is the prefilter's soundness: for random paths
// and queries (ASCII and not, upper case, separators, slashes), whenever
// Score matches, MayMatch lets the entry through. It also checks that the
// prefilter rejects something, or it would test nothing.
func TestMaskNeverRejectsAMatch(t *testing.T) {
	alphabet := []string{"a", "b", "c", "s", "t", "r", "v", "h", "p", "1", "7", "A", "B", "S", "H",
		"/", ".", "_", "-", " ", "\\", "İ", "Σ", "σ", "\u212a", "k", "ß", "é", "É", "\u00a0", "+", "~"}
	r := rand.New(rand.NewPCG(1, 2))
	word := func(n int) string {
		var b strings.Builder
		for range r.IntN(n) + 1 {
			b.WriteString(alphabet[r.IntN(len(alphabet))])
		}
		return b.String()
	}
	rejected, matched := 0, 0
	for range 200_000 {
		path := strings.Trim(word(14), "/")
		if path == "" {
			continue
		}
		q := NewQuery(word(5))
		if q.Impossible() {
			continue
		}
		need, onBase := q.Need()
		base, whole := Masks(path)
		m := whole
		if onBase {
			m = base
		}
		may := MayMatch(m, need)
		if !may {
			rejected++
		}
		for _, isDir := range []bool{false, true} {
			if s := q.Score(path, isDir); s > 0 {
				matched++
				if !may {
					t.Fatalf("query %q matches %q (score %d) but the mask rejects it", q.raw, path, s)
				}
			}
		}
	}
	if rejected == 0 || matched == 0 {
		t.Fatalf("rejected %d, matched %d: the test exercises nothing", rejected, matched)
	}
}

// TestNeed checks the queries the prefilter leaves alone.
func TestNeed(t *testing.T) {
	if need, _ := NewQuery("").Need(); need != 0 {
		t.Error("the empty query needs something")
	}
	if need, _ := NewQuery("éa").Need(); need != 0 {
		t.Error("a non-ASCII query needs something")
	}
	if _, onBase := NewQuery("a/b").Need(); onBase {
		t.Error("a query with '/' is tested on the basename")
	}
	if need, onBase := NewQuery("Ab").Need(); need != charBit('a')|charBit('b') || !onBase {
		t.Errorf("Need(Ab) = %x, %v", need, onBase)
	}
}
