package walk

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// scanOrdered collects ScanOrdered's entries.
func scanOrdered(t *testing.T, o Options) ([]Entry, error) {
	t.Helper()
	var out []Entry
	err := ScanOrdered(o, func(e Entry) error {
		out = append(out, e)
		return nil
	})
	return out, err
}

// TestScanOrderedMatchesScan: on random trees, with every option set (full
// detail too), ScanOrdered emits exactly Scan's entries in Scan's order
// (or, where siblings display the same, Scan's first entries and then
// ErrUnordered).
func TestScanOrderedMatchesScan(t *testing.T) {
	n := 12
	if testing.Short() {
		n = 2
	}
	for seed := range uint64(n) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			root := randomTree(t, rand.New(rand.NewPCG(seed, 99)), 150)
			for _, o := range optionSets(root) {
				for _, full := range []bool{false, true} {
					o.Full = full
					want, err := Scan(o)
					if err != nil {
						t.Fatal(err)
					}
					got, err := scanOrdered(t, o)
					unordered := errors.Is(err, ErrUnordered)
					if err != nil && !unordered {
						t.Fatal(err)
					}
					if full {
						// (mtimes of the links followed may be read at
						// different moments: compare the paths and kinds)
						for i := range got {
							got[i].Mtime = 0
						}
						for i := range want {
							want[i].Mtime = 0
						}
					}
					if unordered {
						// Siblings that display the same ("bad\xff",
						// "bad\xfe"): what came before is Scan's.
						want = want[:min(len(want), len(got))]
					}
					if !slices.Equal(got, want) {
						t.Fatalf("%s:\ngot  %s\nwant %s", optName(o), list(got), list(want))
					}
				}
			}
		})
	}
}

// TestScanOrderedAroundSlash: names that sort between a directory and its
// subtree, in a tree deep and wide enough that listings run ahead.
func TestScanOrderedAroundSlash(t *testing.T) {
	names := []string{"a/x", "a/.h", "a!", "a!b/y", "a-b", "a.txt", "a0", "a /z", "ab/c/d", "ab.c/e", "ab!/f",
		"z/", "zz/a/b/c/d", "x/x/x/x", "x/x.y", "x/x-y/", "x.x/x", "_/", "~", "ABC", "abcdefgh/1",
		"abcdefgh!/2", "abcdefgh.i/3", "abcdefghi/4", "abcdefg/5", "abcdefg.h/6", "abcdefg!/7"}
	for i := range 100 {
		names = append(names, fmt.Sprintf("w%02d/f", i), fmt.Sprintf("w%02d-x/g", i), fmt.Sprintf("w%02d.y", i))
	}
	root := tree(t, names...)
	for _, o := range []Options{{Root: root}, {Root: root, Hidden: true}} {
		want, err := Scan(o)
		if err != nil {
			t.Fatal(err)
		}
		got, err := scanOrdered(t, o)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("got  %s\nwant %s", list(got), list(want))
		}
	}
}

// TestScanOrderedStops: emit's error stops the walk and is returned, the
// entries emitted being the first of Scan's; a cancelled token stops it.
func TestScanOrderedStops(t *testing.T) {
	var names []string
	for d := range 50 {
		for f := range 5 {
			names = append(names, fmt.Sprintf("d%02d/s/f%d", d, f))
		}
	}
	root := tree(t, names...)
	want, err := Scan(Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	stop := errors.New("enough")
	for _, n := range []int{1, 7, 100, len(want) - 1} {
		var got []Entry
		err := ScanOrdered(Options{Root: root}, func(e Entry) error {
			got = append(got, e)
			if len(got) == n {
				return stop
			}
			return nil
		})
		if !errors.Is(err, stop) {
			t.Fatalf("stop at %d: %v", n, err)
		}
		if !slices.Equal(got, want[:n]) {
			t.Fatalf("stop at %d: got %s", n, list(got))
		}
	}
	if _, err := scanOrdered(t, Options{Root: filepath.Join(root, "missing")}); err == nil {
		t.Error("a missing root: no error")
	}
}

// TestScanOrderedCollisions: siblings that display the same give
// ErrUnordered, never entries out of Scan's order.
func TestScanOrderedCollisions(t *testing.T) {
	root := tree(t)
	for _, p := range []string{"x\xff/a", "x\xfe/b"} {
		full := filepath.Join(root, p)
		must(t, os.MkdirAll(filepath.Dir(full), 0o755))
		must(t, os.WriteFile(full, nil, 0o644))
	}
	var got []Entry
	err := ScanOrdered(Options{Root: root}, func(e Entry) error {
		got = append(got, e)
		return nil
	})
	if !errors.Is(err, ErrUnordered) || len(got) != 0 {
		t.Errorf("err %v after %d entries", err, len(got))
	}
}
