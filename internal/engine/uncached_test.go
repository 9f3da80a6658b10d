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
	"github.com/fscache/fscache/internal/walk"
)

// watchedPolicy is the default policy with watching on and a TTL long
// enough that nothing ages out during a test.
var watchedPolicy = scancache.Policy{TTL: 10 * time.Minute, EmptyRecheck: time.Hour, MaxEntries: 16, Watch: true}

// walked runs fn with a scan cache that caches nothing (a TTL of 0), so
// that every call in fn walks: the answer of FS_SCAN_CACHE_WATCH=0 and no
// cache. The test's own cache is back when fn returns. Only for tests
// whose calls run on the test's goroutine (no grep index builder).
func walked(fn func()) {
	scanCache()
	old := cache
	cache = scancache.New(scancache.Policy{MaxEntries: 16}, nil)
	defer func() { cache = old }()
	fn()
}

// agentGlobs are the glob shapes of the agent's tools (oh-my-pi v18.0.0:
// tools/glob.ts, discovery/helpers.ts), without cache.
func agentGlobs(root string) []GlobOptions {
	max200, no, yes := Int(200), Bool(false), Bool(true)
	return []GlobOptions{
		// The glob tool: sortByMtime, at most 200, not recursive.
		{Pattern: "**/*.ts", Path: root, Hidden: false, MaxResults: max200, SortByMtime: true, Gitignore: yes, Recursive: no},
		{Pattern: "*", Path: root, Hidden: true, MaxResults: max200, SortByMtime: true, Gitignore: yes, Recursive: no},
		{Pattern: "src/**", Path: root, Hidden: true, MaxResults: max200, SortByMtime: true, Gitignore: yes, Recursive: no},
		// Discovery of skills, tools and plugins.
		{Pattern: "**/*.{ts,js}", Path: root, Gitignore: yes, Hidden: false, FileType: walk.File, Recursive: yes},
	}
}

// agentLists are listWorkspace's shapes: the system prompt's and the read
// tool's on a directory.
func agentLists(root string) []ListWorkspaceOptions {
	return []ListWorkspaceOptions{
		{Path: root, MaxDepth: 3, Hidden: false, Gitignore: Bool(true), CollectAgentsMd: true},
		{Path: root, MaxDepth: 2, Hidden: true, Gitignore: Bool(false)},
	}
}

// globFull is a glob's answer with every field of every match.
func globFull(t *testing.T, o GlobOptions) string {
	t.Helper()
	res, err := Glob(o, nil)
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d:", res.TotalMatches)
	for _, m := range res.Matches {
		fmt.Fprintf(&b, " %s/%d/%d/%d", m.Path, m.Type, m.Mtime, m.Size)
	}
	return b.String()
}

func listFull(t *testing.T, o ListWorkspaceOptions) string {
	t.Helper()
	res, err := ListWorkspace(o)
	if err != nil {
		t.Fatal(err)
	}
	return fmt.Sprintf("%+v", res)
}

// agentAnswers runs every agent shape without cache on root and returns
// the answers, one per shape.
func agentAnswers(t *testing.T, root string) []string {
	var out []string
	for _, g := range agentGlobs(root) {
		out = append(out, globFull(t, g))
	}
	for _, l := range agentLists(root) {
		out = append(out, listFull(t, l))
	}
	for _, q := range []string{"btn", "app", "src", ""} {
		out = append(out, fuzzyAll(t, FuzzyFindOptions{Query: q, Path: root, MaxResults: Int(100), Hidden: true, Gitignore: Bool(true)}))
	}
	return out
}

// compareAgent compares the agent's shapes, as served, with the same calls
// walked; it returns the number of differences.
func compareAgent(t *testing.T, step string, root string) int {
	t.Helper()
	got := agentAnswers(t, root)
	var want []string
	walked(func() { want = agentAnswers(t, root) })
	diffs := 0
	for i := range got {
		if got[i] != want[i] {
			diffs++
			t.Errorf("%s, shape %d:\nserved %s\nwalked %s", step, i, got[i], want[i])
		}
	}
	return diffs
}

// TestUncachedServedFromWatched: the first uncached call walks, the second
// walks and makes the key watched, the ones after are answered from the
// watched partition, current after every change; cacheStats says which.
func TestUncachedServedFromWatched(t *testing.T) {
	needWatch(t)
	useCache(t, watchedPolicy)
	root, _ := filepath.EvalSymlinks(t.TempDir())
	write(t, filepath.Join(root, "a.ts"))
	o := GlobOptions{Pattern: "**/*.ts", Path: root}
	for i, want := range []string{scancache.UncachedFirst, scancache.UncachedWatchStarted, ""} {
		before := CacheStats()
		wantGlob(t, o, "a.ts", fmt.Sprint("call ", i))
		after := CacheStats()
		if want == "" {
			if after.UncachedServed != before.UncachedServed+1 {
				t.Errorf("call %d not served from the watched scan: %+v", i, after)
			}
		} else if after.UncachedWalks[want] != before.UncachedWalks[want]+1 {
			t.Errorf("call %d: walks %v, want one more %q", i, after.UncachedWalks, want)
		}
	}
	write(t, filepath.Join(root, "b.ts"))
	wantGlob(t, o, "a.ts b.ts", "after a create")
	if st := CacheStats(); st.UncachedServed != 2 || st.FullScans != 2 {
		t.Errorf("stats %+v", st)
	}
}

// TestUncachedWalksWhenNotTrusted: watching off, or a root on a network
// or FUSE file system: every uncached call walks, and cacheStats says why.
func TestUncachedWalksWhenNotTrusted(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	write(t, filepath.Join(root, "a.ts"))
	o := GlobOptions{Pattern: "**/*.ts", Path: root}
	t.Run("watch off", func(t *testing.T) {
		useCache(t, ttlOnly)
		for range 3 {
			wantGlob(t, o, "a.ts", "call")
		}
		if st := CacheStats(); st.UncachedServed != 0 || st.UncachedWalks[scancache.ReasonDisabled] != 3 {
			t.Errorf("stats %+v", st)
		}
	})
	t.Run("remote", func(t *testing.T) {
		needWatch(t)
		c := useCache(t, watchedPolicy)
		scancache.SetRemoteAt(c, func(string) string { return "fuse.sshfs" })
		for range 3 {
			wantGlob(t, o, "a.ts", "call")
		}
		write(t, filepath.Join(root, "b.ts"))
		wantGlob(t, o, "a.ts b.ts", "after a create")
		st := CacheStats()
		if st.UncachedServed != 0 || st.UncachedWalks[scancache.ReasonRemoteFS] < 3 || st.FallbackRoots[root] != scancache.ReasonRemoteFS {
			t.Errorf("stats %+v", st)
		}
	})
}

// TestUncachedMetadataCurrent: sortByMtime, mtime and size from a served
// snapshot after each way of changing a file's metadata, against a walk.
func TestUncachedMetadataCurrent(t *testing.T) {
	needWatch(t)
	useCache(t, watchedPolicy)
	root, _ := filepath.EvalSymlinks(t.TempDir())
	for _, n := range []string{"a.ts", "b.ts", "c.ts", "src/d.ts"} {
		write(t, filepath.Join(root, n))
	}
	o := GlobOptions{Pattern: "**/*.ts", Path: root, MaxResults: Int(200), SortByMtime: true, Gitignore: Bool(true)}
	check := func(step string) {
		t.Helper()
		got := globFull(t, o)
		var want string
		walked(func() { want = globFull(t, o) })
		if got != want {
			t.Errorf("%s:\nserved %s\nwalked %s", step, got, want)
		}
	}
	check("first")
	check("second")
	past := time.Now().Add(-time.Hour)
	edits := []struct {
		name string
		do   func() error
	}{
		{"write", func() error { return appendTo(filepath.Join(root, "a.ts"), "more text\n") }},
		{"truncate", func() error { return os.Truncate(filepath.Join(root, "a.ts"), 3) }},
		{"touch into the past", func() error { return os.Chtimes(filepath.Join(root, "b.ts"), past, past) }},
		{"touch now", func() error { n := time.Now(); return os.Chtimes(filepath.Join(root, "c.ts"), n, n) }},
		{"chmod", func() error { return os.Chmod(filepath.Join(root, "src/d.ts"), 0o600) }},
		{"rename over a file", func() error {
			p := filepath.Join(root, "new.tmp")
			if err := os.WriteFile(p, []byte("a longer replacement\n"), 0o644); err != nil {
				return err
			}
			os.Chtimes(p, past.Add(time.Minute), past.Add(time.Minute))
			return os.Rename(p, filepath.Join(root, "c.ts"))
		}},
		{"rewrite in place", func() error { return os.WriteFile(filepath.Join(root, "src/d.ts"), []byte("x"), 0o644) }},
	}
	for _, e := range edits {
		mustDo(t, e.do())
		check(e.name)
	}
	if st := CacheStats(); st.UncachedServed < int64(len(edits)) {
		t.Errorf("only %d answers served: %+v", st.UncachedServed, st)
	}
}

func appendTo(p, s string) error {
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	_, err = f.WriteString(s)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// TestUncachedChurn: every kind of edit, each followed at once by the
// agent's glob, discovery glob, listWorkspace and fuzzyFind shapes without
// cache, each compared with the same call walked (FS_SCAN_CACHE_WATCH=0's
// answer). FSCACHE_CHURN_STEPS sets the number of edits (default 2000).
func TestUncachedChurn(t *testing.T) {
	needWatch(t)
	useCache(t, watchedPolicy)
	steps := 2000
	if n, err := fmt.Sscan(os.Getenv("FSCACHE_CHURN_STEPS"), &steps); n != 1 || err != nil {
		steps = 2000
	}
	base, _ := filepath.EvalSymlinks(t.TempDir())
	root, out := filepath.Join(base, "repo"), filepath.Join(base, "out")
	mustDo(t, os.MkdirAll(filepath.Join(root, ".git", "info"), 0o755))
	mustDo(t, os.MkdirAll(out, 0o755))
	for _, n := range []string{"src/app.ts", "src/lib/btn.js", "docs/readme.md", "AGENTS.md", "src/AGENTS.md", "x.log"} {
		write(t, filepath.Join(root, n))
	}
	r := rand.New(rand.NewSource(11))
	names := []string{"app.ts", "btn.js", "x.log", ".env", "node_modules", "lib", "src", "readme.md", "AGENTS.md", "tool.ts"}
	name := func() string {
		n := names[r.Intn(len(names))]
		if r.Intn(3) == 0 {
			return string(rune('a'+r.Intn(26))) + n
		}
		return n
	}
	var dirs, files []string
	list := func() { dirs, files = listTree(root, func(fi os.FileInfo) bool { return fi.Name() == ".git" }) }
	pick := func(s []string) string { return s[r.Intn(len(s))] }
	try := func(p, text string) {
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(text), 0o644)
	}
	diffs := 0
	compareAgent(t, "start", root)
	compareAgent(t, "watched", root)
	for step := range steps {
		list()
		d := pick(dirs)
		kind := r.Intn(10)
		switch kind {
		case 0, 1: // create a file
			try(filepath.Join(d, name()), "x")
		case 2: // delete a file
			if len(files) > 0 {
				os.Remove(pick(files))
			}
		case 3: // rename a file
			if len(files) > 0 {
				os.Rename(pick(files), filepath.Join(d, name()))
			}
		case 4: // a directory made elsewhere moves in
			tmp := filepath.Join(out, name())
			try(filepath.Join(tmp, name(), name()), "y")
			os.Rename(tmp, filepath.Join(d, name()))
		case 5: // a directory deleted, or renamed (made hidden half the time)
			if p := pick(dirs); p != root {
				switch r.Intn(3) {
				case 0:
					os.RemoveAll(p)
				case 1:
					os.Rename(p, filepath.Join(filepath.Dir(p), "."+filepath.Base(p)))
				default:
					os.Rename(p, filepath.Join(pick(dirs), name()))
				}
			}
		case 6: // content rewritten
			if len(files) > 0 {
				os.WriteFile(pick(files), []byte(strings.Repeat("z", r.Intn(100))), 0o644)
			}
		case 7: // touch
			if len(files) > 0 {
				at := time.Now().Add(-time.Duration(r.Intn(1000)) * time.Minute)
				os.Chtimes(pick(files), at, at)
			}
		default: // an ignore file changed
			pats := []string{"*.log\n", "lib*/\n", "!x.log\n", "app*\n", "src/\n", ""}
			os.WriteFile(filepath.Join(d, []string{".gitignore", ".ignore"}[r.Intn(2)]), []byte(pick(pats)+pick(pats)), 0o644)
		}
		diffs += compareAgent(t, fmt.Sprintf("step %d (edit %d)", step, kind), root)
		if diffs > 5 {
			t.FailNow()
		}
	}
	st := CacheStats()
	t.Logf("%d edits, %d differences; %+v", steps, diffs, st)
	if st.UncachedServed < int64(steps) {
		t.Errorf("the uncached answers did not come from watched snapshots: %d served for %d edits", st.UncachedServed, steps)
	}
}

// listTree returns root and the directories under it, and the files under
// it, leaving out the directories skip says to (and what is below them).
func listTree(root string, skip func(fi os.FileInfo) bool) (dirs, files []string) {
	dirs = []string{root}
	filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		switch {
		case err != nil || p == root:
		case fi.IsDir() && skip(fi):
			return filepath.SkipDir
		case fi.IsDir():
			dirs = append(dirs, p)
		default:
			files = append(files, p)
		}
		return nil
	})
	return dirs, files
}

// TestListWorkspaceMemo: an uncached listWorkspace is answered from the
// watched result of an earlier walk while nothing it read has changed (a
// write far below its depth changes nothing it shows), and walks again
// after a change of anything it shows: an entry's metadata, a directory's
// mtime at the depth limit, an AGENTS.md, an ignore file.
func TestListWorkspaceMemo(t *testing.T) {
	needWatch(t)
	useCache(t, watchedPolicy)
	root, _ := filepath.EvalSymlinks(t.TempDir())
	for _, n := range []string{"a/x.txt", "a/b/c/d/e/f.txt", "top.md", "a/b/c/AGENTS.md"} {
		write(t, filepath.Join(root, n))
	}
	shapes := []ListWorkspaceOptions{
		{Path: root, MaxDepth: 2, Hidden: true, Gitignore: Bool(false)},
		{Path: root, MaxDepth: 2, Hidden: false, Gitignore: Bool(true), CollectAgentsMd: true},
	}
	// check compares each shape with a walk; wantServed says whether it is
	// served, but for the shapes in unaffected (served all the same).
	check := func(step string, wantServed bool, unaffected ...int) {
		t.Helper()
		for i, o := range shapes {
			before := CacheStats().UncachedServed
			got := listFull(t, o)
			served := CacheStats().UncachedServed > before
			var want string
			walked(func() { want = listFull(t, o) })
			if got != want {
				t.Errorf("%s, %+v:\nserved %s\nwalked %s", step, o, got, want)
			}
			if want := wantServed || slices.Contains(unaffected, i); served != want {
				t.Errorf("%s, %+v: served %v, want %v", step, o, served, want)
			}
		}
	}
	check("first", false)
	check("second (starts the watch)", false)
	check("third", true)
	mustDo(t, appendTo(filepath.Join(root, "a/b/c/d/e/f.txt"), "deep\n"))
	check("a write below the listed depth", true)
	steps := []struct {
		name       string
		do         func() error
		unaffected []int // shapes that do not read what changed
	}{
		{"a file made in a directory at the depth limit", func() error {
			return os.WriteFile(filepath.Join(root, "a/b/new.txt"), nil, 0o644)
		}, nil},
		{"an entry touched", func() error {
			at := time.Now().Add(-time.Hour)
			return os.Chtimes(filepath.Join(root, "a/x.txt"), at, at)
		}, nil},
		{"an entry written", func() error { return appendTo(filepath.Join(root, "top.md"), "more\n") }, nil},
		{"an AGENTS.md removed", func() error { return os.Remove(filepath.Join(root, "a/b/c/AGENTS.md")) }, []int{0}},
		{"an ignore file", func() error { return os.WriteFile(filepath.Join(root, ".gitignore"), []byte("a/\n"), 0o644) }, nil},
		{"a directory made hidden", func() error { return os.Rename(filepath.Join(root, "a"), filepath.Join(root, ".a")) }, nil},
	}
	for _, s := range steps {
		mustDo(t, s.do())
		check(s.name, false, s.unaffected...)
		check(s.name+", again", true)
	}
}
