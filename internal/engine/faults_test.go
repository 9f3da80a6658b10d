//go:build fscache_faultinject && linux

package engine

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/fscache/fscache/internal/fence"
	"github.com/fscache/fscache/internal/scancache"
)

// The fault-injection tests (go test -tags fscache_faultinject): a panic
// in each kind of goroutine a call starts is the call's internal error,
// the process lives, no goroutine or descriptor is left behind, and the
// next call is correct; a panic in background work drops it and is
// recorded (fence.Dropped).

// fdCount is the number of descriptors the process holds.
func fdCount(t *testing.T) int {
	t.Helper()
	ents, err := os.ReadDir("/proc/self/fd")
	mustDo(t, err)
	return len(ents)
}

// settleBack waits until the process is back to at most g goroutines and fds
// descriptors (what ends in the background ends soon, on a busy machine
// too), and fails the test if it is not within a minute.
func settleBack(t *testing.T, what string, g, fds int) {
	t.Helper()
	for i := 0; runtime.NumGoroutine() > g || fdCount(t) > fds; i++ {
		if i > 60000 {
			t.Fatalf("%s: %d goroutines and %d descriptors a minute after, %d and %d before",
				what, runtime.NumGoroutine(), fdCount(t), g, fds)
		}
		time.Sleep(time.Millisecond)
	}
}

// wantInjected fails unless err is the internal error of the panic
// injected in k, and the point fired.
func wantInjected(t *testing.T, err error, k fence.Kind) {
	t.Helper()
	if fence.Armed() {
		fence.Disarm()
		t.Fatalf("the %s point was never reached (err %v)", k, err)
	}
	var e *Error
	if err == nil || !errors.As(asError(err), &e) || e.Code != CodeInternal ||
		!strings.Contains(e.Message, "fault injected in "+k.String()) {
		t.Fatalf("%s: want the internal error of the injected panic, got %v", k, err)
	}
}

// faultTree writes dirs directories of files files each, every file
// holding "alpha <n>" and "beta", and returns its root.
func faultTree(t *testing.T, dirs, files int) string {
	t.Helper()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	for d := range dirs {
		for f := range files {
			p := filepath.Join(root, fmt.Sprintf("d%02d/sub/f%03d.txt", d, f))
			mustDo(t, os.MkdirAll(filepath.Dir(p), 0o755))
			mustDo(t, os.WriteFile(p, []byte(fmt.Sprintf("alpha %d\nbeta\n", d*files+f)), 0o644))
		}
	}
	return root
}

func TestFaultInCallGoroutinesIsTheCallsError(t *testing.T) {
	root := faultTree(t, 80, 4) // 80 runs: grep's workers all start
	globOpts := GlobOptions{Pattern: "**/*.txt", Path: root}
	grepAll := GrepOptions{Pattern: "alpha", Path: root, Mode: ModeCount}
	grepLimit := GrepOptions{Pattern: "beta", Path: root, MaxCount: Int(200)}
	grepBT := GrepOptions{Pattern: `alpha(?= 1)`, Path: root, Mode: ModeFilesWithMatches}
	glob := func(o GlobOptions) (string, error) {
		r, err := Glob(o, nil)
		return fmt.Sprint(len(r.Matches)), err
	}
	grep := func(o GrepOptions) func() (string, error) {
		return func() (string, error) {
			r, err := Grep(o, nil)
			return fmt.Sprint(r.TotalMatches, " ", r.FilesWithMatches), err
		}
	}
	cases := []struct {
		name string
		kind fence.Kind
		skip int
		call func() (string, error)
	}{
		{"glob lister", fence.WalkList, 7, func() (string, error) { return glob(globOpts) }},
		{"glob finish", fence.WalkFinish, 3, func() (string, error) { return glob(globOpts) }},
		{"cached glob lister", fence.WalkList, 5, func() (string, error) {
			o := globOpts
			o.Cache = true
			return glob(o)
		}},
		{"grep lister", fence.WalkList, 11, grep(grepAll)},
		{"grep search", fence.GrepSearch, 4, grep(grepAll)},
		{"grep ordered lister", fence.WalkList, 9, grep(grepLimit)},
		{"grep fed search", fence.GrepFed, 6, grep(grepLimit)},
		{"grep matcher", fence.Matcher, 10, grep(grepBT)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			useCache(t, scancache.Policy{TTL: 10 * time.Minute, EmptyRecheck: time.Hour, MaxEntries: 16})
			want, err := c.call()
			if err != nil {
				t.Fatal(err)
			}
			cache.InvalidateAll()
			g, fds := runtime.NumGoroutine(), fdCount(t)
			fence.Arm(c.kind, c.skip)
			_, err = c.call()
			wantInjected(t, err, c.kind)
			settleBack(t, c.name, g, fds)
			got, err := c.call()
			if err != nil || got != want {
				t.Fatalf("the call after the panic: %q, %v; want %q", got, err, want)
			}
		})
	}
}

func TestFaultInAWatchedRefreshsWalk(t *testing.T) {
	needWatch(t)
	root := faultTree(t, 4, 2)
	o := GlobOptions{Pattern: "**/*.txt", Path: root, Cache: true}
	useCache(t, scancache.Policy{TTL: 10 * time.Minute, EmptyRecheck: time.Hour, MaxEntries: 16, Watch: true})
	if r, err := Glob(o, nil); err != nil || len(r.Matches) != 8 {
		t.Fatalf("first glob: %d matches, %v", len(r.Matches), err)
	}
	// A new subtree: the cached scan takes it in by walking it alone
	// (walk.WalkSub, on fastwalk's goroutines).
	write(t, filepath.Join(root, "new", "deep", "a.txt"))
	write(t, filepath.Join(root, "new", "deep", "b.txt"))
	scans := cache.Stats().FullScans
	g, fds := runtime.NumGoroutine(), fdCount(t)
	fence.Arm(fence.WalkVisit, 1)
	// A refresh that fails drops the partition, and the call walks the
	// root afresh: a panic in the refresh's walk is such a failure.
	r, err := Glob(o, nil)
	if fence.Armed() {
		fence.Disarm()
		t.Fatal("the refresh did not walk with WalkSub")
	}
	if st := cache.Stats(); err != nil || len(r.Matches) != 10 || st.FullScans != scans+1 || st.Watched != 1 {
		t.Fatalf("glob with the refresh's panic: %d matches, %v, stats %+v", len(r.Matches), err, st)
	}
	settleBack(t, "refresh", g, fds)
	write(t, filepath.Join(root, "new", "c.txt"))
	if r, err := Glob(o, nil); err != nil || len(r.Matches) != 11 {
		t.Fatalf("the glob after: %d matches, %v", len(r.Matches), err)
	}
}

// waitDropped waits until fence.Dropped counts more than n drops of k.
func waitDropped(t *testing.T, k fence.Kind, n int64) fence.DropStat {
	t.Helper()
	for i := 0; ; i++ {
		if d := fence.Dropped()[k.String()]; d.Count > n {
			return d
		}
		if i > 60000 {
			t.Fatalf("no drop of %s recorded in a minute", k)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestFaultInTheIndexBuilderDropsTheBuild(t *testing.T) {
	root, o := indexedTree(t, 60)
	want, err := Grep(o, nil)
	mustDo(t, err)
	waitBuilder(t)
	dropped := fence.Dropped()[fence.IndexBuild.String()].Count
	fence.Arm(fence.IndexBuild, 0)
	if r, err := Grep(o, nil); err != nil || r.TotalMatches != want.TotalMatches {
		t.Fatalf("the grep that queued the build: %v, %v", r.TotalMatches, err)
	}
	waitBuilder(t)
	d := waitDropped(t, fence.IndexBuild, dropped)
	if fence.Armed() || !strings.Contains(d.Reason, "fault injected in indexBuild") {
		t.Fatalf("dropped %+v, still armed %v", d, fence.Armed())
	}
	st := IndexStats()
	if st.Roots != 0 || st.FallbackRoots[root] != idxPanic || st.Fallbacks[idxPanic] != 1 {
		t.Fatalf("the root's index after the builder's panic: %+v", st)
	}
	// The root is searched without an index, correctly, and its scan is
	// still watched (the build's listener is gone, not the partition).
	for range 3 {
		if r, err := Grep(o, nil); err != nil || r.TotalMatches != want.TotalMatches {
			t.Fatalf("grep after the builder's panic: %v, %v", r.TotalMatches, err)
		}
	}
	waitBuilder(t)
	if IndexStats().Roots != 0 || cache.Stats().Watched == 0 {
		t.Fatalf("after: %+v, %+v", IndexStats(), cache.Stats())
	}
}

// waitClosed waits until the cache holds no watch.
func waitClosed(t *testing.T) {
	t.Helper()
	for i := 0; cache.Stats().RootsWatched > 0; i++ {
		if i > 60000 {
			t.Fatalf("watches held a minute after: %+v", cache.Stats())
		}
		time.Sleep(time.Millisecond)
	}
}

func TestFaultInTheBackgroundFillDropsIt(t *testing.T) {
	needWatch(t)
	root := faultTree(t, 4, 2) // 9 directories with the root
	o := GlobOptions{Pattern: "**/*.txt", Path: root, Cache: true}
	for _, c := range []struct {
		name string
		kind fence.Kind
		skip int
	}{
		{"fill", fence.WatchedFill, 0},
		// The call's own walk lists the 9 directories unwatched; the
		// fill's walk, in the background, is next.
		{"fill's walk", fence.WalkList, 9},
	} {
		t.Run(c.name, func(t *testing.T) {
			useCache(t, scancache.Policy{TTL: 10 * time.Minute, EmptyRecheck: time.Hour, MaxEntries: 16, Watch: true, WatchLater: true})
			g, fds := runtime.NumGoroutine(), fdCount(t)
			dropped := fence.Dropped()[fence.WatchedFill.String()].Count
			fence.Arm(c.kind, c.skip)
			if r, err := Glob(o, nil); err != nil || len(r.Matches) != 8 {
				t.Fatalf("the call: %d matches, %v", len(r.Matches), err)
			}
			d := waitDropped(t, fence.WatchedFill, dropped)
			if fence.Armed() || !strings.Contains(d.Reason, "fault injected in "+c.kind.String()) {
				t.Fatalf("dropped %+v, armed %v", d, fence.Armed())
			}
			// Nothing is left watched, and the scan the call stored is
			// served by TTL: Invalidate refreshes it.
			settleBack(t, c.name, g, fds)
			if st := cache.Stats(); st.Watched != 0 || st.RootsWatched != 0 || st.Watches != 0 {
				t.Fatalf("watches held after the fill was dropped: %+v", st)
			}
			write(t, filepath.Join(root, "d00", "new.txt"))
			Invalidate(root)
			if r, err := Glob(o, nil); err != nil || len(r.Matches) != 9 {
				t.Fatalf("the call after: %d matches, %v", len(r.Matches), err)
			}
			mustDo(t, os.Remove(filepath.Join(root, "d00", "new.txt")))
		})
	}
}

func TestFaultInAWatcherCloseIsDropped(t *testing.T) {
	needWatch(t)
	root := faultTree(t, 2, 2)
	o := GlobOptions{Pattern: "**/*.txt", Path: root, Cache: true}
	useCache(t, scancache.Policy{TTL: 10 * time.Minute, EmptyRecheck: time.Hour, MaxEntries: 16, Watch: true})
	g, fds := runtime.NumGoroutine(), fdCount(t)
	if r, err := Glob(o, nil); err != nil || len(r.Matches) != 4 {
		t.Fatalf("first glob: %d matches, %v", len(r.Matches), err)
	}
	dropped := fence.Dropped()[fence.WatchClose.String()].Count
	fence.Arm(fence.WatchClose, 0)
	cache.InvalidateAll()
	waitDropped(t, fence.WatchClose, dropped)
	settleBack(t, "watcher close", g, fds)
	if r, err := Glob(o, nil); err != nil || len(r.Matches) != 4 {
		t.Fatalf("glob after: %d matches, %v", len(r.Matches), err)
	}
}

func TestFaultInTheHeapReleaseIsDropped(t *testing.T) {
	_, o := indexedTree(t, 40)
	dropped := fence.Dropped()[fence.HeapRelease.String()].Count
	releases := indexes.releases.Load()
	fence.Arm(fence.HeapRelease, 0)
	Grep(o, nil)
	Grep(o, nil) // the build, then the release once calls pause
	waitBuilder(t)
	waitDropped(t, fence.HeapRelease, dropped)
	for i := 0; indexes.releasing.Load(); i++ {
		if i > 60000 {
			t.Fatal("the release did not end in a minute")
		}
		time.Sleep(time.Millisecond)
	}
	if indexes.releases.Load() != releases {
		t.Fatal("the dropped release counted")
	}
	indexes.releaseIdle() // the next release runs
	for i := 0; indexes.releases.Load() == releases; i++ {
		if i > 60000 {
			t.Fatal("no release in a minute after the dropped one")
		}
		time.Sleep(time.Millisecond)
	}
}
