package walk

import (
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
)

// Tests of the options that shape what a walk reads: Descend and
// FullDepth.

// TestDescend: a directory Options.Descend declines is reported but not
// read, by Scan and WalkSub alike, with no OnDir for it; the rest of the
// tree is as without Descend. A plain tree, which every platform can hold.
func TestDescend(t *testing.T) {
	root := tree(t, "a.txt", "d1x/b.txt", "d2/c.txt", "d2/e/f.txt", "d2/e/g/h.txt", "d2/d1y/i.txt", ".h/j.txt", "k/")
	checkDescend(t, 0, root)
}

// TestDescendRandomTrees is TestDescend on random trees (links, FIFOs,
// names that are not UTF-8).
func TestDescendRandomTrees(t *testing.T) {
	for seed := range uint64(4) {
		checkDescend(t, seed, randomTree(t, rand.New(rand.NewPCG(seed, 7)), 150))
	}
}

func checkDescend(t *testing.T, seed uint64, root string) {
	t.Helper()
	{
		declined := func(rel string) bool {
			return strings.Count(rel, "/") >= 1 || strings.HasPrefix(pathBase(rel), "d1")
		}
		under := func(p string) bool { // below a declined directory
			for i := strings.IndexByte(p, '/'); i >= 0; {
				if declined(p[:i]) {
					return true
				}
				j := strings.IndexByte(p[i+1:], '/')
				if j < 0 {
					break
				}
				i += 1 + j
			}
			return false
		}
		base := Options{Root: root, Hidden: true, Gitignore: true}
		all, err := Scan(base)
		must(t, err)
		var want []Entry
		for _, e := range all {
			if !under(e.Path) {
				want = append(want, e)
			}
		}
		o := base
		o.Descend = func(rel string) bool { return !declined(rel) }
		var dirs sync.Map
		o.OnDir = func(abs string) error { dirs.Store(abs, true); return nil }
		got, err := Scan(o)
		must(t, err)
		if list(got) != list(want) {
			t.Fatalf("seed %d: Scan with Descend:\n got %s\nwant %s", seed, list(got), list(want))
		}
		var walked []Entry
		var mu sync.Mutex
		must(t, WalkSub(o, Sub{}, func(e Entry) error { mu.Lock(); walked = append(walked, e); mu.Unlock(); return nil }))
		slices.SortFunc(walked, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) })
		sortedWant := slices.Clone(want)
		slices.SortFunc(sortedWant, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) })
		if list(walked) != list(sortedWant) {
			t.Fatalf("seed %d: WalkSub with Descend:\n got %s\nwant %s", seed, list(walked), list(sortedWant))
		}
		dirs.Range(func(k, _ any) bool {
			if rel := strings.TrimPrefix(k.(string), root+"/"); k.(string) != root && declined(rel) {
				t.Errorf("seed %d: OnDir for the declined %s", seed, rel)
			}
			return true
		})
	}
}

func pathBase(p string) string { return p[strings.LastIndexByte(p, '/')+1:] }

// TestFullDepth: with FullDepth, the entries at most that deep get the
// full detail Full gives them, the deeper ones -1s, by Scan and Walk.
func TestFullDepth(t *testing.T) {
	root := tree(t, "a.txt", "d/b.txt", "d/e/c.txt", "d/e/f/g.txt", "x/")
	full, err := Scan(Options{Root: root, Full: true})
	must(t, err)
	for _, depth := range []int{1, 2, 3} {
		o := Options{Root: root, Full: true, FullDepth: depth}
		got, err := Scan(o)
		must(t, err)
		var walked []Entry
		var mu sync.Mutex
		must(t, Walk(o, func(e Entry) error { mu.Lock(); walked = append(walked, e); mu.Unlock(); return nil }))
		slices.SortFunc(walked, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) })
		for name, es := range map[string][]Entry{"Scan": got, "Walk": walked} {
			if len(es) != len(full) {
				t.Fatalf("%s depth %d: %d entries, want %d", name, depth, len(es), len(full))
			}
			for i, e := range es {
				want := full[i]
				if strings.Count(e.Path, "/") >= depth {
					want.Mtime, want.Size = -1, -1
				}
				if e != want {
					t.Errorf("%s FullDepth %d: %+v, want %+v", name, depth, e, want)
				}
			}
		}
	}
}
