package engine

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fscache/fscache/internal/scancache"
)

// grepStreamTree makes a tree whose files hold 0 to 6 matches of "needle" at
// varied lines, in directories of varied sizes and depths (runs of one
// file, runs past runMax, subtrees between a directory's files), with
// hidden and ignored files and a binary file.
func grepStreamTree(t *testing.T) (root string, files int) {
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
		for l := range 4 + r.IntN(30) {
			if r.IntN(5) == 0 {
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
	root, total := grepStreamTree(t)
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
