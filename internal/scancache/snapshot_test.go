package scancache

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"
	"time"

	"github.com/fscache/fscache/internal/walk"
)

// TestSpliceAgreesWithACopy patches a snapshot of many blocks again and
// again, the way refresh does (a range replaced by fresh entries and kept
// ranges of the old snapshot), and checks every accessor against a flat
// copy patched alike, that the number of runs stays bounded, and that the
// blocks outside the patched range are shared, not copied.
func TestSpliceAgreesWithACopy(t *testing.T) {
	next := 0 // the number in the next fresh entry's path
	rng := rand.New(rand.NewSource(1))
	fresh := func(n int) []walk.Entry {
		es := make([]walk.Entry, n)
		for i := range es {
			es[i] = walk.Entry{Path: fmt.Sprintf("e%07d", next), Size: int64(next)}
			next++
		}
		return es
	}
	model := fresh(5*blockSize + 123)
	s := NewSnapshot(slices.Clone(model), time.Time{})
	check := func(step int) {
		t.Helper()
		if s.Len() != len(model) {
			t.Fatalf("step %d: Len %d, want %d", step, s.Len(), len(model))
		}
		if got := s.Entries(); !slices.Equal(got, model) {
			t.Fatalf("step %d: entries differ from the copy", step)
		}
		for range 20 {
			if len(model) == 0 {
				break
			}
			i := rng.Intn(len(model))
			if *s.At(i) != model[i] {
				t.Fatalf("step %d: At(%d) = %v, want %v", step, i, *s.At(i), model[i])
			}
			b, k, end := s.Locate(i)
			if b.Entries()[k] != model[i] || end <= i || end > len(model) || b.Entries()[k+end-i-1] != model[end-1] {
				t.Fatalf("step %d: Locate(%d) = block entry %d, end %d", step, i, k, end)
			}
			j := i + rng.Intn(len(model)-i+1)
			var got []walk.Entry
			for p, e := range s.Between(i, j) {
				if p != i+len(got) {
					t.Fatalf("step %d: Between(%d, %d) yields position %d at %d", step, i, j, p, i+len(got))
				}
				got = append(got, *e)
			}
			if !slices.Equal(got, model[i:j]) {
				t.Fatalf("step %d: Between(%d, %d) differs", step, i, j)
			}
			// Search needs sorted paths: the patches below do not keep
			// them sorted (refresh does; the churn tests check that).
			if p := model[i].Path; step == 0 && (s.Search(p) != i || s.Search(p+"~") != i+1) {
				t.Fatalf("step %d: Search(%q) = %d, want %d", step, p, s.Search(p), i)
			}
		}
		if max := 2*len(model)/smallRun + 2; len(s.runs) > max {
			t.Fatalf("step %d: %d runs for %d entries (at most %d)", step, len(s.runs), len(model), max)
		}
	}
	check(0)
	for step := 1; step <= 400; step++ {
		lo := rng.Intn(len(model) + 1)
		hi := lo + rng.Intn(min(len(model)-lo, 40)+1)
		if rng.Intn(20) == 0 {
			hi = lo + rng.Intn(len(model)-lo+1) // now and then a large range
		}
		// The replacement: fresh entries, with kept sub-ranges of [lo, hi).
		var pieces []piece
		var repl []walk.Entry
		for at := lo; ; {
			if n := rng.Intn(4); n > 0 {
				f := fresh(n)
				pieces = append(pieces, piece{fresh: f})
				repl = append(repl, f...)
			}
			if at >= hi {
				break
			}
			a := at + rng.Intn(hi-at+1)
			b := a + rng.Intn(hi-a+1)
			if b > a {
				pieces = append(pieces, piece{lo: a, hi: b})
				repl = append(repl, model[a:b]...)
			}
			at = b + 1
		}
		old := s
		s = s.splice(lo, hi, pieces, time.Time{})
		model = slices.Concat(model[:lo:lo], repl, model[hi:])
		check(step)
		// A block wholly before the patched range (and past the runs
		// compaction may merge with it) is the old snapshot's.
		if r := old.runOf(max(lo-1, 0)); r > 1 && old.runs[0].hi-old.runs[0].lo >= smallRun && s.runs[0].b != old.runs[0].b {
			t.Fatalf("step %d: the first block was copied by a patch at %d", step, lo)
		}
	}
}
