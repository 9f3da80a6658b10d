package engine

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fscache/fscache/internal/scancache"
)

func globPaths(t *testing.T, o GlobOptions) string {
	t.Helper()
	r, err := Glob(o, nil)
	if err != nil {
		t.Fatal(err)
	}
	var p []string
	for _, m := range r.Matches {
		p = append(p, m.Path)
	}
	return strings.Join(p, " ")
}

// wantGlob fails the test, saying what went wrong, unless globPaths(t, o)
// is want.
func wantGlob(t *testing.T, o GlobOptions, want, what string) {
	t.Helper()
	if got := globPaths(t, o); got != want {
		t.Fatalf("%s: got %q, want %q", what, got, want)
	}
}

func write(t *testing.T, path string) {
	t.Helper()
	mustDo(t, os.MkdirAll(filepath.Dir(path), 0o755))
	mustDo(t, os.WriteFile(path, []byte("x\n"), 0o644))
}

// The tests below use the process-wide cache with its default policy
// (TTL 1000 ms, empty recheck 200 ms).

func TestCachedGlobIsStaleUntilInvalidated(t *testing.T) {
	useCache(t, ttlOnly) // the contract's TTL policy, without watching
	root, _ := filepath.EvalSymlinks(t.TempDir())
	write(t, filepath.Join(root, "a.txt"))
	o := GlobOptions{Pattern: "*.txt", Path: root, Cache: true}
	wantGlob(t, o, "a.txt", "first")
	write(t, filepath.Join(root, "b.txt"))
	wantGlob(t, o, "a.txt", "a hit within the TTL must serve the cached scan")
	Invalidate(filepath.Join(root, "b.txt"))
	wantGlob(t, o, "a.txt b.txt", "after invalidation")
	mustDo(t, os.Remove(filepath.Join(root, "a.txt")))
	Invalidate(filepath.Join(root, "a.txt")) // deleted: the parent is canonicalised
	wantGlob(t, o, "b.txt", "after invalidating a deleted path")
}

func TestInvalidateRelativePath(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	write(t, filepath.Join(root, "sub", "a.txt"))
	o := GlobOptions{Pattern: "*.txt", Path: filepath.Join(root, "sub"), Cache: true}
	globPaths(t, o)
	write(t, filepath.Join(root, "sub", "b.txt"))
	t.Chdir(root)
	Invalidate("sub/b.txt")
	wantGlob(t, o, "a.txt b.txt", "relative invalidation")
}

func TestCacheOffNeitherReadsNorFills(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	write(t, filepath.Join(root, "a.txt"))
	cached := GlobOptions{Pattern: "*.txt", Path: root, Cache: true}
	globPaths(t, cached)
	write(t, filepath.Join(root, "b.txt"))
	wantGlob(t, GlobOptions{Pattern: "*.txt", Path: root}, "a.txt b.txt", "cache off read the cache")
	// The uncached call dropped the stale entry; it did not store its own.
	write(t, filepath.Join(root, "c.txt"))
	wantGlob(t, cached, "a.txt b.txt c.txt", "cache off filled the cache")
}

// TestCacheOffWithLimitDrops: an uncached glob with a limit, which walks in
// path order and stops at it (firstLimited), drops a stale entry of its key
// as the full walk does, and stores nothing.
func TestCacheOffWithLimitDrops(t *testing.T) {
	useCache(t, ttlOnly)
	root, _ := filepath.EvalSymlinks(t.TempDir())
	write(t, filepath.Join(root, "a.txt"))
	cached := GlobOptions{Pattern: "*.txt", Path: root, Cache: true}
	globPaths(t, cached)
	write(t, filepath.Join(root, "b.txt"))
	wantGlob(t, cached, "a.txt", "a hit within the TTL serves the cached scan")
	wantGlob(t, GlobOptions{Pattern: "*.txt", Path: root, MaxResults: Int(1)}, "a.txt", "cache off, limit 1")
	write(t, filepath.Join(root, "c.txt"))
	wantGlob(t, cached, "a.txt b.txt c.txt", "the limited uncached glob left the stale entry")
}

// fakeClock is a manual clock for the scan cache (scancache.SetClock):
// entries age by advance, not by the wall clock, whatever the machine's
// load.
type fakeClock struct {
	mu sync.Mutex
	t  time.Time
}

func (f *fakeClock) now() time.Time { f.mu.Lock(); defer f.mu.Unlock(); return f.t }

func (f *fakeClock) advance(d time.Duration) { f.mu.Lock(); f.t = f.t.Add(d); f.mu.Unlock() }

// useFakeClock is useCache with a manual clock.
func useFakeClock(t *testing.T, p scancache.Policy) *fakeClock {
	f := &fakeClock{t: time.Unix(1000, 0)}
	useCache(t, p).SetClock(f.now)
	return f
}

func TestEmptyResultRecheck(t *testing.T) {
	clock := useFakeClock(t, ttlOnly) // the contract's TTL policy, without watching
	root, _ := filepath.EvalSymlinks(t.TempDir())
	write(t, filepath.Join(root, "a.txt"))
	o := GlobOptions{Pattern: "*.new", Path: root, Cache: true}
	if got := globPaths(t, o); got != "" {
		t.Fatal(got)
	}
	write(t, filepath.Join(root, "x.new"))
	wantGlob(t, o, "", "a young empty result must not recheck")
	clock.advance(250 * time.Millisecond)
	wantGlob(t, o, "x.new", "an empty result older than the recheck age must rescan")
	// The rescan was stored: other patterns see it without a new scan.
	write(t, filepath.Join(root, "y.new"))
	wantGlob(t, GlobOptions{Pattern: "*", Path: root, Cache: true}, "a.txt x.new", "recheck did not store its scan")
	f := FuzzyFindOptions{Query: "zzz", Path: root, Cache: true}
	r, _ := FuzzyFind(f)
	write(t, filepath.Join(root, "zzz.md"))
	clock.advance(250 * time.Millisecond)
	r, _ = FuzzyFind(f)
	if r.TotalMatches != 1 {
		t.Fatalf("fuzzyFind recheck: %+v", r)
	}
}

func TestCacheExpires(t *testing.T) {
	clock := useFakeClock(t, ttlOnly) // the contract's TTL policy, without watching
	root, _ := filepath.EvalSymlinks(t.TempDir())
	write(t, filepath.Join(root, "a.txt"))
	o := GlobOptions{Pattern: "*", Path: root, Cache: true}
	globPaths(t, o)
	write(t, filepath.Join(root, "b.txt"))
	wantGlob(t, o, "a.txt", "young entry not served")
	clock.advance(1100 * time.Millisecond)
	wantGlob(t, o, "a.txt b.txt", "expired entry served")
}

func TestErrors(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	write(t, filepath.Join(root, "f"))
	for _, c := range []struct {
		err  error
		code Code
		msg  string
	}{
		{second(Glob(GlobOptions{Pattern: "*", Path: filepath.Join(root, "missing")}, nil)), CodePathNotFound, "Path not found: "},
		{second(Glob(GlobOptions{Pattern: "*", Path: filepath.Join(root, "f")}, nil)), CodeNotADirectory, "Search path must be a directory"},
		{second(Glob(GlobOptions{Pattern: "[", Path: root}, nil)), CodeInvalidGlob, "Invalid glob pattern: error parsing glob '**/[': unclosed character class; missing ']'"},
		{second(Glob(GlobOptions{Pattern: "*", Path: root, MaxResults: Int(0)}, nil)), "", ""},
		{second(Glob(GlobOptions{Pattern: "*", Path: root, Cancel: Cancel{Aborted: func() bool { return true }}}, nil)), CodeAborted, "Aborted: Signal"},
		{second(FuzzyFind(FuzzyFindOptions{Query: "x", Path: filepath.Join(root, "f")})), CodeNotADirectory, "Search path must be a directory"},
		{second(FuzzyFind(FuzzyFindOptions{Query: "x", Path: root, Cancel: Cancel{Aborted: func() bool { return true }}})), CodeAborted, "Aborted: Signal"},
	} {
		if c.code == "" {
			if c.err != nil {
				t.Errorf("unexpected %v", c.err)
			}
			continue
		}
		e, ok := c.err.(*Error)
		if !ok || e.Code != c.code || !strings.HasPrefix(e.Message, c.msg) {
			t.Errorf("got %#v, want %s %q", c.err, c.code, c.msg)
		}
	}
}

func second[T any](_ T, err error) error { return err }

func TestTimeout(t *testing.T) {
	root := filepath.Join(goroot(t), "src")
	for _, ms := range []int64{0, 1} {
		_, err := Glob(GlobOptions{Pattern: "*", Path: root, Cancel: Cancel{TimeoutMs: &ms}}, nil)
		if e, ok := err.(*Error); !ok || e.Code != CodeTimeout || e.Message != "Aborted: Timeout" {
			t.Errorf("timeoutMs %d: got %v", ms, err)
		}
	}
}

func TestOnMatchErrorStops(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	for _, n := range []string{"a", "b", "c"} {
		write(t, filepath.Join(root, n))
	}
	calls := 0
	_, err := Glob(GlobOptions{Pattern: "*", Path: root}, func(GlobMatch) error {
		calls++
		return &Error{Code: CodeAborted, Message: "stop"}
	})
	if err == nil || calls != 1 {
		t.Errorf("calls %d err %v", calls, err)
	}
}
