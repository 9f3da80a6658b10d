package walk

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
)

// TestScanHooksMatchWalkSub checks the hooks of Scan, which the watched
// cache's fill relies on, against WalkSub's on random trees with links,
// over every option set: the same directories are announced before they
// are read, the same links reported, and Observe sees, once each, the
// entries the walk returns.
func TestScanHooksMatchWalkSub(t *testing.T) {
	linksSeen := 0
	for seed := range uint64(6) {
		root := randomTree(t, rand.New(rand.NewPCG(seed, 7)), 120)
		for _, o := range optionSets(root) {
			t.Run(fmt.Sprint(seed, " ", optName(o)), func(t *testing.T) {
				var mu sync.Mutex
				add := func(list *[]string) func(string) {
					return func(s string) {
						mu.Lock()
						*list = append(*list, s)
						mu.Unlock()
					}
				}
				hooks := func(dirs, links, observed *[]string) Hooks {
					return Hooks{
						OnDir:   func(abs string) error { add(dirs)(abs); return nil },
						OnLink:  add(links),
						Observe: func(e Entry) error { add(observed)(list([]Entry{e})); return nil },
					}
				}
				var scanDirs, scanLinks, scanSeen, subDirs, subLinks, subSeen, subGot []string
				so := o
				so.Hooks = hooks(&scanDirs, &scanLinks, &scanSeen)
				es, err := Scan(so)
				if err != nil {
					t.Fatal(err)
				}
				wo := o
				wo.Hooks = hooks(&subDirs, &subLinks, &subSeen)
				if err := WalkSub(wo, Sub{}, func(e Entry) error { add(&subGot)(list([]Entry{e})); return nil }); err != nil {
					t.Fatal(err)
				}
				var scanGot []string
				for _, e := range es {
					scanGot = append(scanGot, list([]Entry{e}))
				}
				for _, l := range [][]string{scanDirs, scanLinks, scanSeen, scanGot, subDirs, subLinks, subSeen, subGot} {
					slices.Sort(l)
				}
				if !slices.Equal(scanDirs, subDirs) {
					t.Errorf("OnDir: Scan %d directories, WalkSub %d\nscan %q\nsub  %q", len(scanDirs), len(subDirs), scanDirs, subDirs)
				}
				linksSeen += len(scanLinks)
				if !slices.Equal(scanLinks, subLinks) {
					t.Errorf("OnLink: Scan %q, WalkSub %q", scanLinks, subLinks)
				}
				if !slices.Equal(scanSeen, scanGot) {
					t.Errorf("Scan's Observe saw %q, Scan returned %q", scanSeen, scanGot)
				}
				if !slices.Equal(subSeen, subGot) || !slices.Equal(subGot, scanGot) {
					t.Errorf("WalkSub's Observe saw %q, fn %q, Scan returned %q", subSeen, subGot, scanGot)
				}
			})
		}
	}
	if linksSeen == 0 {
		t.Error("the trees had no links: the test checks nothing about OnLink")
	}
}

// TestOnLinkSpecialTarget checks that a followed link to a FIFO, which is
// not an entry, is still reported to OnLink by every walker: the watched
// cache must learn that a link-following partition holds a link, whose
// target may become a directory without an event in the tree.
func TestOnLinkSpecialTarget(t *testing.T) {
	root := tree(t, "a.txt")
	if err := mkfifo(root + "/fifo"); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	links(t, root, "to-fifo", "fifo", "to-file", "a.txt")
	for _, hidden := range []bool{false, true} {
		var mu sync.Mutex
		var scanLinks, subLinks []string
		add := func(l *[]string) func(string) {
			return func(s string) { mu.Lock(); *l = append(*l, s); mu.Unlock() }
		}
		o := Options{Root: root, Hidden: hidden, FollowLinks: true}
		o.OnLink = add(&scanLinks)
		es, err := Scan(o)
		must(t, err)
		if got := list(es); got != "a.txt:1 to-file:1" {
			t.Errorf("Scan entries %q", got)
		}
		o.OnLink = add(&subLinks)
		must(t, Walk(o, func(Entry) error { return nil }))
		slices.Sort(scanLinks)
		slices.Sort(subLinks)
		want := []string{"to-fifo", "to-file"}
		if !slices.Equal(scanLinks, want) || !slices.Equal(subLinks, want) {
			t.Errorf("OnLink: Scan %q, Walk %q, want %q", scanLinks, subLinks, want)
		}
	}
}

// TestOnDirError checks that OnDir's error stops Scan and Walk and is
// returned.
func TestOnDirError(t *testing.T) {
	root := randomTree(t, rand.New(rand.NewPCG(1, 2)), 60)
	stop := fmt.Errorf("stop here")
	for _, walker := range []string{"Scan", "Walk"} {
		calls := 0
		var mu sync.Mutex
		o := Options{Root: root, Hidden: true}
		o.OnDir = func(abs string) error {
			mu.Lock()
			defer mu.Unlock()
			if calls++; calls == 3 {
				return stop
			}
			return nil
		}
		var err error
		if walker == "Scan" {
			_, err = Scan(o)
		} else {
			err = Walk(o, func(Entry) error { return nil })
		}
		if err != stop {
			t.Fatalf("%s: got %v, want the OnDir error", walker, err)
		}
	}
}
