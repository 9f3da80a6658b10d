package diff

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGolden compares Unified with diff -u's output, checked in under
// testdata/golden (made once by testdata/mkgolden.sh with GNU diffutils
// 3.8): NAME.old, NAME.new, and NAME.U<ctx>.diff for each context.
func TestGolden(t *testing.T) {
	diffs, err := filepath.Glob("testdata/golden/*.diff")
	if err != nil {
		t.Fatal(err)
	}
	if len(diffs) < 20 {
		t.Fatalf("found %d golden files, want the checked-in set", len(diffs))
	}
	for _, p := range diffs {
		base := strings.TrimSuffix(p, ".diff")
		var ctx int
		dot := strings.LastIndex(base, ".U")
		if _, err := fmt.Sscanf(base[dot:], ".U%d", &ctx); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		name := base[:dot]
		want := readFile(t, p)
		a, b := readFile(t, name+".old"), readFile(t, name+".new")
		got, _, err := Unified("old", "new", a, b, Options{Context: ctx, ContextSet: true})
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		check(t, a, b, Options{Context: ctx, ContextSet: true})
		if tieBreaks[filepath.Base(p)] {
			// The same changes, placed differently: as many lines of
			// each kind, in as many blocks.
			if got == want {
				t.Errorf("%s: now equals diff -u's; drop it from tieBreaks", p)
			}
			if gs, ws := patchStats(got), patchStats(want); gs.Inserted != ws.Inserted || gs.Deleted != ws.Deleted || gs.Changed != ws.Changed {
				t.Errorf("%s: stats %+v, diff -u's %+v", p, gs, ws)
			}
			continue
		}
		if got != want {
			t.Errorf("%s: got\n%s\nwant (diff -u)\n%s", p, got, want)
		}
	}
}

// tieBreaks are the golden patches whose changes diff -u places elsewhere
// among equally small choices. All are -U0: GNU diff trims the common
// prefix and suffix down to its context (horizon_lines) before diffing,
// so its own -U0 and -U1 patches of these files pair the lines
// differently (blanks.U1 and code_moved.U3 match this package's).
var tieBreaks = map[string]bool{"blanks.U0.diff": true, "code_moved.U0.diff": true}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestGenerated applies the patches of the benchmark's inputs and checks
// the patch is near-minimal: no more changed lines than 1.1 times an
// exact Myers diff's (the edit distance).
func TestGenerated(t *testing.T) {
	for _, c := range []struct{ lines, edits int }{{200, 5}, {2000, 10}, {2000, 200}, {12000, 50}, {12000, 500}, {30000, 1000}} {
		a, b := genPair(c.lines, c.edits, uint32(c.lines*7919+c.edits))
		check(t, a, b, Options{})
		_, st, err := Unified("x", "y", a, b, Options{})
		if err != nil {
			t.Fatal(err)
		}
		dist := editDistance(a, b)
		t.Logf("%d lines, %d edits: %d lines deleted, %d inserted; edit distance %d", c.lines, c.edits, st.Deleted, st.Inserted, dist)
		if got := st.Deleted + st.Inserted; float64(got) > 1.1*float64(dist) {
			t.Errorf("%d lines, %d edits: %d lines changed, edit distance %d", c.lines, c.edits, got, dist)
		}
	}
}

// editDistance is the number of lines deleted and inserted by a minimal
// diff: this package's Myers search with no cost bound over whole inputs.
func editDistance(a, b string) int {
	d := newDiffer(a, b, nil)
	d.exact = true
	d.intern(0, d.old.n(), d.new.n())
	if err := d.myers(region{0, int32(len(d.a)), 0, int32(len(d.b))}); err != nil {
		panic(err)
	}
	n := 0
	for _, c := range [][]bool{d.old.changed, d.new.changed} {
		for _, x := range c {
			if x {
				n++
			}
		}
	}
	return n
}

func TestErrors(t *testing.T) {
	a, b := genPair(5000, 100, 1)
	p, st, err := Unified("x", "y", a, b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// MaxBytes: the exact size passes, one byte less does not.
	p2, st2, err := Unified("x", "y", a, b, Options{MaxBytes: len(p)})
	if err != nil || p2 != p || st2 != st {
		t.Fatalf("MaxBytes = size: %v, same patch %v", err, p2 == p)
	}
	p3, st3, err := Unified("x", "y", a, b, Options{MaxBytes: len(p) - 1})
	if !errors.Is(err, ErrTooLarge) || p3 != "" || st3 != st {
		t.Fatalf("MaxBytes = size-1: %q, %v, stats %+v (want %+v)", p3[:min(len(p3), 20)], err, st3, st)
	}
	if !strings.Contains(err.Error(), fmt.Sprint(len(p))) {
		t.Errorf("error %q does not name the size %d", err, len(p))
	}
	// Equal inputs are never too large.
	if p, _, err := Unified("x", "y", a, a, Options{MaxBytes: 1}); p != "" || err != nil {
		t.Fatalf("equal inputs with MaxBytes 1: %q, %v", p, err)
	}
	// Cancel: true at once, then true after some polls (mid-diff).
	if _, _, err := Unified("x", "y", a, b, Options{Cancel: func() bool { return true }}); err != ErrCancelled {
		t.Fatalf("cancelled at once: %v", err)
	}
	big, bigB := genPair(100000, 1000, 2)
	polls := 0
	_, _, err = Unified("x", "y", big, bigB, Options{Cancel: func() bool { polls++; return polls > 3 }})
	if err != ErrCancelled || polls != 4 {
		t.Fatalf("cancelled at the 4th poll: %v after %d polls", err, polls)
	}
	polls = 0
	if _, _, err := Unified("x", "y", big, bigB, Options{Cancel: func() bool { polls++; return false }}); err != nil || polls < 10 {
		t.Fatalf("never cancelled: %v after %d polls (want >= 10 on 100k lines)", err, polls)
	}
	// Cancel inside Myers' search (no line rare enough to anchor).
	r := &rng{s: 4}
	var pa, pb strings.Builder
	for i := 0; i < 50000; i++ {
		pa.WriteString([]string{"}\n", "\n"}[r.intn(2)])
		pb.WriteString([]string{"}\n", "\n"}[r.intn(2)])
	}
	polls = 0
	_, _, err = Unified("x", "y", pa.String(), pb.String(), Options{Cancel: func() bool { polls++; return polls > 5 }})
	if err != ErrCancelled || polls != 6 {
		t.Fatalf("Myers cancelled at the 6th poll: %v after %d polls", err, polls)
	}
	// MaxBytes < 0 is no bound.
	if p4, _, err := Unified("x", "y", a, b, Options{MaxBytes: -1}); err != nil || p4 != p {
		t.Fatalf("MaxBytes -1: %v", err)
	}
	// Bad options and names.
	if _, _, err := Unified("x", "y", a, b, Options{Context: -1}); err == nil || !strings.Contains(err.Error(), "negative Context") {
		t.Fatalf("negative context: %v", err)
	}
	if _, _, err := Unified("x\ny", "y", a, b, Options{}); err == nil || !strings.Contains(err.Error(), "line break") {
		t.Fatalf("name with a newline: %v", err)
	}
}

// TestContextDefault: Context 0 means 3 unless ContextSet.
func TestContextDefault(t *testing.T) {
	a, b := genPair(100, 3, 3)
	p0, _, _ := Unified("x", "y", a, b, Options{})
	p3, _, _ := Unified("x", "y", a, b, Options{Context: 3, ContextSet: true})
	u0, _, _ := Unified("x", "y", a, b, Options{ContextSet: true})
	if p0 != p3 || u0 == p3 {
		t.Fatalf("default context differs from 3, or -U0 equals -U3")
	}
	all, _, err := Unified("x", "y", a, b, Options{Context: math.MaxInt})
	if err != nil || !strings.HasPrefix(all, "--- a/x\n+++ b/y\n@@ -1,100 +1,") || strings.Count(all, "@@ -") != 1 {
		t.Fatalf("Context MaxInt: one hunk of every line, got %v\n%s", err, all)
	}
	check(t, a, b, Options{Context: math.MaxInt})
	for _, l := range splitKeep(u0)[2:] {
		if l[0] == ' ' {
			t.Fatalf("-U0 printed a context line %q", l)
		}
	}
}

// TestPathological: inputs where no line is rare (Myers with its cost
// bound) still give correct patches.
func TestPathological(t *testing.T) {
	r := &rng{s: 9}
	var sa, sb strings.Builder
	for i := 0; i < 20000; i++ {
		sa.WriteString([]string{"}\n", "\n", "x\n"}[r.intn(3)])
		sb.WriteString([]string{"}\n", "\n", "x\n"}[r.intn(3)])
	}
	// Unbounded: the search's own cost bound is what is checked here
	// (TestWorkBudget checks that the default budget gives up on this).
	check(t, sa.String(), sb.String(), Options{MaxWork: -1})
	check(t, strings.Repeat("a\n", 5000), strings.Repeat("a\n", 4000)+"b\n"+strings.Repeat("a\n", 1500), Options{})
	check(t, strings.Repeat("a\nb\n", 3000), strings.Repeat("b\na\n", 3000), Options{})
}
