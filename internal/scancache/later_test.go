package scancache

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/fscache/fscache/internal/watch"
)

// slowWatcher takes 5 ms to add a watch.
type slowWatcher struct{ watch.Watcher }

func (w slowWatcher) Add(dir string) error {
	time.Sleep(5 * time.Millisecond)
	return w.Watcher.Add(dir)
}

// laterCache returns a watching cache with Policy.WatchLater set as later,
// and a TTL far longer than the test: a scan served by TTL never expires
// in it, so only the watched partition can see a change.
func laterCache(t *testing.T, later bool) *Cache {
	t.Helper()
	watching(t)
	c := New(Policy{TTL: time.Hour, EmptyRecheck: time.Hour, MaxEntries: 8, Watch: true, WatchLater: later}, nil)
	t.Cleanup(c.InvalidateAll)
	return c
}

// waitWatched waits until c holds n watched partitions.
func waitWatched(t *testing.T, c *Cache, n int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); c.Stats().Watched != n; {
		if time.Now().After(deadline) {
			t.Fatalf("watched partitions: %+v, want %d", c.Stats(), n)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestGetLaterWatchesInTheBackground: GetLater's miss answers with a walk
// and no watch; the watched partition is filled in the background, and a
// call made at once after a change waits for it rather than being served
// the first scan (the TTL here is an hour: a scan served by TTL would hide
// the change).
func TestGetLaterWatchesInTheBackground(t *testing.T) {
	c := laterCache(t, true)
	// Watches that take a while to add: the background fill is still
	// running when the next call comes.
	c.newWatcher = func() (watch.Watcher, error) {
		w, err := watch.New()
		return slowWatcher{w}, err
	}
	root := tree(t, "a/x.txt", "b/y.txt")
	k := Key{Root: root, Hidden: true, Gitignore: true}
	s, age, err := c.GetLater(k, nil)
	if err != nil {
		t.Fatal(err)
	}
	if age != 0 {
		t.Errorf("a miss answered with age %v", age)
	}
	if d := diff(k, s.Entries()); d != "" {
		t.Fatalf("first scan: %s", d)
	}
	for i, name := range []string{"a/new.txt", "b/c/deep.txt"} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
		s, age, err = c.GetLater(k, nil)
		if err != nil {
			t.Fatal(err)
		}
		if age != time.Nanosecond {
			t.Errorf("call %d: not served by the watched partition: age %v", i+2, age)
		}
		if d := diff(k, s.Entries()); d != "" {
			t.Errorf("call %d, after creating %s: %s", i+2, name, d)
		}
	}
	if st := c.Stats(); st.Entries != 1 || st.Watched != 1 || st.RootsWatched != 1 {
		t.Errorf("stats %+v", st)
	}
}

// TestGetLaterThenListen: a listener needs the watched partition; the scan
// a GetLater stored without watches is not it, and Listen fills it.
func TestGetLaterThenListen(t *testing.T) {
	c := laterCache(t, true)
	root := tree(t, "a/x.txt")
	k := Key{Root: root, Hidden: true, Gitignore: true}
	if _, _, err := c.GetLater(k, nil); err != nil {
		t.Fatal(err)
	}
	r := &recorder{}
	snap, remove, err := c.Listen(k, nil, r)
	if errors.Is(err, ErrNotWatched) || err != nil {
		t.Fatalf("Listen after GetLater: %v", err)
	}
	defer remove()
	if d := diff(k, snap.Entries()); d != "" {
		t.Errorf("listened snapshot: %s", d)
	}
	if _, err := c.Current(k, nil, r); err != nil {
		t.Errorf("Current: %v", err)
	}
	waitWatched(t, c, 1) // the background fill ends (replacing the partition or not)
}

// TestGetLaterOff: without Policy.WatchLater, GetLater is Get: the miss
// fills the watched partition itself.
func TestGetLaterOff(t *testing.T) {
	c := laterCache(t, false)
	root := tree(t, "a/x.txt")
	k := Key{Root: root, Hidden: true, Gitignore: true}
	if _, _, err := c.GetLater(k, nil); err != nil {
		t.Fatal(err)
	}
	if st := c.Stats(); st.Watched != 1 {
		t.Errorf("after GetLater without WatchLater: %+v", st)
	}
}

// TestGetLaterWhileBusy: a background fill that waits for calls to end
// (SetBusy says they never do) still serves a call that waits for it,
// current.
func TestGetLaterWhileBusy(t *testing.T) {
	c := laterCache(t, true)
	c.SetBusy(func() bool { return true })
	root := tree(t, "a/x.txt")
	k := Key{Root: root, Hidden: true, Gitignore: true}
	if _, _, err := c.GetLater(k, nil); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "a", "new.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	s, age, err := c.GetLater(k, nil)
	if err != nil {
		t.Fatal(err)
	}
	if age != time.Nanosecond {
		t.Errorf("not served by the watched partition: age %v", age)
	}
	if d := diff(k, s.Entries()); d != "" {
		t.Errorf("after a change: %s", d)
	}
}

// TestRefreshOfADirectoryGoneSinceItsEvents: events that name a directory
// (a file written in src/ui) are drained, then the directory is renamed
// before it is listed again, as happens when a fill drains while the user
// edits. The partition stays watched, and once the rename's own events are
// drained it is the tree's current state; it was dropped (watchedEntries 0
// after correct answers: the bun test's flake).
func TestRefreshOfADirectoryGoneSinceItsEvents(t *testing.T) {
	c := laterCache(t, false)
	root := tree(t, "src/ui/button.ts", "readme.md")
	k := Key{Root: root, Hidden: true, Gitignore: true}
	if _, _, err := c.Get(k, nil); err != nil {
		t.Fatal(err)
	}
	scans := c.Stats().FullScans
	mustWrite := func(rel string) {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mustWrite("src/ui/input.ts")
	c.mu.Lock()
	e := c.entries[k]
	var events []watch.Event
	for i := 0; len(events) == 0; i++ { // the write's events, drained
		evs, overflow, err := e.rw.w.Drain()
		if err != nil || overflow || i > 60000 {
			c.mu.Unlock()
			t.Fatalf("drain: %v, overflow %v, %d tries", err, overflow, i)
		}
		events = evs
		if len(events) == 0 {
			time.Sleep(time.Millisecond)
		}
	}
	if err := os.Rename(filepath.Join(root, "src", "ui"), filepath.Join(root, "src", "widgets")); err != nil {
		c.mu.Unlock()
		t.Fatal(err)
	}
	c.patch(k, e, events) // as syncRoot applies them, src/ui gone meanwhile
	kept := c.entries[k] == e
	c.mu.Unlock()
	if !kept {
		t.Fatal("the partition was dropped: a directory gone since its events were drained failed its refresh")
	}
	mustWrite("lib/deep/btn.ts")
	s, age, err := c.Get(k, nil)
	if err != nil || age != time.Nanosecond {
		t.Fatalf("get after: age %v, %v (not the watched partition)", age, err)
	}
	if d := diff(k, s.Entries()); d != "" {
		t.Fatalf("after the rename: %s", d)
	}
	if st := c.Stats(); st.Watched != 1 || st.FullScans != scans {
		t.Fatalf("stats after: %+v (full scans before: %d)", st, scans)
	}
}
