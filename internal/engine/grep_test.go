package engine

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// nulFile is 16-byte lines "text foo 000000\n" with a NUL inserted at off,
// then ten "after foo" lines, as in the reference's measurements.
func nulFile(off int) []byte {
	var s []byte
	for i := 0; len(s) < off+64; i++ {
		s = fmt.Appendf(s, "text foo %06d\n", i)
	}
	out := append(append(append([]byte{}, s[:off]...), 0), s[off:]...)
	return append(out, bytes.Repeat([]byte("after foo\n"), 10)...)
}

// TestBinaryRule pins the reference's counts (recorded from pi-natives
// 14.9.9): a NUL in the first 64 KiB hides the file; past it, the search
// quits at the first matching line holding a NUL.
func TestBinaryRule(t *testing.T) {
	root := t.TempDir()
	for _, off := range []int{100, 65535, 65536, 65552, 100000, 131072, 200000} {
		mustDo(t, os.WriteFile(filepath.Join(root, fmt.Sprintf("nul_at_%d.dat", off)), nulFile(off), 0o644))
	}
	count := func(pattern string) map[string]int {
		r, err := Grep(GrepOptions{Pattern: pattern, Path: root, Mode: ModeCount}, nil)
		mustDo(t, err)
		if r.FilesSearched != 7 {
			t.Errorf("filesSearched %d", r.FilesSearched)
		}
		got := map[string]int{}
		for _, m := range r.Matches {
			got[m.Path] = *m.MatchCount
		}
		return got
	}
	want := map[string]int{"nul_at_65536.dat": 4096, "nul_at_65552.dat": 4097, "nul_at_100000.dat": 6250,
		"nul_at_131072.dat": 8192, "nul_at_200000.dat": 12500}
	if got := count("foo"); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("foo: got %v, want %v", got, want)
	}
	for k := range want {
		want[k] = 10
	}
	if got := count("after"); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("after: got %v, want %v", got, want)
	}
	r, err := Grep(GrepOptions{Pattern: "foo", Path: filepath.Join(root, "nul_at_65552.dat"), MaxCount: Int(2)}, nil)
	mustDo(t, err)
	if len(r.Matches) != 2 || r.TotalMatches != 3 || !r.LimitReached {
		t.Errorf("maxCount 2: %d matches, total %d, limit %v", len(r.Matches), r.TotalMatches, r.LimitReached)
	}
	r, err = Grep(GrepOptions{Pattern: "foo", Path: root, Mode: ModeFilesWithMatches}, nil)
	mustDo(t, err)
	if r.TotalMatches != 7 {
		t.Errorf("filesWithMatches tests the raw bytes: %d", r.TotalMatches)
	}
}

// TestSingleFileCaps pins the reference's caps on a single file, which
// differ from a directory's: maxCount 0 reads as 1, and count mode is
// capped too.
func TestSingleFileCaps(t *testing.T) {
	root := t.TempDir()
	file := filepath.Join(root, "a.txt")
	mustDo(t, os.WriteFile(file, []byte("a1\na2\na3\n"), 0o644))
	run := func(path string, o GrepOptions) string {
		o.Pattern, o.Path = "a", path
		r, err := Grep(o, nil)
		mustDo(t, err)
		s := fmt.Sprintf("total %d limit %v:", r.TotalMatches, r.LimitReached)
		for _, m := range r.Matches {
			s += " " + m.Line
			if m.MatchCount != nil {
				s += fmt.Sprint("#", *m.MatchCount)
			}
		}
		return s
	}
	for _, c := range []struct {
		path string
		o    GrepOptions
		want string
	}{
		{file, GrepOptions{MaxCount: Int(0)}, "total 2 limit true: a1"},
		{file, GrepOptions{MaxCount: Int(0), Offset: Int(1)}, "total 3 limit true: a2"},
		{file, GrepOptions{MaxCount: Int(1), Mode: ModeCount}, "total 2 limit true: #2"},
		{root, GrepOptions{MaxCount: Int(1), Mode: ModeCount}, "total 3 limit true: #3"},
		{root, GrepOptions{MaxCount: Int(0)}, "total 2 limit true:"},
	} {
		if got := run(c.path, c.o); got != c.want {
			t.Errorf("%s %+v: got %q, want %q", filepath.Base(c.path), c.o, got, c.want)
		}
	}
}

// TestGrepNotUTF8Names pins the reference's answers (pi-natives 14.9.9)
// for files whose paths are not valid UTF-8, in the name or in a directory
// above: they are opened by their real bytes and reported by the displayed
// path. The reference's cached mode skips them (it opens the displayed
// path); fscache's finds them in both modes (docs/compat.md).
func TestGrepNotUTF8Names(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	mustDo(t, err)
	mustDo(t, os.MkdirAll(filepath.Join(root, "dir\xc3", "s\xfe"), 0o755))
	for name, data := range map[string]string{"bad\xff.txt": "foo\n", "dir\xc3/in.txt": "a\nfoo bar\n",
		"dir\xc3/s\xfe/deep.txt": "foo\n", "ok.txt": "bar\n"} {
		mustDo(t, os.WriteFile(filepath.Join(root, name), []byte(data), 0o644))
	}
	render := func(r GrepResult) string {
		s := fmt.Sprintf("searched %d total %d files %d:", r.FilesSearched, r.TotalMatches, r.FilesWithMatches)
		for _, m := range r.Matches {
			s += fmt.Sprintf(" %+q:%d:%q", m.Path, m.LineNumber, m.Line)
		}
		return s
	}
	r, err := Grep(GrepOptions{Pattern: "foo", Path: root}, nil)
	mustDo(t, err)
	want := `searched 4 total 3 files 3: "bad\ufffd.txt":1:"foo" "dir\ufffd/in.txt":2:"foo bar" "dir\ufffd/s\ufffd/deep.txt":1:"foo"`
	if got := render(r); got != want {
		t.Errorf("cache false:\ngot  %s\nwant %s", got, want)
	}
	r, err = Grep(GrepOptions{Pattern: "foo", Path: root, Cache: true}, nil)
	mustDo(t, err)
	if got := render(r); got != want {
		t.Errorf("cache true:\ngot  %s\nwant %s", got, want)
	}
}

// TestGrepSpecialFiles: a FIFO as the path returns an empty result at once
// (opening it would block), and a FIFO inside a directory is not searched.
func TestGrepSpecialFiles(t *testing.T) {
	root := t.TempDir()
	fifo := filepath.Join(root, "fifo")
	mustDo(t, mkfifo(fifo))
	mustDo(t, os.WriteFile(filepath.Join(root, "a.txt"), []byte("needle\n"), 0o644))
	done := make(chan GrepResult, 1)
	go func() {
		r, err := Grep(GrepOptions{Pattern: "needle", Path: fifo}, nil)
		if err != nil {
			t.Error(err)
		}
		done <- r
	}()
	select {
	case r := <-done:
		if len(r.Matches) != 0 || r.FilesSearched != 0 {
			t.Errorf("fifo path: %+v", r)
		}
	case <-time.After(time.Minute):
		t.Fatal("hang: grep on a FIFO blocked")
	}
	for _, cached := range []bool{false, true} {
		r, err := Grep(GrepOptions{Pattern: "needle", Path: root, Cache: cached}, nil)
		mustDo(t, err)
		if r.FilesSearched != 1 || r.TotalMatches != 1 {
			t.Errorf("cache %v: %+v", cached, r)
		}
	}
}
