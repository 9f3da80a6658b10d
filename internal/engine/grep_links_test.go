//go:build unix

package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/fscache/fscache/internal/index"
)

// linkedTree makes a tree whose files all have a second name outside it,
// as `cp -al src root` makes (root is the copy), of n files, aged an
// hour (not racy); it returns root and src.
func linkedTree(t *testing.T, n int) (root, src string) {
	t.Helper()
	src, _ = filepath.EvalSymlinks(t.TempDir())
	root, _ = filepath.EvalSymlinks(t.TempDir())
	for i := range n {
		rel := fmt.Sprintf("d%d/f%02d.txt", i%4, i)
		mustDo(t, os.MkdirAll(filepath.Join(src, filepath.Dir(rel)), 0o755))
		mustDo(t, os.WriteFile(filepath.Join(src, rel), []byte(fmt.Sprintf("line %d\nalpha %d\nbeta\n", i, i)), 0o644))
	}
	age(t, src, time.Hour)
	mustDo(t, filepath.Walk(src, func(p string, info os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		dst := filepath.Join(root, strings.TrimPrefix(p, src))
		if info.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		return os.Link(p, dst)
	}))
	return root, src
}

// grepBoth greps o with the test's indexes and without any, fails on any
// difference, and returns the answer and whether the index ruled files
// out (IndexStats' Skipped grew).
func grepBoth(t *testing.T, step string, o GrepOptions) (GrepResult, bool) {
	t.Helper()
	gi := indexes
	before := IndexStats().Skipped
	with, err := Grep(o, nil)
	mustDo(t, err)
	skipped := IndexStats().Skipped > before
	set(nil)
	without, err := Grep(o, nil)
	indexes = gi
	mustDo(t, err)
	with.read, without.read = 0, 0
	if !reflect.DeepEqual(with, without) {
		t.Fatalf("%s: %+v:\nindexed   %+v\nunindexed %+v", step, o, with, without)
	}
	return with, skipped
}

// hasLine reports whether r has a match of path at line n.
func hasLine(r GrepResult, path string, n int) bool {
	for _, m := range r.Matches {
		if m.Path == path && m.LineNumber == n {
			return true
		}
	}
	return false
}

// TestIndexHardLinks (issue 45): files with more than one name are indexed
// (the index rules them out), and a write through the name outside the
// watched tree, which raises no event in it, is seen by the next grep: by
// its size or mtime, and (watching) by its ctime alone when the mtime is
// set back, with the index, live or published, watching or not, with and
// without a limit; with the watches of linked files (index.WatchLinked)
// and with a stat at each query. 600 files: their checks run on several
// goroutines.
func TestIndexHardLinks(t *testing.T) {
	for _, c := range []struct {
		name                  string
		watching, disk, files bool
	}{
		{"live", true, false, true}, {"live, published", true, true, true},
		{"live, no watches of files", true, false, false}, {"live, published, no watches of files", true, true, false},
		{"published, not watching", false, true, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			saved := index.WatchLinked
			index.WatchLinked = c.files
			defer func() { index.WatchLinked = saved }()
			if c.disk {
				useDiskIndex(t, t.TempDir(), c.watching, true)
			} else {
				useIndex(t, &indexPolicy{eager: true, capMem: 64 << 20})
			}
			root, src := linkedTree(t, 600)
			for _, limit := range []*int{nil, Int(50)} {
				o := GrepOptions{Pattern: "alpha 7$", Path: root, MaxCount: limit}
				grepBoth(t, "build", o)
				r, skipped := grepBoth(t, "indexed", o)
				if !skipped {
					t.Fatalf("limit %v: files with hard links not ruled out by the index: %+v", limit, IndexStats())
				}
				if !hasLine(r, "d3/f07.txt", 2) || hasLine(r, "d3/f03.txt", 2) {
					t.Fatalf("limit %v: %+v", limit, r.Matches)
				}
			}
			// Watching, each linked file is watched after its first check
			// (no stat of it at the next greps: 589 ruled out, 11 candidates,
			// which need no check); else checked by a stat.
			if w := IndexStats().LinkedWatched; c.files && c.watching && w < 580 || !c.files && w != 0 {
				t.Fatalf("%d linked entries covered by a watch of the file", w)
			}
			// The same size through the other name: the mtime tells.
			f03 := filepath.Join(src, "d3/f03.txt")
			mustDo(t, os.WriteFile(f03, []byte("line 3\nalpha 7\nbeta\n"), 0o644))
			for _, limit := range []*int{nil, Int(50)} {
				r, _ := grepBoth(t, "written through the other name", GrepOptions{Pattern: "alpha 7$", Path: root, MaxCount: limit})
				if !hasLine(r, "d3/f03.txt", 2) {
					t.Fatalf("limit %v: the write through the other name not seen: %+v", limit, r.Matches)
				}
			}
			if !c.watching {
				return // the walk compares sizes and mtimes only (docs/indexed-grep.md)
			}
			// Another file, whose entry rules it out, rewritten with the
			// literal (the same size) and its mtime set back as it was:
			// only the ctime tells.
			f05 := filepath.Join(src, "d1/f05.txt")
			fi, err := os.Stat(f05)
			mustDo(t, err)
			mustDo(t, os.WriteFile(f05, []byte("line 5\nalpha 7\nbeta\n"), 0o644))
			mustDo(t, os.Chtimes(f05, fi.ModTime(), fi.ModTime()))
			for _, limit := range []*int{nil, Int(50)} {
				r, _ := grepBoth(t, "mtime set back", GrepOptions{Pattern: "alpha 7$", Path: root, MaxCount: limit})
				if !hasLine(r, "d1/f05.txt", 2) {
					t.Fatalf("limit %v: a rewrite whose mtime was set back not seen: %+v", limit, r.Matches)
				}
			}
		})
	}
}

// TestDiskIndexLinksGone (issue 45): the published index of a tree whose
// files had a second name serves a new process after those names are gone
// (the link counts and ctimes changed, not the sizes or mtimes): used, and
// current, watching or not.
func TestDiskIndexLinksGone(t *testing.T) {
	for _, watching := range []bool{false, true} {
		t.Run(fmt.Sprintf("watching=%t", watching), func(t *testing.T) {
			gi := useDiskIndex(t, t.TempDir(), watching, true)
			root, src := linkedTree(t, 40)
			o := GrepOptions{Pattern: "alpha 7", Path: root}
			grepBoth(t, "build", o)
			if s := IndexStats().Persisted; s.Published != 1 {
				t.Fatalf("not published: %+v", s)
			}
			gi = restart(t, gi, false)
			mustDo(t, os.RemoveAll(src))
			used := false
			for i := range 3 {
				indexes = gi
				r, skipped := grepBoth(t, fmt.Sprintf("links gone, grep %d", i), o)
				if !hasLine(r, "d3/f07.txt", 2) || len(r.Matches) != 1 {
					t.Fatalf("links gone: %+v", r.Matches)
				}
				used = used || skipped
			}
			if !used {
				t.Fatalf("the published index is not used once the links are gone: %+v", IndexStats())
			}
		})
	}
}
