package engine

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/fscache/fscache/internal/scancache"
	"github.com/fscache/fscache/internal/watch"
)

// ttlOnly is the contract's default policy with watching off.
var ttlOnly = scancache.Policy{TTL: time.Second, EmptyRecheck: 200 * time.Millisecond, MaxEntries: 16}

// useCache replaces the process-wide scan cache for the test.
func useCache(t *testing.T, p scancache.Policy) *scancache.Cache {
	t.Helper()
	scanCache()
	stopBuilders(t)
	old := cache
	cache = scancache.New(p, nil)
	t.Cleanup(func() { stopBuilders(t); cache.InvalidateAll(); cache = old })
	return cache
}

// stopBuilders drops every grep index and waits for the background
// builder to end, so that no builder reads the scan cache while a test
// replaces it.
func stopBuilders(t *testing.T) {
	t.Helper()
	gi := indexes
	if gi == nil {
		return
	}
	gi.dropAll()
	waitNoBuilder(t, gi)
}

// waitNoBuilder waits until gi's builder goroutine has ended.
func waitNoBuilder(t *testing.T, gi *grepIndexes) {
	t.Helper()
	for i := 0; ; i++ {
		gi.mu.Lock()
		b := gi.building
		gi.mu.Unlock()
		if !b {
			return
		}
		if i > 60000 {
			t.Fatal("hang: the index builder did not end in a minute")
		}
		time.Sleep(time.Millisecond)
	}
}

func needWatch(t *testing.T) {
	w, err := watch.New()
	if err != nil {
		t.Skip("no change notifications on this platform")
	}
	w.Close()
}

func TestWatchedCacheIsCurrentWithoutInvalidation(t *testing.T) {
	needWatch(t)
	useCache(t, scancache.Policy{TTL: 10 * time.Minute, EmptyRecheck: time.Hour, MaxEntries: 16, Watch: true})
	root, _ := filepath.EvalSymlinks(t.TempDir())
	write(t, filepath.Join(root, "a.txt"))
	o := GlobOptions{Pattern: "**/*.txt", Path: root, Cache: true}
	wantGlob(t, o, "a.txt", "first")
	write(t, filepath.Join(root, "b.txt"))
	write(t, filepath.Join(root, "new", "deep", "c.txt"))
	wantGlob(t, o, "a.txt b.txt new/deep/c.txt", "after creates")
	mustDo(t, os.Rename(filepath.Join(root, "new"), filepath.Join(root, "old")))
	mustDo(t, os.Remove(filepath.Join(root, "a.txt")))
	wantGlob(t, o, "b.txt old/deep/c.txt", "after rename and delete")
	mustDo(t, os.WriteFile(filepath.Join(root, ".ignore"), []byte("old/\n"), 0o644))
	wantGlob(t, o, "b.txt", "after an ignore file")
	mustDo(t, os.Remove(filepath.Join(root, ".ignore")))
	wantGlob(t, o, "b.txt old/deep/c.txt", "the pruned subtree is back")
	if st := CacheStats(); st.Watched != 1 || st.FullScans != 1 || st.EventsApplied == 0 {
		t.Errorf("stats %+v", st)
	}
}

// TestChurnGlobAndFuzzyFind: random changes, cached glob and fuzzyFind
// answers against walked ones after every step, with a 10-minute TTL
// and no invalidation call.
func TestChurnGlobAndFuzzyFind(t *testing.T) { churnGlobAndFuzzyFind(t, 250, 0) }

// TestChurnManyBlocks is TestChurnGlobAndFuzzyFind in a tree of several
// thousand entries besides, so that the snapshots span several blocks and
// the changes are spliced between blocks the patched snapshot shares.
func TestChurnManyBlocks(t *testing.T) { churnGlobAndFuzzyFind(t, 60, 9000) }

// churnGlobAndFuzzyFind runs steps random changes in a tree that starts
// with bulk files spread over a few directories.
func churnGlobAndFuzzyFind(t *testing.T, steps, bulk int) {
	needWatch(t)
	useCache(t, scancache.Policy{TTL: 10 * time.Minute, EmptyRecheck: time.Hour, MaxEntries: 16, Watch: true})
	base, _ := filepath.EvalSymlinks(t.TempDir())
	root, out := filepath.Join(base, "repo"), filepath.Join(base, "out")
	mustDo(t, os.MkdirAll(filepath.Join(root, ".git", "info"), 0o755))
	mustDo(t, os.MkdirAll(out, 0o755))
	for i := range bulk {
		// Directories a, m and z: changes land before, between and after.
		d := filepath.Join(root, []string{"a", "m", "z"}[i%3], fmt.Sprintf("d%02d", i%30))
		if i < 30 {
			mustDo(t, os.MkdirAll(d, 0o755))
		}
		mustDo(t, os.WriteFile(filepath.Join(d, fmt.Sprintf("bulk%05d.ts", i)), nil, 0o644))
	}
	r := rand.New(rand.NewSource(7))
	names := []string{"app", "button.ts", "x.log", ".env", "node_modules", "lib", "btn.go", "readme.md"}
	name := func() string {
		n := names[r.Intn(len(names))]
		if r.Intn(2) == 0 {
			return n + string(rune('a'+r.Intn(26)))
		}
		return n
	}
	var dirs, files []string
	list := func() {
		dirs, files = listTree(root, func(fi os.FileInfo) bool {
			// .git, and the bulk directories, which stay
			return fi.Name() == ".git" || bulk > 0 && len(fi.Name()) == 3 && fi.Name()[0] == 'd'
		})
	}
	pick := func(s []string) string { return s[r.Intn(len(s))] }
	// try makes a file, or nothing when a name is taken by the other kind.
	try := func(p string) {
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte("x"), 0o644)
	}
	globs := []GlobOptions{
		{Pattern: "**/*", Path: root},
		{Pattern: "**/*.ts", Path: root, Hidden: true},
		{Pattern: "**", Path: root, Gitignore: Bool(false), IncludeNodeModules: Bool(true)},
		{Pattern: "**/*", Path: root, SortByMtime: true, Hidden: true},
	}
	queries := []string{"btn", "app", "rd", "x"}
	stale, answers := 0, 0
	for step := range steps {
		list()
		d := pick(dirs)
		switch r.Intn(7) {
		case 0, 1:
			try(filepath.Join(d, name()))
		case 2:
			if len(files) > 0 {
				os.Remove(pick(files))
			}
		case 3:
			if len(files) > 0 {
				os.Rename(pick(files), filepath.Join(d, name()))
			}
		case 4:
			tmp := filepath.Join(out, name())
			try(filepath.Join(tmp, name(), name()))
			try(filepath.Join(tmp, name()))
			os.Rename(tmp, filepath.Join(d, name()))
		case 5:
			if p := pick(dirs); p != root && !(bulk > 0 && filepath.Dir(p) == root && len(filepath.Base(p)) == 1) {
				os.RemoveAll(p) // not a, m or z, which hold the bulk
			}
		default:
			pats := []string{"*.log\n", "lib*/\n", "!x.log\n", "app*\n", ""}
			os.WriteFile(filepath.Join(d, []string{".gitignore", ".ignore"}[r.Intn(2)]), []byte(pick(pats)+pick(pats)), 0o644)
		}
		for _, g := range globs {
			cached, fresh := g, g
			cached.Cache = true
			answers++
			a := globAll(t, cached)
			var b string
			walked(func() { b = globAll(t, fresh) })
			if a != b {
				stale++
				t.Errorf("step %d glob %+v:\ncached %s\nfresh  %s", step, g, a, b)
			}
		}
		for _, q := range queries {
			answers++
			a := fuzzyAll(t, FuzzyFindOptions{Query: q, Path: root, Cache: true, MaxResults: Int(1000)})
			var b string
			walked(func() { b = fuzzyAll(t, FuzzyFindOptions{Query: q, Path: root, MaxResults: Int(1000)}) })
			if a != b {
				stale++
				t.Errorf("step %d fuzzyFind %q:\ncached %s\nfresh  %s", step, q, a, b)
			}
		}
		if stale > 5 {
			t.FailNow()
		}
	}
	st := CacheStats()
	t.Logf("%d cached answers, %d stale; %+v", answers, stale, st)
	if st.Hits < int64(answers-8) || st.Watched == 0 {
		t.Errorf("the cached answers did not come from watched snapshots: %d hits for %d answers", st.Hits, answers)
	}
}

func globAll(t *testing.T, o GlobOptions) string {
	t.Helper()
	res, err := Glob(o, nil)
	if err != nil {
		t.Fatal(err)
	}
	var p []string
	for _, m := range res.Matches {
		p = append(p, m.Path)
	}
	if !o.SortByMtime {
		slices.Sort(p)
	}
	return strings.Join(p, " ")
}

func fuzzyAll(t *testing.T, o FuzzyFindOptions) string {
	t.Helper()
	res, err := FuzzyFind(o)
	if err != nil {
		t.Fatal(err)
	}
	var p []string
	for _, m := range res.Matches {
		p = append(p, m.Path)
	}
	return strings.Join(p, " ")
}
