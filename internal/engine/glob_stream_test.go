package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fscache/fscache/internal/walk"
)

// streamTree makes a tree with ignored, hidden, nested and linked entries
// and files of distinct mtimes.
func streamTree(t *testing.T) string {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	write(t, filepath.Join(root, ".gitignore"))
	mustDo(t, os.WriteFile(filepath.Join(root, ".gitignore"), []byte("ignored/\n*.log\n"), 0o644))
	base := time.Now().Add(-time.Hour)
	for i := range 60 {
		p := filepath.Join(root, fmt.Sprintf("d%d", i%7), fmt.Sprintf("s%d", i%3), fmt.Sprintf("f%02d.txt", i))
		write(t, p)
		mustDo(t, os.Chtimes(p, base, base.Add(time.Duration(i*37%60)*time.Second)))
	}
	write(t, filepath.Join(root, "ignored", "x.txt"))
	write(t, filepath.Join(root, "a.log"))
	write(t, filepath.Join(root, ".hidden", "h.txt"))
	write(t, filepath.Join(root, "node_modules", "m", "n.txt"))
	mustDo(t, os.Symlink("d1", filepath.Join(root, "link")))
	return root
}

func streamed(t *testing.T, o GlobOptions) (got []string, res GlobResult) {
	t.Helper()
	res, err := Glob(o, func(m GlobMatch) error {
		got = append(got, fmt.Sprintf("%s|%d|%d", m.Path, m.Type, m.Mtime))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return got, res
}

func keys(ms []GlobMatch) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = fmt.Sprintf("%s|%d|%d", m.Path, m.Type, m.Mtime)
	}
	return out
}

func TestGlobStreamsEachMatchOnce(t *testing.T) {
	root := streamTree(t)
	for _, o := range []GlobOptions{
		{Pattern: "*", Path: root},
		{Pattern: "**/*.txt", Path: root, Hidden: true},
		{Pattern: "*", Path: root, Gitignore: Bool(false), IncludeNodeModules: Bool(true)},
		{Pattern: "*", Path: root, FileType: walk.Dir},
		{Pattern: "*", Path: root, FileType: walk.File, Hidden: true},
		{Pattern: "*", Path: root, SortByMtime: true},
		{Pattern: "*.txt", Path: root, Cache: true},
	} {
		Invalidate(root)
		got, res := streamed(t, o)
		want := keys(res.Matches)
		slices.Sort(got)
		slices.Sort(want)
		if len(want) == 0 || !slices.Equal(got, want) {
			t.Errorf("%+v:\nstreamed %v\nresult   %v", o, got, want)
		}
		if plain := globPaths(t, o); plain != pathsOf(res.Matches) {
			t.Errorf("%+v: the result changed with onMatch:\n%s\n%s", o, plain, pathsOf(res.Matches))
		}
	}
}

func pathsOf(ms []GlobMatch) string {
	s := ""
	for i, m := range ms {
		if i > 0 {
			s += " "
		}
		s += m.Path
	}
	return s
}

func TestGlobStreamsTopNAdmissions(t *testing.T) {
	root := streamTree(t)
	all, _ := streamed(t, GlobOptions{Pattern: "*.txt", Path: root, SortByMtime: true})
	for _, n := range []int{1, 5, 20, 100} {
		o := GlobOptions{Pattern: "*.txt", Path: root, SortByMtime: true, MaxResults: Int(n)}
		got, res := streamed(t, o)
		if plain := globPaths(t, o); plain != pathsOf(res.Matches) {
			t.Fatalf("n=%d: the result changed with onMatch", n)
		}
		seen := map[string]int{}
		for _, k := range got {
			seen[k]++
			if !slices.Contains(all, k) {
				t.Errorf("n=%d: delivered %s, not a match", n, k)
			}
		}
		for k, c := range seen {
			if c != 1 {
				t.Errorf("n=%d: %s delivered %d times", n, k, c)
			}
		}
		for _, k := range keys(res.Matches) {
			if seen[k] != 1 {
				t.Errorf("n=%d: result entry %s was not delivered", n, k)
			}
		}
		if n >= len(all) && len(got) != len(all) {
			t.Errorf("n=%d: %d delivered, want all %d", n, len(got), len(all))
		}
	}
}

func TestGlobUnsortedMaxResultsDeliversTheResult(t *testing.T) {
	root := streamTree(t)
	got, res := streamed(t, GlobOptions{Pattern: "*.txt", Path: root, MaxResults: Int(7)})
	if want := keys(res.Matches); len(want) != 7 || !slices.Equal(got, want) {
		t.Fatalf("streamed %v, result %v", got, want)
	}
}

// A glob that times out during the walk has already delivered matches.
func TestGlobTimeoutDeliversPartialMatches(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	for d := range 200 {
		dir := filepath.Join(root, fmt.Sprintf("d%03d", d))
		mustDo(t, os.MkdirAll(dir, 0o755))
		for f := range 200 {
			mustDo(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%03d.txt", f)), nil, 0o644))
		}
	}
	for _, sorted := range []bool{false, true} {
		var n atomic.Int64
		o := GlobOptions{Pattern: "**/*", Path: root, Hidden: true, SortByMtime: sorted,
			Cancel: Cancel{TimeoutMs: new(int64)}}
		*o.TimeoutMs = 50
		if sorted {
			o.MaxResults = Int(200)
		}
		_, err := Glob(o, func(GlobMatch) error {
			if n.Add(1) == 1 {
				time.Sleep(120 * time.Millisecond) // the deadline passes mid-walk
			}
			return nil
		})
		if e, ok := err.(*Error); !ok || e.Code != CodeTimeout {
			t.Fatalf("sorted=%v: want a timeout, got %v", sorted, err)
		}
		if n.Load() == 0 || n.Load() >= 40200 {
			t.Fatalf("sorted=%v: %d matches delivered before the timeout", sorted, n.Load())
		}
	}
}

// TestHitTopNDeliversTheResult: on a cache hit (and an uncached call served
// from a watched scan) with sortByMtime and maxResults, onMatch gets the
// result's matches, newest first, and nothing else.
func TestHitTopNDeliversTheResult(t *testing.T) {
	needWatch(t)
	useCache(t, watchedPolicy)
	root, _ := filepath.EvalSymlinks(t.TempDir())
	base := time.Now().Add(-time.Hour)
	for i := range 30 {
		p := filepath.Join(root, fmt.Sprintf("d%d/f%02d.ts", i%3, i))
		write(t, p)
		at := base.Add(time.Duration(i*7%30) * time.Second)
		mustDo(t, os.Chtimes(p, at, at))
	}
	for _, cached := range []bool{true, false} {
		o := GlobOptions{Pattern: "**/*.ts", Path: root, MaxResults: Int(5), SortByMtime: true, Cache: cached}
		for call := range 4 { // the later calls are hits, or served
			var got []string
			res, err := Glob(o, func(m GlobMatch) error { got = append(got, m.Path); return nil })
			mustDo(t, err)
			var want []string
			for _, m := range res.Matches {
				want = append(want, m.Path)
			}
			if call >= 2 && !slices.Equal(got, want) {
				t.Errorf("cache %v, call %d: onMatch got %v, result %v", cached, call, got, want)
			}
		}
	}
}
