package engine

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/fscache/fscache/internal/scancache"
)

// grepStreamTree makes a tree whose files hold 0 to 6 matches of "needle" at
// varied lines, in directories of varied sizes and depths (runs of one
// file, runs past runMax, subtrees between a directory's files), with
// hidden and ignored files and a binary file. With rare, about one file in
// twelve holds the needle (an index rules the others out).
func grepStreamTree(t *testing.T, rare bool) (root string, files int) {
	t.Helper()
	root, _ = filepath.EvalSymlinks(t.TempDir())
	r := rand.New(rand.NewPCG(35, 1))
	write := func(rel, body string) {
		p := filepath.Join(root, rel)
		mustDo(t, os.MkdirAll(filepath.Dir(p), 0o755))
		mustDo(t, os.WriteFile(p, []byte(body), 0o644))
	}
	body := func() string {
		var b strings.Builder
		hold := !rare || r.IntN(12) == 0
		for l := range 4 + r.IntN(30) {
			if hold && r.IntN(5) == 0 {
				fmt.Fprintf(&b, "line %d with a needle\n", l)
			} else {
				fmt.Fprintf(&b, "line %d\n", l)
			}
		}
		return b.String()
	}
	for d := range 30 {
		dir := fmt.Sprintf("d%02d", d)
		n := 1 + r.IntN(8)
		if d%7 == 3 {
			n = runMax + 10
		}
		for f := range n {
			write(fmt.Sprintf("%s/f%03d.txt", dir, f), body())
			files++
		}
		if d%3 == 0 {
			write(dir+"/sub/x.txt", body())    // between "f..." and nothing: after
			write(dir+"/a-b/y.txt", body())    // "a-b/" sorts before "f"
			write(dir+"/f000.txt.d/z", body()) // "f000.txt.d/" between two files
			files += 3
		}
	}
	write(".hidden/h.txt", "needle\n")
	write(".gitignore", "ignored/\n")
	write("ignored/i.txt", "needle\n")
	mustDo(t, os.Mkdir(filepath.Join(root, ".git"), 0o755))
	write("d05/bin.dat", "needle\n\x00\n")
	files += 3 // .hidden/h.txt (hidden is on by default), .gitignore, d05/bin.dat
	return root, files
}

// TestGrepStreamMatchesFullWalk: the first grep of a root, which walks in
// path order and stops once its answer is complete, answers exactly as the
// grep over the full walk (a cached scan) for every mode, limit, offset,
// context and maxCountPerFile, and reads fewer files when the answer lies
// early.
func TestGrepStreamMatchesFullWalk(t *testing.T) {
	isolateGit(t)
	useCache(t, scancache.Policy{TTL: 10 * time.Minute, EmptyRecheck: time.Hour, MaxEntries: 16}) // nothing watches
	old := indexes
	grepIndex()
	set(nil)
	t.Cleanup(func() { indexes = old })
	root, total := grepStreamTree(t, false)
	stoppedEarly := false
	for _, mode := range []GrepMode{ModeContent, ModeCount, ModeFilesWithMatches} {
		for _, limit := range []int{1, 2, 5, 13, 40, 100, 10000} {
			for _, off := range []int{0, 1, 7, 60} {
				for _, shape := range []string{"plain", "context", "agent"} {
					o := GrepOptions{Pattern: "needle", Path: root, Mode: mode, MaxCount: Int(limit), Offset: Int(off)}
					switch shape {
					case "context":
						o.Context = Int(2)
					case "agent":
						o.ContextBefore, o.ContextAfter, o.MaxColumns, o.MaxCountPerFile = Int(1), Int(3), Int(512), Int(2)
					}
					name := fmt.Sprintf("mode %d limit %d offset %d %s", mode, limit, off, shape)
					before := CacheStats().FullScans
					got, err := Grep(o, nil)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					if CacheStats().FullScans != before+1 {
						t.Fatalf("%s: the uncached grep did not walk", name)
					}
					o.Cache = true
					want, err := Grep(o, nil)
					if err != nil {
						t.Fatal(err)
					}
					g, _ := json.Marshal(jsonOf(got))
					w, _ := json.Marshal(jsonOf(want))
					if string(g) != string(w) {
						t.Fatalf("%s:\nstreamed  %s\nfull walk %s", name, g, w)
					}
					if limit <= 5 && off == 0 && got.read < total/3 {
						stoppedEarly = true
					}
				}
			}
		}
	}
	if !stoppedEarly {
		t.Error("no streamed grep stopped short of the tree")
	}
	// Without a limit reached, every file is searched.
	r, err := Grep(GrepOptions{Pattern: "needle", Path: root, MaxCount: Int(100000)}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if r.LimitReached || r.FilesSearched != total {
		t.Errorf("limit not reached: filesSearched %d of %d, limitReached %v", r.FilesSearched, total, r.LimitReached)
	}
}

// TestGrepStreamPublishedIndex: a fresh process's grep with a limit on a
// root with a published index validates the index as the walk streams in
// path order and stops with the answer; it answers exactly as a grep
// without any index for every mode, limit, offset, context and
// maxCountPerFile, rules files out (counted as searched), stops short of
// the tree when the answer lies early, and searches a file changed since
// the build (a new match where the index saw none).
func TestGrepStreamPublishedIndex(t *testing.T) {
	isolateGit(t)
	root, total := grepStreamTree(t, true)
	age(t, root, time.Hour)
	gi := useDiskIndex(t, t.TempDir(), false, true)
	if _, err := Grep(GrepOptions{Pattern: "needle", Path: root}, nil); err != nil {
		t.Fatal(err)
	}
	if s := IndexStats().Persisted; s.Published != 1 {
		t.Fatalf("the eager grep published no index: %+v", s)
	}
	// A file the index saw without the needle now holds one, early in
	// path order: the walk does not confirm it, so it is searched.
	addNeedle(t, filepath.Join(root, "d00", "f000.txt"))
	gi = restart(t, gi, false)
	stoppedEarly := false
	for _, mode := range []GrepMode{ModeContent, ModeCount, ModeFilesWithMatches} {
		for _, limit := range []int{1, 2, 5, 13, 40, 10000} {
			for _, off := range []int{0, 1, 7} {
				for _, shape := range []string{"plain", "context", "agent"} {
					o := GrepOptions{Pattern: "needle", Path: root, Mode: mode, MaxCount: Int(limit), Offset: Int(off)}
					switch shape {
					case "context":
						o.Context = Int(2)
					case "agent":
						o.ContextBefore, o.ContextAfter, o.MaxColumns, o.MaxCountPerFile = Int(1), Int(3), Int(512), Int(2)
					}
					name := fmt.Sprintf("mode %d limit %d offset %d %s", mode, limit, off, shape)
					indexes = gi
					before := IndexStats()
					got, err := Grep(o, nil)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					after := IndexStats()
					if after.Queries != before.Queries+1 || after.Persisted.Queries != before.Persisted.Queries+1 {
						t.Fatalf("%s: not served by the published index: %+v", name, after)
					}
					if after.Skipped == before.Skipped {
						t.Fatalf("%s: the published index ruled nothing out", name)
					}
					set(nil)
					want, err := Grep(o, nil)
					indexes = gi
					if err != nil {
						t.Fatal(err)
					}
					if limit <= 2 && off == 0 && got.read+int(after.Skipped-before.Skipped) < total/3 {
						stoppedEarly = true
					}
					sameAnswer(t, name, got, want)
				}
			}
		}
	}
	// Off Linux walk.ScanOrdered walks the whole tree before it hands
	// entries out, so the index's entries are validated for every file:
	// the answers above are the same, the stop is Linux's.
	if !stoppedEarly && runtime.GOOS == "linux" {
		t.Error("no streamed grep stopped short of the tree")
	}
	r, err := Grep(GrepOptions{Pattern: "needle", Path: root, MaxCount: Int(3), Mode: ModeFilesWithMatches}, nil)
	mustDo(t, err)
	found := false
	for _, m := range r.Matches {
		found = found || m.Path == "d00/f000.txt"
	}
	if !found {
		t.Errorf("the file changed after the build is not among the first matches: %+v", r.Matches)
	}
}

// TestGrepLimitedLiveIndex: a grep with a limit on a root with a live
// index takes the watched scan's files in path order, asks the index file
// by file, and stops with the answer (serveLimited). It answers exactly
// as a grep without any index for every mode, limit, offset, context and
// maxCountPerFile, on the root, a subdirectory and with a glob, before and
// after edits the index has not read yet (searched as they are), and reads
// only the first files when the answer lies early.
func TestGrepLimitedLiveIndex(t *testing.T) {
	isolateGit(t)
	p := indexPolicy{capMem: 64 << 20}
	useIndex(t, &p)
	root, total := grepStreamTree(t, true)
	warm := GrepOptions{Pattern: "needle", Path: root}
	Grep(warm, nil)
	Grep(warm, nil)
	waitBuilder(t)
	if liveRoots() != 1 {
		t.Fatalf("root not indexed: %+v", IndexStats())
	}
	stoppedEarly := false
	check := func(step string) {
		t.Helper()
		for _, where := range []string{"", "d03", "glob"} {
			for _, mode := range []GrepMode{ModeContent, ModeCount, ModeFilesWithMatches} {
				for _, limit := range []int{1, 2, 5, 13, 10000} {
					for _, off := range []int{0, 1, 7} {
						for _, shape := range []string{"plain", "agent"} {
							o := GrepOptions{Pattern: "needle", Path: root, Mode: mode, MaxCount: Int(limit), Offset: Int(off)}
							switch where {
							case "d03":
								o.Path = filepath.Join(root, "d03")
							case "glob":
								o.Glob = "d0*/**/*.txt"
							}
							if shape == "agent" {
								o.ContextBefore, o.ContextAfter, o.MaxColumns, o.MaxCountPerFile = Int(1), Int(3), Int(512), Int(2)
							}
							name := fmt.Sprintf("%s: %q mode %d limit %d offset %d %s", step, where, mode, limit, off, shape)
							gi := indexes
							before := IndexStats()
							got, err := Grep(o, nil)
							if err != nil {
								t.Fatalf("%s: %v", name, err)
							}
							after := IndexStats()
							if after.Queries != before.Queries+1 {
								t.Fatalf("%s: not served by the live index: %+v", name, after)
							}
							set(nil)
							want, err := Grep(o, nil)
							indexes = gi
							mustDo(t, err)
							if where == "" && limit <= 2 && off == 0 && got.read < total/3 {
								stoppedEarly = true
							}
							sameAnswer(t, name, got, want)
						}
					}
				}
			}
		}
	}
	check("built")
	if !stoppedEarly {
		t.Error("no indexed grep with a limit stopped short of the tree")
	}
	// Edits the index hears of but has not read: a file that had no
	// needle now holds one, early in path order; a new file; a removal.
	addNeedle(t, filepath.Join(root, "d00", "f000.txt"))
	mustDo(t, os.WriteFile(filepath.Join(root, "d00", "e.txt"), []byte("needle new\n"), 0o644))
	mustDo(t, os.Remove(filepath.Join(root, "d01", "f000.txt")))
	check("after edits")
	r, err := Grep(GrepOptions{Pattern: "needle", Path: root, MaxCount: Int(3), Mode: ModeFilesWithMatches}, nil)
	mustDo(t, err)
	if len(r.Matches) != 3 || r.Matches[1].Path != "d00/e.txt" || r.Matches[2].Path != "d00/f000.txt" {
		t.Errorf("the files written after the build are not the first matches: %+v", r.Matches)
	}
}

// sameAnswer fails the test when got, a grep served by an index, answers
// otherwise than want, the same grep without one (the files read aside).
func sameAnswer(t *testing.T, name string, got, want GrepResult) {
	t.Helper()
	got.read, want.read = 0, 0
	g, _ := json.Marshal(jsonOf(got))
	w, _ := json.Marshal(jsonOf(want))
	if string(g) != string(w) || got.FilesSearched != want.FilesSearched {
		t.Fatalf("%s:\nindexed  %s (searched %d)\nno index %s (searched %d)", name, g, got.FilesSearched, w, want.FilesSearched)
	}
}

// addNeedle appends a line with the needle to the file p of
// grepStreamTree, which must hold none yet.
func addNeedle(t *testing.T, p string) {
	t.Helper()
	data, err := os.ReadFile(p)
	mustDo(t, err)
	if strings.Contains(string(data), "needle") {
		t.Fatalf("%s already holds the needle: pick another file", p)
	}
	mustDo(t, os.WriteFile(p, append(data, "a needle, written after the build\n"...), 0o644))
}

// TestGrepLimitedManyCandidatesFirstFiles: a grep with a limit decides
// whether a published index is worth its walk with full detail from the
// files it would search first (manyProbe in path order), not the whole
// tree: a pattern held by every one of the first files and few of the
// rest is searched without the index, one held by none of the first files
// and most of the rest with it. Both answer as without an index.
func TestGrepLimitedManyCandidatesFirstFiles(t *testing.T) {
	root, gi := publishedTree(t, 400, func(i int) string {
		switch {
		case i < 20:
			return "an early word\n"
		case i >= 40:
			return "a late word\n"
		}
		return ""
	})
	defer func(old int) { manyProbe = old }(manyProbe)
	for _, c := range []struct {
		probe    int
		pattern  string
		useIndex bool
	}{
		{1 << 14, "early", true}, // 20 of 400 files: the whole tree is sparse
		{1 << 14, "late", false}, // 360 of 400
		{20, "early", false},     // every one of the first 20
		{40, "late", true},       // none of the first 40
	} {
		manyProbe = c.probe
		gi = restart(t, gi, false)
		o := GrepOptions{Pattern: c.pattern, Path: root, MaxCount: Int(5), ContextAfter: Int(1)}
		before := IndexStats()
		got, err := Grep(o, nil)
		mustDo(t, err)
		after := IndexStats()
		used := after.Persisted.Queries > before.Persisted.Queries
		fell := after.Fallbacks[idxManyCandidates] > before.Fallbacks[idxManyCandidates]
		if used != c.useIndex || fell == c.useIndex {
			t.Fatalf("%q, first %d files: index used %t, many_candidates %t; want used %t", c.pattern, c.probe, used, fell, c.useIndex)
		}
		set(nil)
		want, err := Grep(o, nil)
		mustDo(t, err)
		indexes = gi
		sameAnswer(t, c.pattern, got, want)
	}
}

// TestGrepLimitedOutOfReach: a grep with a limit whose published index's
// candidates cannot give it its limit (each file at most its per-file cap
// of matches, or one in filesWithMatches) walks as one without a limit,
// not in path order: it cannot stop early. One they can reach streams.
// Both answer as without an index.
func TestGrepLimitedOutOfReach(t *testing.T) {
	root, gi := publishedTree(t, 200, func(i int) string {
		if i%67 == 5 { // 3 files, 2 needles each
			return "a needle\nanother needle\n"
		}
		return ""
	})
	for _, c := range []struct {
		mode            GrepMode
		limit, per, off int // per 0: no maxCountPerFile
		stream          bool
	}{
		{ModeContent, 10, 2, 0, false}, // 3 files x 2 < 10
		{ModeContent, 5, 2, 2, false},  // 6 < 5 + 2
		{ModeContent, 5, 2, 0, true},
		{ModeContent, 10, 0, 0, true}, // no cap: a file may hold them all
		{ModeFilesWithMatches, 4, 0, 0, false},
		{ModeFilesWithMatches, 3, 0, 0, true},
		{ModeCount, 100, 2, 0, true}, // counts are not capped
	} {
		gi = restart(t, gi, false)
		streamed := false
		gi.policy.onStream = func() { streamed = true }
		o := GrepOptions{Pattern: "needle", Path: root, Mode: c.mode, MaxCount: Int(c.limit), Offset: Int(c.off), ContextBefore: Int(1)}
		if c.per > 0 {
			o.MaxCountPerFile = Int(c.per)
		}
		name := fmt.Sprintf("%+v", c)
		before := IndexStats()
		got, err := Grep(o, nil)
		mustDo(t, err)
		if IndexStats().Persisted.Queries != before.Persisted.Queries+1 {
			t.Fatalf("%s: not served by the published index", name)
		}
		if streamed != c.stream {
			t.Fatalf("%s: streamed %t, want %t", name, streamed, c.stream)
		}
		set(nil)
		want, err := Grep(o, nil)
		mustDo(t, err)
		indexes = gi
		sameAnswer(t, name, got, want)
	}
}

// publishedTree writes n files ("line i", then extra(i)) in directories of
// 100, an hour old, and publishes their index from an eager grep: the
// index a fresh process's grep then finds (restart).
func publishedTree(t *testing.T, n int, extra func(i int) string) (string, *grepIndexes) {
	t.Helper()
	isolateGit(t)
	root, _ := filepath.EvalSymlinks(t.TempDir())
	for i := range n {
		p := filepath.Join(root, fmt.Sprintf("d%d", i/100), fmt.Sprintf("f%03d.txt", i))
		mustDo(t, os.MkdirAll(filepath.Dir(p), 0o755))
		mustDo(t, os.WriteFile(p, []byte(fmt.Sprintf("line %d\n", i)+extra(i)), 0o644))
	}
	age(t, root, time.Hour)
	gi := useDiskIndex(t, t.TempDir(), false, true)
	if _, err := Grep(GrepOptions{Pattern: "line", Path: root}, nil); err != nil {
		t.Fatal(err)
	}
	if s := IndexStats().Persisted; s.Published != 1 {
		t.Fatalf("the eager grep published no index: %+v", s)
	}
	return root, gi
}
