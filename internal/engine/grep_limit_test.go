package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// limitTree makes dirs directories of files files each, every file with
// lines matches of "needle" (and a line without), in path order d000/f000.txt...
func limitTree(t *testing.T, dirs, files, lines int) string {
	t.Helper()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	body := strings.Repeat("a needle here\nnothing\n", lines)
	for d := range dirs {
		dir := filepath.Join(root, fmt.Sprintf("d%03d", d))
		mustDo(t, os.MkdirAll(dir, 0o755))
		for f := range files {
			mustDo(t, os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%03d.txt", f)), []byte(body), 0o644))
		}
	}
	return root
}

// TestGrepStopsAtCompleteAnswer: with maxCount reached early in path order,
// grep reads far fewer files than the tree holds, and answers as a grep
// that read them all would for its matches and limitReached; totalMatches,
// filesWithMatches and filesSearched are those of the files up to the one
// that completed the answer. The agent's shape (context, maxCountPerFile)
// and offsets included; indexed or not, cached or not.
func TestGrepStopsAtCompleteAnswer(t *testing.T) {
	t.Run("unindexed", func(t *testing.T) {
		useIndex(t, nil)
		grepStops(t, false)
	})
	t.Run("indexed", func(t *testing.T) {
		useIndex(t, &indexPolicy{eager: true, capMem: 64 << 20})
		grepStops(t, true)
	})
}

func grepStops(t *testing.T, indexed bool) {
	const dirs, files, lines = 40, 30, 3 // 1,200 files of 3 matches
	root := limitTree(t, dirs, files, lines)
	total := dirs * files
	type tc struct {
		name string
		o    GrepOptions
		// the file (position in path order) whose matches complete the answer
		last int
	}
	cases := []tc{
		{"content", GrepOptions{MaxCount: Int(20)}, 6},
		{"agent shape", GrepOptions{MaxCount: Int(20), MaxCountPerFile: Int(2), ContextBefore: Int(1), ContextAfter: Int(3), MaxColumns: Int(512), Hidden: Bool(true), Gitignore: Bool(true)}, 9},
		{"offset", GrepOptions{MaxCount: Int(10), Offset: Int(35)}, 14},
		{"count", GrepOptions{MaxCount: Int(7), Mode: ModeCount}, 2},
		{"files", GrepOptions{MaxCount: Int(5), Mode: ModeFilesWithMatches}, 4},
	}
	for _, c := range cases {
		for _, cached := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s cache=%v", c.name, cached), func(t *testing.T) {
				o := c.o
				o.Pattern, o.Path, o.Cache = "needle", root, cached
				before := IndexStats().Queries
				r, err := Grep(o, nil)
				if err != nil {
					t.Fatal(err)
				}
				if served := IndexStats().Queries > before; served != indexed {
					t.Fatalf("served by the index: %v", served)
				}
				// The answer of a grep that reads everything, cut as
				// documented: its matches, limitReached and filesSearched.
				full := o
				full.MaxCount, full.Offset = nil, nil
				all, err := Grep(full, nil)
				if err != nil {
					t.Fatal(err)
				}
				if all.read != total {
					t.Fatalf("unlimited grep read %d of %d files", all.read, total)
				}
				wantN := *o.MaxCount
				if o.Mode == ModeCount {
					wantN = c.last + 1 // one entry per file, until maxCount matches are consumed
				}
				if got := len(r.Matches); got != wantN || !r.LimitReached || r.FilesSearched != c.last+1 {
					t.Fatalf("%d matches, limitReached %v, filesSearched %d; want %d, true, %d", got, r.LimitReached, r.FilesSearched, wantN, c.last+1)
				}
				skip := deref(o.Offset)
				if o.Mode == ModeContent {
					for i, m := range r.Matches {
						if w := all.Matches[skip+i]; m.Path != w.Path || m.LineNumber != w.LineNumber || len(m.ContextAfter) != len(w.ContextAfter) {
							t.Fatalf("match %d: %+v, want %+v", i, m, w)
						}
					}
				} else {
					for i, m := range r.Matches {
						if w := all.Matches[i]; m.Path != w.Path {
							t.Fatalf("entry %d: %s, want %s", i, m.Path, w.Path)
						}
					}
				}
				// what each file adds to totalMatches: its matches, up to
				// one past a per-file cap; 1 in filesWithMatches mode
				fileTotal := lines
				switch {
				case o.Mode == ModeFilesWithMatches:
					fileTotal = 1
				case o.Mode == ModeContent && o.MaxCountPerFile != nil:
					fileTotal = *o.MaxCountPerFile + 1
				}
				if r.FilesWithMatches != c.last+1 || r.TotalMatches != (c.last+1)*fileTotal {
					t.Errorf("filesWithMatches %d, totalMatches %d; want %d, %d", r.FilesWithMatches, r.TotalMatches, c.last+1, (c.last+1)*fileTotal)
				}
				// How far the other workers read ahead of the one that met
				// the need depends on scheduling (a loaded machine can stall
				// it for milliseconds): a few tries, one of which must stop
				// well short of the whole tree.
				read := r.read
				for try := 0; try < 8 && read >= total/4; try++ {
					again, err := Grep(o, nil)
					if err != nil {
						t.Fatal(err)
					}
					read = min(read, again.read)
				}
				if read >= total/4 {
					t.Errorf("read %d of %d files at best: it did not stop", read, total)
				}
			})
		}
	}
}

// TestGrepStopRandomized: for many limits and offsets over a tree whose
// files hold different numbers of matches, a grep that stops answers as
// the one that reads all, cut to its limit.
func TestGrepStopRandomized(t *testing.T) {
	useCache(t, watchedPolicy)
	root, _ := filepath.EvalSymlinks(t.TempDir())
	n := 0
	for d := range 12 {
		for f := range 12 {
			k := (d*7 + f*3) % 5 // 0 to 4 matches
			n += k
			p := filepath.Join(root, fmt.Sprintf("d%02d/f%02d.txt", d, f))
			mustDo(t, os.MkdirAll(filepath.Dir(p), 0o755))
			mustDo(t, os.WriteFile(p, []byte(strings.Repeat("x needle\n", k)+"end\n"), 0o644))
		}
	}
	for limit := 1; limit <= n+2; limit += 7 {
		for _, off := range []int{0, 3, 50} {
			for _, mode := range []GrepMode{ModeContent, ModeCount, ModeFilesWithMatches} {
				o := GrepOptions{Pattern: "needle", Path: root, MaxCount: Int(limit), Offset: Int(off), Mode: mode}
				r, err := Grep(o, nil)
				if err != nil {
					t.Fatal(err)
				}
				tm, fwm, last := stoppedCounts(t, root, "needle", "", mode, limit, off)
				fs := 144
				if last != "" {
					fs = searchedUpTo(t, o, last)
				}
				all := o
				all.MaxCount, all.Offset = nil, nil
				a, _ := Grep(all, nil)
				var want []string
				for _, m := range a.Matches {
					want = append(want, fmt.Sprint(m.Path, ":", m.LineNumber))
				}
				var got []string
				for _, m := range r.Matches {
					got = append(got, fmt.Sprint(m.Path, ":", m.LineNumber))
				}
				// (count mode: the offset skips matches inside the entries)
				if mode != ModeCount {
					lo := min(off, len(want))
					want = want[lo:min(len(want), lo+limit)]
					if strings.Join(got, " ") != strings.Join(want, " ") {
						t.Fatalf("limit %d offset %d mode %d:\ngot  %v\nwant %v", limit, off, mode, got, want)
					}
				}
				if r.TotalMatches != tm || r.FilesWithMatches != fwm || r.FilesSearched != fs {
					t.Fatalf("limit %d offset %d mode %d: tm %d fwm %d fs %d, want %d %d %d", limit, off, mode, r.TotalMatches, r.FilesWithMatches, r.FilesSearched, tm, fwm, fs)
				}
			}
		}
	}
}
