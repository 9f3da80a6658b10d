package scancache

import (
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/fscache/fscache/internal/cancel"
	"github.com/fscache/fscache/internal/watch"
)

// hooked wraps a real watcher to force the failures the kernel rarely
// shows: a full event queue and the watch limit.
type hooked struct {
	watch.Watcher
	mu       sync.Mutex
	overflow bool // the next Drain reports an overflow
	limit    int  // Add fails with ErrLimit past this many adds (0: no limit)
	adds     int
	closed   bool
}

func (h *hooked) Add(dir string) error {
	h.mu.Lock()
	h.adds++
	over := h.limit > 0 && h.adds > h.limit
	h.mu.Unlock()
	if over {
		return watch.ErrLimit
	}
	return h.Watcher.Add(dir)
}

func (h *hooked) Drain() ([]watch.Event, bool, error) {
	ev, over, err := h.Watcher.Drain()
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.overflow {
		h.overflow = false
		over = true
	}
	return ev, over, err
}

func (h *hooked) Close() error {
	h.mu.Lock()
	h.closed = true
	h.mu.Unlock()
	return h.Watcher.Close()
}

// hookedCache returns a watching cache whose watchers are recorded in ws.
func hookedCache(t *testing.T, p Policy, limit int, ws *[]*hooked) *Cache {
	watching(t)
	p.Watch = true
	c := New(p, nil)
	c.newWatcher = func() (watch.Watcher, error) {
		w, err := watch.New()
		if err != nil {
			return nil, err
		}
		h := &hooked{Watcher: w, limit: limit}
		*ws = append(*ws, h)
		return h, nil
	}
	t.Cleanup(c.InvalidateAll)
	return c
}

func tree(t *testing.T, files ...string) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		p := filepath.Join(root, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.ToSlash(root) // the form of every root (Windows: '/'-separated)
}

func check(t *testing.T, c *Cache, k Key, what string) {
	t.Helper()
	s, _, err := c.Get(k, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := diff(k, s.Entries()); d != "" {
		t.Errorf("%s: %s", what, d)
	}
}

var long = Policy{TTL: 10 * time.Minute, EmptyRecheck: time.Hour, MaxEntries: 16}

func TestOverflowFallsBackToRescan(t *testing.T) {
	var ws []*hooked
	c := hookedCache(t, long, 0, &ws)
	root := tree(t, "a/b.txt", "c.txt")
	k := Key{Root: root, Gitignore: true}
	check(t, c, k, "first")
	os.WriteFile(filepath.Join(root, "a", "new.txt"), nil, 0o644)
	ws[0].mu.Lock()
	ws[0].overflow = true
	ws[0].mu.Unlock()
	check(t, c, k, "after an overflow") // dropped, rescanned, watched again
	st := c.Stats()
	if st.Fallbacks[ReasonOverflow] != 1 || st.FullScans != 2 || !ws[0].closedSoon() || len(ws) != 2 || st.Watched != 1 {
		t.Errorf("overflow: %+v (watchers %d, first closed %v)", st, len(ws), ws[0].closedNow())
	}
	os.Remove(filepath.Join(root, "c.txt"))
	check(t, c, k, "watched again after the overflow")
}

func TestWatchLimitFallsBackToTTL(t *testing.T) {
	var ws []*hooked
	c := hookedCache(t, long, 2, &ws) // root and one directory, no more
	root := tree(t, "a/b/c.txt", "d/e.txt")
	k := Key{Root: root}
	check(t, c, k, "first")
	st := c.Stats()
	if st.Fallbacks[ReasonWatchLimit] != 1 || st.FallbackRoots[root] != ReasonWatchLimit || st.Watched != 0 ||
		st.Entries != 1 || st.RootsWatched != 0 || !ws[0].closedSoon() {
		t.Fatalf("watch limit: %+v", st)
	}
	// The root is served by TTL now: stale until invalidated, as the
	// contract says, and the invalidation refreshes one directory.
	os.WriteFile(filepath.Join(root, "a", "b", "new.txt"), nil, 0o644)
	if s, _, _ := c.Get(k, nil); diff(k, s.Entries()) == "" {
		t.Error("a TTL partition saw a change without invalidation: it is not served by TTL")
	}
	c.Invalidate(filepath.Join(root, "a", "b", "new.txt"))
	check(t, c, k, "after invalidation")
	if st := c.Stats(); st.FullScans != 1 || st.Refreshes != 1 || len(ws) != 1 {
		t.Errorf("invalidation rescanned: %+v", st)
	}
}

func TestWatchLimitDuringRefresh(t *testing.T) {
	var ws []*hooked
	c := hookedCache(t, long, 0, &ws)
	root := tree(t, "a/b.txt")
	k := Key{Root: root}
	check(t, c, k, "first")
	ws[0].mu.Lock()
	ws[0].limit = ws[0].adds // no more watches
	ws[0].mu.Unlock()
	os.MkdirAll(filepath.Join(root, "new", "dir"), 0o755)
	check(t, c, k, "after a directory that cannot be watched")
	if st := c.Stats(); st.FallbackRoots[root] != ReasonWatchLimit || st.Watched != 0 {
		t.Errorf("%+v", st)
	}
}

func TestUnsupportedPlatform(t *testing.T) {
	c := New(Policy{TTL: time.Minute, MaxEntries: 4, Watch: true}, nil)
	c.watchOff = ""
	c.newWatcher = func() (watch.Watcher, error) { return nil, watch.ErrUnsupported }
	root := tree(t, "a.txt")
	k := Key{Root: root}
	check(t, c, k, "first")
	if st := c.Stats(); st.FallbackRoots[root] != ReasonUnsupported || st.Watched != 0 || st.Entries != 1 {
		t.Errorf("%+v", st)
	}
}

func TestWatchOffByPolicy(t *testing.T) {
	t.Setenv("FS_SCAN_CACHE_WATCH", "0")
	if p := PolicyFromEnv(); p.Watch {
		t.Fatal("FS_SCAN_CACHE_WATCH=0 left watching on")
	}
	t.Setenv("FS_SCAN_CACHE_WATCH", "")
	if p := PolicyFromEnv(); !p.Watch {
		t.Fatal("watching is not on by default")
	}
	c := New(Policy{TTL: time.Minute, MaxEntries: 4}, nil)
	root := tree(t, "a.txt")
	check(t, c, Key{Root: root}, "first")
	if st := c.Stats(); st.Watching || st.WatchOff != ReasonDisabled || st.RootsWatched != 0 {
		t.Errorf("%+v", st)
	}
}

func TestSymlinkedDirectoriesAreNotWatched(t *testing.T) {
	var ws []*hooked
	c := hookedCache(t, long, 0, &ws)
	root := tree(t, "real/a.txt")
	follow := Key{Root: root, FollowLinks: true}
	plain := Key{Root: root}
	check(t, c, follow, "follow, first")
	check(t, c, plain, "plain, first")
	if err := os.Symlink(filepath.Join(root, "real"), filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	check(t, c, follow, "follow, after a link") // dropped, rescanned by TTL
	check(t, c, plain, "plain, after a link")   // a link is an entry like any other
	st := c.Stats()
	if st.Fallbacks[ReasonSymlinks] == 0 || st.Watched != 1 || st.Entries != 2 {
		t.Errorf("%+v", st)
	}
}

func TestEvictionAndInvalidateAllCloseWatchers(t *testing.T) {
	var ws []*hooked
	c := hookedCache(t, Policy{TTL: time.Minute, MaxEntries: 1}, 0, &ws)
	a, b := tree(t, "x"), tree(t, "y")
	check(t, c, Key{Root: a}, "a")
	check(t, c, Key{Root: b}, "b") // evicts a
	if st := c.Stats(); st.Entries != 1 || st.RootsWatched != 1 || !ws[0].closedSoon() || ws[1].closedNow() {
		t.Errorf("eviction: %+v", st)
	}
	c.InvalidateAll()
	if st := c.Stats(); st.Entries != 0 || st.RootsWatched != 0 || !ws[1].closedSoon() {
		t.Errorf("InvalidateAll: %+v", st)
	}
}

func TestTargetedInvalidation(t *testing.T) {
	c := New(Policy{TTL: time.Hour, MaxEntries: 16}, nil) // watching off
	root := tree(t, "a/b/c.txt", "a/d.txt", "e/f.txt", ".gitignore")
	keys := churnKeys(root)
	for _, k := range keys {
		check(t, c, k, "first")
	}
	scans := c.Stats().FullScans
	os.WriteFile(filepath.Join(root, "a", "b", "new.txt"), nil, 0o644)
	c.Invalidate(filepath.Join(root, "a", "b", "new.txt"))
	os.RemoveAll(filepath.Join(root, "e"))
	c.Invalidate(filepath.Join(root, "e"))
	os.MkdirAll(filepath.Join(root, "n1", "n2"), 0o755)
	os.WriteFile(filepath.Join(root, "n1", "n2", "g.txt"), nil, 0o644)
	c.Invalidate(filepath.Join(root, "n1", "n2", "g.txt")) // its parents are new too
	os.WriteFile(filepath.Join(root, "a", "b", "x.txt"), nil, 0o644)
	os.RemoveAll(filepath.Join(root, "a", "b"))
	c.Invalidate(filepath.Join(root, "a", "b", "c.txt")) // a file of a deleted directory
	os.WriteFile(filepath.Join(root, ".gitignore"), []byte("a/\n"), 0o644)
	c.Invalidate(filepath.Join(root, ".gitignore"))
	os.WriteFile(filepath.Join(root, "a", "d.txt"), []byte("longer"), 0o644)
	c.Invalidate(filepath.Join(root, "a", "d.txt"))
	for _, k := range keys {
		check(t, c, k, "after invalidations")
	}
	if st := c.Stats(); st.FullScans != scans || st.Entries != len(keys) {
		t.Errorf("an invalidation rescanned or dropped: %+v", st)
	}
}

func TestRootReplacedThroughAnAncestor(t *testing.T) {
	var ws []*hooked
	c := hookedCache(t, long, 0, &ws)
	base := tree(t, "p/repo/a.txt")
	root := filepath.Join(base, "p", "repo")
	k := Key{Root: root, Gitignore: true}
	check(t, c, k, "first")
	if err := os.Rename(filepath.Join(base, "p"), filepath.Join(base, "q")); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(root, 0o755)
	os.WriteFile(filepath.Join(root, "other.txt"), nil, 0o644)
	check(t, c, k, "after the ancestor was moved and the root made again")
	if st := c.Stats(); st.Fallbacks[ReasonRootGone] != 1 {
		t.Errorf("%+v", st)
	}
}

func TestCancelledFillLeavesNoWatcher(t *testing.T) {
	var ws []*hooked
	c := hookedCache(t, long, 0, &ws)
	root := tree(t, "a/b.txt")
	tok := cancel.New(time.Time{}, func() bool { return true })
	if _, _, err := c.Get(Key{Root: root}, tok); err == nil {
		t.Fatal("a cancelled fill succeeded")
	}
	if st := c.Stats(); st.Entries != 0 || st.RootsWatched != 0 || len(ws) != 1 || !ws[0].closedSoon() {
		t.Errorf("%+v", st)
	}
}

// TestConcurrentWatchedUse: cached calls on several partitions of one root,
// invalidations and InvalidateAll race with changes (run with -race); once
// the changes stop, every partition equals a fresh scan.
func TestConcurrentWatchedUse(t *testing.T) {
	var ws []*hooked
	c := hookedCache(t, long, 0, &ws)
	root := tree(t, "a/b.txt", "c/d/e.txt")
	keys := churnKeys(root)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for i := range 6 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; ; j++ {
				select {
				case <-stop:
					return
				default:
				}
				k := keys[(i+j)%len(keys)]
				switch j % 17 {
				case 5:
					c.Invalidate(filepath.Join(root, "a", "x"))
				case 16:
					if i == 0 {
						c.InvalidateAll()
					}
				default:
					if _, _, err := c.Get(k, nil); err != nil {
						t.Error(err)
						return
					}
				}
			}
		}()
	}
	for i := range 200 {
		d := filepath.Join(root, "a", string(rune('a'+i%5)))
		os.MkdirAll(filepath.Join(d, "sub"), 0o755)
		os.WriteFile(filepath.Join(d, "sub", "f.txt"), nil, 0o644)
		if i%3 == 0 {
			os.RemoveAll(d)
		}
		if i%7 == 0 {
			os.WriteFile(filepath.Join(root, ".gitignore"), []byte([]string{"sub/\n", ""}[i%2]), 0o644)
		}
	}
	close(stop)
	wg.Wait()
	for _, k := range keys {
		check(t, c, k, "after the concurrent churn")
	}
	c.InvalidateAll()
	for _, w := range ws {
		if !w.closedSoon() {
			t.Error("a watcher was left open after InvalidateAll")
		}
	}
}

// closedNow reports whether the watcher has been closed.
func (h *hooked) closedNow() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.closed
}

// closedSoon waits for the watcher to be closed (the cache closes watchers
// off the caller's path): a minute at most, a leak after that.
func (h *hooked) closedSoon() bool {
	for end := time.Now().Add(time.Minute); ; time.Sleep(5 * time.Millisecond) {
		if h.closedNow() {
			return true
		}
		if time.Now().After(end) {
			return false
		}
	}
}
