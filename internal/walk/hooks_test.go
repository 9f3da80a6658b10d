package walk

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
)

// TestScanHooksMatchWalkSub checks Scan's OnDir and OnLink, which the
// watched cache's fill relies on, against WalkSub's (Sub.OnDir, Sub.OnLink)
// on random trees with links, over every option set: the same directories
// are announced before they are read, the same links reported.
func TestScanHooksMatchWalkSub(t *testing.T) {
	linksSeen := 0
	for seed := range uint64(6) {
		root := randomTree(t, rand.New(rand.NewPCG(seed, 7)), 120)
		for _, o := range optionSets(root) {
			t.Run(fmt.Sprint(seed, " ", optName(o)), func(t *testing.T) {
				var mu sync.Mutex
				var scanDirs, scanLinks, subDirs, subLinks []string
				add := func(list *[]string) func(string) {
					return func(s string) {
						mu.Lock()
						*list = append(*list, s)
						mu.Unlock()
					}
				}
				so := o
				so.OnDir = func(abs string) error { add(&scanDirs)(abs); return nil }
				so.OnLink = add(&scanLinks)
				if _, err := Scan(so); err != nil {
					t.Fatal(err)
				}
				sub := Sub{OnDir: func(abs string) error { add(&subDirs)(abs); return nil }, OnLink: add(&subLinks)}
				if err := WalkSub(o, sub, func(Entry) error { return nil }); err != nil {
					t.Fatal(err)
				}
				for _, l := range [][]string{scanDirs, scanLinks, subDirs, subLinks} {
					slices.Sort(l)
				}
				if !slices.Equal(scanDirs, subDirs) {
					t.Errorf("OnDir: Scan %d directories, WalkSub %d\nscan %q\nsub  %q", len(scanDirs), len(subDirs), scanDirs, subDirs)
				}
				linksSeen += len(scanLinks)
				if !slices.Equal(scanLinks, subLinks) {
					t.Errorf("OnLink: Scan %q, WalkSub %q", scanLinks, subLinks)
				}
			})
		}
	}
	if linksSeen == 0 {
		t.Error("the trees had no links: the test checks nothing about OnLink")
	}
}

// TestScanOnDirError checks that OnDir's error stops Scan and is returned.
func TestScanOnDirError(t *testing.T) {
	root := randomTree(t, rand.New(rand.NewPCG(1, 2)), 60)
	stop := fmt.Errorf("stop here")
	calls := 0
	var mu sync.Mutex
	_, err := Scan(Options{Root: root, Hidden: true, OnDir: func(abs string) error {
		mu.Lock()
		defer mu.Unlock()
		if calls++; calls == 3 {
			return stop
		}
		return nil
	}})
	if err != stop {
		t.Fatalf("got %v, want the OnDir error", err)
	}
}
