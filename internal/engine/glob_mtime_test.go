package engine

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fscache/fscache/internal/scancache"
	"github.com/fscache/fscache/internal/walk"
)

// The mtimes of glob's sortByMtime are pi-natives 18.2's: milliseconds
// with their fraction (walk.MtimeMs of the ns), sorted newest first on
// that float64, then by path.

// mtimeBase is 2026-01-01T00:00:00.005Z.
var mtimeBase = time.Unix(1767225600, 5_000_000)

// subMsTree makes many/f00.txt..f29.txt with mtimes 100 µs apart (f29 the
// newest; all within 3 ms, so whole milliseconds tie) and a directory
// whose mtime is older than them all.
func subMsTree(t *testing.T) string {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	for i := range 30 {
		p := filepath.Join(root, "many", fmt.Sprintf("f%02d.txt", i))
		write(t, p)
		mt := mtimeBase.Add(time.Duration(i) * 100 * time.Microsecond)
		mustDo(t, os.Chtimes(p, mt, mt))
	}
	mustDo(t, os.Chtimes(filepath.Join(root, "many"), mtimeBase.Add(-time.Second), mtimeBase.Add(-time.Second)))
	return root
}

func mtimeOrder(ms []GlobMatch) string {
	var b strings.Builder
	for i, m := range ms {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strings.TrimPrefix(m.Path, "many/"))
	}
	return b.String()
}

// TestGlobSortsBySubMillisecondMtime: files 100 µs apart come newest
// first, with a limit too (18.2.3: f29..f25; whole milliseconds gave
// f23..f27), whether the walk streams the top N, the cache serves the
// scan, or a type filter looks at each match; the mtimes are the ns read.
func TestGlobSortsBySubMillisecondMtime(t *testing.T) {
	useCache(t, ttlOnly)
	root := subMsTree(t)
	for _, c := range []struct {
		name string
		o    GlobOptions
		want string
	}{
		{"all", GlobOptions{Pattern: "many/*.txt", Path: root, SortByMtime: true}, ""},
		{"limit", GlobOptions{Pattern: "many/*.txt", Path: root, SortByMtime: true, MaxResults: Int(5)}, "f29.txt f28.txt f27.txt f26.txt f25.txt"},
		{"limit cached", GlobOptions{Pattern: "many/*.txt", Path: root, SortByMtime: true, MaxResults: Int(5), Cache: true}, "f29.txt f28.txt f27.txt f26.txt f25.txt"},
		{"limit file type", GlobOptions{Pattern: "**", Path: root, SortByMtime: true, MaxResults: Int(3), FileType: walk.File}, "f29.txt f28.txt f27.txt"},
	} {
		for _, stream := range []bool{false, true} {
			var got []GlobMatch
			var onMatch func(GlobMatch) error
			if stream {
				onMatch = func(m GlobMatch) error { got = append(got, m); return nil }
			}
			res, err := Glob(c.o, onMatch)
			if err != nil {
				t.Fatal(err)
			}
			want := c.want
			if want == "" {
				var all []string
				for i := 29; i >= 0; i-- {
					all = append(all, fmt.Sprintf("f%02d.txt", i))
				}
				want = strings.Join(all, " ")
			}
			if g := mtimeOrder(res.Matches); g != want {
				t.Errorf("%s (onMatch %t): got %s, want %s", c.name, stream, g, want)
			}
			for _, m := range res.Matches {
				var i int
				fmt.Sscanf(strings.TrimPrefix(m.Path, "many/"), "f%02d.txt", &i)
				if want := mtimeBase.Add(time.Duration(i) * 100 * time.Microsecond).UnixNano(); m.Mtime != want {
					t.Errorf("%s: %s mtime %d ns, want %d", c.name, m.Path, m.Mtime, want)
				}
			}
			if stream && len(got) < len(res.Matches) {
				t.Errorf("%s: onMatch got %d matches, the result has %d", c.name, len(got), len(res.Matches))
			}
		}
	}
}

// TestGlobMtimeTiesAsFloat64: two mtimes 1 ns apart are one float64 of
// milliseconds (its step is 244 ns in 2026): they tie, and come in path
// order, as in 18.2.3 (which sorts on that float64), not by their ns;
// 2 µs apart they do not tie.
func TestGlobMtimeTiesAsFloat64(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	set := func(name string, ns int64) {
		p := filepath.Join(root, name)
		write(t, p)
		mt := time.Unix(0, ns)
		mustDo(t, os.Chtimes(p, mt, mt))
	}
	const at = 1767225600_005_100_000
	set("a.txt", at)
	set("b.txt", at+1) // newer by 1 ns: the same float64
	set("c.txt", at-1)
	set("d.txt", at+2_000) // newer by 2 µs
	set("e.txt", at-2_000)
	for _, limit := range []*int{nil, Int(2), Int(4)} {
		res, err := Glob(GlobOptions{Pattern: "*.txt", Path: root, SortByMtime: true, MaxResults: limit}, nil)
		if err != nil {
			t.Fatal(err)
		}
		want := "d.txt a.txt b.txt c.txt e.txt"
		if limit != nil {
			want = want[:len("d.txt ")*(*limit)-1]
		}
		if g := mtimeOrder(res.Matches); g != want {
			t.Errorf("limit %v: got %s, want %s", limit, g, want)
		}
	}
	if ms := walk.MtimeMs(at + 1); ms != walk.MtimeMs(at) || ms != 1767225600005.1 {
		t.Errorf("MtimeMs(%d) = %v", at+1, ms)
	}
	if math.Float64bits(walk.MtimeMs(at+2_000)) == math.Float64bits(walk.MtimeMs(at)) {
		t.Error("2 µs apart: the same float64")
	}
}

// TestWatchedGlobKeepsSubMillisecondMtime: a cached scan kept current by
// change notifications records a changed file's mtime to the ns, as a
// new walk does (the patch lstats it), so a touch 100 µs later reorders
// the result.
func TestWatchedGlobKeepsSubMillisecondMtime(t *testing.T) {
	needWatch(t)
	useCache(t, scancache.Policy{TTL: 10 * time.Minute, EmptyRecheck: time.Hour, MaxEntries: 16, Watch: true})
	root := subMsTree(t)
	o := GlobOptions{Pattern: "many/*.txt", Path: root, SortByMtime: true, MaxResults: Int(2), Cache: true}
	if res, err := Glob(o, nil); err != nil || mtimeOrder(res.Matches) != "f29.txt f28.txt" {
		t.Fatalf("first: %v %v", res.Matches, err)
	}
	mt := mtimeBase.Add(2950 * time.Microsecond) // 50 µs after f29
	p := filepath.Join(root, "many", "f03.txt")
	mustDo(t, os.WriteFile(p, []byte("changed\n"), 0o644))
	mustDo(t, os.Chtimes(p, mt, mt))
	deadline := time.Now().Add(10 * time.Second)
	for {
		res, err := Glob(o, nil)
		if err != nil {
			t.Fatal(err)
		}
		if mtimeOrder(res.Matches) == "f03.txt f29.txt" && res.Matches[0].Mtime == mt.UnixNano() {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the touch: %s (%d ns), want f03.txt (%d ns) f29.txt", mtimeOrder(res.Matches), res.Matches[0].Mtime, mt.UnixNano())
		}
		time.Sleep(10 * time.Millisecond)
	}
}
