package scancache

import (
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fscache/fscache/internal/cancel"
	"github.com/fscache/fscache/internal/walk"
)

// fake is a cache over a counting scan function and a manual clock.
type fake struct {
	*Cache
	scans atomic.Int32
	clock time.Time
	mu    sync.Mutex
}

func newFake(p Policy) *fake {
	f := &fake{clock: time.Unix(1000, 0)}
	f.Cache = New(p, func(k Key, tok *cancel.Token) ([]walk.Entry, error) {
		if err := tok.Err(); err != nil {
			return nil, err
		}
		f.scans.Add(1)
		return []walk.Entry{{Path: k.Root, Type: walk.File}}, nil
	})
	f.Cache.now = func() time.Time { f.mu.Lock(); defer f.mu.Unlock(); return f.clock }
	return f
}

func (f *fake) advance(d time.Duration) { f.mu.Lock(); f.clock = f.clock.Add(d); f.mu.Unlock() }

var policy = Policy{TTL: time.Second, EmptyRecheck: 200 * time.Millisecond, MaxEntries: 3}

func TestHitAndExpiry(t *testing.T) {
	f := newFake(policy)
	k := Key{Root: "/r"}
	s1, age, err := f.Get(k, nil)
	if err != nil || age != 0 || f.scans.Load() != 1 {
		t.Fatalf("miss: age %v err %v scans %d", age, err, f.scans.Load())
	}
	f.advance(500 * time.Millisecond)
	s2, age, _ := f.Get(k, nil)
	if s2 != s1 || age != 500*time.Millisecond || f.scans.Load() != 1 {
		t.Fatalf("hit: same %v age %v scans %d", s2 == s1, age, f.scans.Load())
	}
	if s2.At(0) != s1.At(0) {
		t.Error("a hit copied the entries")
	}
	f.advance(600 * time.Millisecond) // 1.1 s old: expired
	s3, age, _ := f.Get(k, nil)
	if s3 == s1 || age != 0 || f.scans.Load() != 2 {
		t.Fatalf("expiry: new %v age %v scans %d", s3 != s1, age, f.scans.Load())
	}
}

func TestHitAgeIsNeverZero(t *testing.T) {
	f := newFake(policy)
	k := Key{Root: "/r"}
	f.Get(k, nil)
	if _, age, _ := f.Get(k, nil); age <= 0 {
		t.Errorf("hit at the same instant has age %v", age)
	}
}

func TestKeyPartitions(t *testing.T) {
	f := newFake(Policy{TTL: time.Second, MaxEntries: 100})
	base := Key{Root: "/r"}
	keys := []Key{base, {Root: "/r", Hidden: true}, {Root: "/r", Gitignore: true},
		{Root: "/r", SkipNodeModules: true}, {Root: "/r", Full: true}, {Root: "/r", FollowLinks: true}, {Root: "/s"}}
	for _, k := range keys {
		f.Get(k, nil)
	}
	if n := f.scans.Load(); n != int32(len(keys)) {
		t.Errorf("%d scans for %d distinct keys", n, len(keys))
	}
	f.Get(base, nil)
	if n := f.scans.Load(); n != int32(len(keys)) {
		t.Error("equal key missed")
	}
}

func TestTTLZeroBypasses(t *testing.T) {
	f := newFake(Policy{TTL: 0, MaxEntries: 16})
	k := Key{Root: "/r"}
	for range 3 {
		if _, age, _ := f.Get(k, nil); age != 0 {
			t.Errorf("age %v", age)
		}
	}
	if f.scans.Load() != 3 || f.Len() != 0 {
		t.Errorf("scans %d, stored %d", f.scans.Load(), f.Len())
	}
	f.Rescan(k, true, nil)
	if f.Len() != 0 {
		t.Error("TTL 0 stored a forced rescan")
	}
}

func TestEvictsOldestByCreation(t *testing.T) {
	f := newFake(policy) // max 3
	for _, r := range []string{"/a", "/b", "/c"} {
		f.Get(Key{Root: r}, nil)
		f.advance(10 * time.Millisecond)
	}
	f.Get(Key{Root: "/a"}, nil) // a hit does not refresh creation time
	f.Get(Key{Root: "/d"}, nil)
	if f.Len() != 3 {
		t.Fatalf("len %d", f.Len())
	}
	before := f.scans.Load()
	f.Get(Key{Root: "/b"}, nil)
	f.Get(Key{Root: "/c"}, nil)
	f.Get(Key{Root: "/d"}, nil)
	if f.scans.Load() != before {
		t.Errorf("b, c or d was evicted")
	}
	f.Get(Key{Root: "/a"}, nil)
	if f.scans.Load() != before+1 {
		t.Errorf("a (the oldest) was not evicted")
	}
}

func TestRescan(t *testing.T) {
	f := newFake(policy)
	k := Key{Root: "/r"}
	s1, _, _ := f.Get(k, nil)
	s2, _ := f.Rescan(k, false, nil)
	if s2 == s1 || f.Len() != 0 {
		t.Errorf("Rescan(store=false) must drop the key and not store: len %d", f.Len())
	}
	s3, _ := f.Rescan(k, true, nil)
	if s4, _, _ := f.Get(k, nil); s4 != s3 {
		t.Error("Rescan(store=true) did not store")
	}
}

func TestInvalidate(t *testing.T) {
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	must := func(err error) {
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(dir, "proj", "src"), 0o755))
	must(os.MkdirAll(filepath.Join(dir, "projX"), 0o755))
	f := newFake(Policy{TTL: time.Hour, MaxEntries: 100})
	root := func(p ...string) Key { return Key{Root: filepath.ToSlash(filepath.Join(p...))} } // '/'-separated, as every root
	proj, projSrc, projX := root(dir, "proj"), root(dir, "proj", "src"), root(dir, "projX")
	fill := func() {
		f.InvalidateAll()
		for _, k := range []Key{proj, projSrc, projX} {
			f.Get(k, nil)
		}
	}
	has := func(k Key) bool {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.Cache.mu.Lock()
		defer f.Cache.mu.Unlock()
		_, ok := f.entries[k]
		return ok
	}
	fill()
	f.Invalidate(filepath.Join(dir, "proj", "src", "deleted.go")) // does not exist
	if has(proj) || has(projSrc) || !has(projX) {
		t.Errorf("deleted file: proj %v src %v projX %v", has(proj), has(projSrc), has(projX))
	}
	fill()
	f.Invalidate(filepath.Join(dir, "proj", "README")) // sibling with a common prefix survives
	if has(proj) || !has(projSrc) || !has(projX) {
		t.Errorf("file in proj: proj %v src %v projX %v", has(proj), has(projSrc), has(projX))
	}
	fill()
	wd, _ := os.Getwd()
	must(os.Chdir(filepath.Join(dir, "proj")))
	f.Invalidate("src")
	must(os.Chdir(wd))
	if has(proj) || has(projSrc) || !has(projX) {
		t.Errorf("relative: proj %v src %v projX %v", has(proj), has(projSrc), has(projX))
	}
}

// TestInvalidateThroughSymlink: a path through a symbolic link invalidates
// the roots its target lies in.
func TestInvalidateThroughSymlink(t *testing.T) {
	dir, _ := filepath.EvalSymlinks(t.TempDir())
	if err := os.MkdirAll(filepath.Join(dir, "proj", "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	f := newFake(Policy{TTL: time.Hour, MaxEntries: 100})
	proj := Key{Root: filepath.ToSlash(filepath.Join(dir, "proj"))}
	projSrc := Key{Root: filepath.ToSlash(filepath.Join(dir, "proj", "src"))}
	f.Get(proj, nil)
	f.Get(projSrc, nil)
	if err := os.Symlink(filepath.Join(dir, "proj"), filepath.Join(dir, "link")); err != nil {
		t.Fatal(err)
	}
	f.Invalidate(filepath.Join(dir, "link", "src"))
	if n := f.Len(); n != 0 {
		t.Errorf("through a symlink: %d of 2 entries left", n)
	}
}

func TestWithin(t *testing.T) {
	for _, c := range []struct {
		target, root string
		want         bool
	}{
		{"/a/b", "/a/b", true}, {"/a/b/c", "/a/b", true}, {"/a/bc", "/a/b", false},
		{"/a", "/a/b", false}, {"/x", "/", true},
	} {
		if got := within(c.target, c.root); got != c.want {
			t.Errorf("within(%q, %q) = %v", c.target, c.root, got)
		}
	}
}

func TestConcurrentMissesShareOneScan(t *testing.T) {
	var scans atomic.Int32
	release := make(chan struct{})
	c := New(policy, func(k Key, tok *cancel.Token) ([]walk.Entry, error) {
		scans.Add(1)
		<-release
		return nil, nil
	})
	var wg sync.WaitGroup
	snaps := make([]*Snapshot, 16)
	for i := range snaps {
		wg.Add(1)
		go func() { defer wg.Done(); snaps[i], _, _ = c.Get(Key{Root: "/r"}, nil) }()
	}
	time.Sleep(50 * time.Millisecond)
	close(release)
	wg.Wait()
	if scans.Load() != 1 {
		t.Errorf("%d scans for one key", scans.Load())
	}
	for _, s := range snaps {
		if s != snaps[0] {
			t.Fatal("callers got different snapshots")
		}
	}
}

func TestWaiterRetriesWhenScannerIsCancelled(t *testing.T) {
	var scans atomic.Int32
	started := make(chan struct{})
	c := New(policy, func(k Key, tok *cancel.Token) ([]walk.Entry, error) {
		if scans.Add(1) == 1 {
			close(started)
			time.Sleep(30 * time.Millisecond)
			return nil, cancel.ErrSignal
		}
		return []walk.Entry{{Path: "x"}}, nil
	})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); c.Get(Key{Root: "/r"}, nil) }()
	<-started
	s, _, err := c.Get(Key{Root: "/r"}, nil)
	wg.Wait()
	if err != nil || s.Len() != 1 {
		t.Errorf("waiter got %v, %v", s, err)
	}
}

func TestConcurrentMixedUse(t *testing.T) {
	f := newFake(Policy{TTL: time.Second, MaxEntries: 4})
	var wg sync.WaitGroup
	for i := range 64 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k := Key{Root: "/r" + string(rune('a'+i%6))}
			for j := range 50 {
				switch j % 5 {
				case 0:
					f.Invalidate(k.Root)
				case 1:
					f.Rescan(k, j%2 == 0, nil)
				case 2:
					f.InvalidateAll()
				default:
					if s, _, err := f.Get(k, nil); err != nil || s.At(0).Path != k.Root {
						t.Errorf("wrong snapshot for %s", k.Root)
					}
				}
			}
		}()
	}
	wg.Wait()
	if f.Len() > 4 {
		t.Errorf("len %d over max", f.Len())
	}
}

func TestPolicyFromEnv(t *testing.T) {
	t.Setenv("FS_SCAN_CACHE_TTL_MS", "0")
	t.Setenv("FS_SCAN_EMPTY_RECHECK_MS", "50")
	t.Setenv("FS_SCAN_CACHE_MAX_ENTRIES", "bogus")
	p := PolicyFromEnv()
	if p.TTL != 0 || p.EmptyRecheck != 50*time.Millisecond || p.MaxEntries != 16 {
		t.Errorf("%+v", p)
	}
}
