package diff

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// threeLines is n lines drawn at random (seeded) from 3 distinct ones: a
// file whose rewrite makes the diff's search costly everywhere.
func threeLines(n int, seed uint32) string {
	r := rng{seed}
	lines := [...]string{"alpha\n", "beta\n", "gamma\n"}
	var b strings.Builder
	b.Grow(n * 6)
	for range n {
		b.WriteString(lines[r.intn(3)])
	}
	return b.String()
}

// TestWorkBudget: a 200k-line file of 3 distinct lines rewritten as a
// fresh draw passes the default work budget and gives up with
// ErrTooCostly (without the bound it runs to a 1 MB patch); edited code
// of the benchmark's sizes stays well within it.
func TestWorkBudget(t *testing.T) {
	x, y := threeLines(200000, 1), threeLines(200000, 2)
	if _, _, err := Unified("a", "b", x, y, Options{}); !errors.Is(err, ErrTooCostly) {
		t.Fatalf("3-line rewrite of 200k lines: %v, want ErrTooCostly", err)
	}
	// The benchmark's cases (make bench-diff) and a dense one (an edit
	// every 4 lines) complete; those whose patch the read cache could
	// serve (at most 50 KB) take at most half the budget.
	for _, c := range [][2]int{{2000, 10}, {2000, 200}, {2000, 1000}, {12000, 50}, {12000, 1000}, {12000, 3000}, {100000, 200}, {100000, 1000}} {
		x, y := genPair(c[0], c[1], uint32(c[0]*7919+c[1]))
		// Unified's steps, to see the work done.
		d := newDiffer(x, y, nil)
		lines := d.old.n() + d.new.n()
		d.budget = DefaultWorkPerLine*lines + MinWork
		err := d.run()
		var p string
		if err == nil {
			p, _, err = d.format("a", "b", DefaultContext, 0)
		}
		d.release()
		if err != nil {
			t.Errorf("%dx%d: %v", c[0], c[1], err)
			continue
		}
		t.Logf("%dx%d: %.1f units of work per line, patch %d bytes", c[0], c[1], float64(d.spent)/float64(lines), len(p))
		if limit := DefaultWorkPerLine * lines / 2; len(p) <= 50<<10 && d.spent > limit {
			t.Errorf("%dx%d: %d units of work, more than half the budget's %d per line", c[0], c[1], d.spent, DefaultWorkPerLine)
		}
	}
}

// TestBudgetsGiveUpCleanly: whatever the bound that stops it (work, or
// the patch's size found too large early), Unified returns its error and
// no patch; otherwise the patch applies. Small budgets stop the diff at
// every stage.
func TestBudgetsGiveUpCleanly(t *testing.T) {
	r := rng{7}
	for i := range 400 {
		x := threeLines(50+r.intn(400), uint32(i))
		y := threeLines(50+r.intn(400), uint32(i+1000))
		if i%2 == 0 {
			x, y = genPair(300+r.intn(500), 1+r.intn(60), uint32(i))
		}
		o := Options{MaxWork: 1 + r.intn(20000), MaxBytes: r.intn(3) * (1 + r.intn(4000))}
		p, _, err := Unified("a", "b", x, y, o)
		switch {
		case errors.Is(err, ErrTooCostly), errors.Is(err, ErrTooLarge):
			if p != "" {
				t.Fatalf("case %d: %v with a patch", i, err)
			}
		case err != nil:
			t.Fatalf("case %d: %v", i, err)
		default:
			if o.MaxBytes > 0 && len(p) > o.MaxBytes {
				t.Fatalf("case %d: patch of %d bytes over MaxBytes %d", i, len(p), o.MaxBytes)
			}
			if got, err := Apply(x, p); err != nil || got != y {
				t.Fatalf("case %d: the patch does not apply: %v", i, err)
			}
		}
	}
}

// TestEarlyTooLargeIsExact: giving up early on the changed lines' bytes
// never refuses a patch that fits: with MaxBytes at the patch's own size
// the diff succeeds, one byte less it does not.
func TestEarlyTooLargeIsExact(t *testing.T) {
	for i, c := range [][2]int{{2000, 10}, {2000, 200}, {12000, 50}} {
		x, y := genPair(c[0], c[1], uint32(i+1))
		p, _, err := Unified("a", "b", x, y, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if q, _, err := Unified("a", "b", x, y, Options{MaxBytes: len(p)}); err != nil || q != p {
			t.Errorf("%v: MaxBytes = its size: %v", c, err)
		}
		if _, _, err := Unified("a", "b", x, y, Options{MaxBytes: len(p) - 1}); !errors.Is(err, ErrTooLarge) {
			t.Errorf("%v: MaxBytes one less: %v", c, err)
		}
	}
}

// BenchmarkPathological: the 3-line rewrite of TestWorkBudget, with the
// default budget and without one.
func BenchmarkPathological(b *testing.B) {
	x, y := threeLines(200000, 1), threeLines(200000, 2)
	for _, mw := range []int{0, -1} {
		b.Run(fmt.Sprintf("maxWork=%d", mw), func(b *testing.B) {
			for b.Loop() {
				_, _, _ = Unified("a", "b", x, y, Options{MaxWork: mw, MaxBytes: 25 << 10})
			}
		})
	}
}
