package walk

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fscache/fscache/internal/cancel"
)

// tree creates files (content = path) and directories (trailing '/') under
// a new temp dir and returns its canonical path.
func tree(t testing.TB, paths ...string) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		full := filepath.Join(root, p)
		if strings.HasSuffix(p, "/") {
			must(t, os.MkdirAll(full, 0o755))
			continue
		}
		must(t, os.MkdirAll(filepath.Dir(full), 0o755))
		must(t, os.WriteFile(full, []byte(p), 0o644))
	}
	return filepath.ToSlash(root) // the form of every root (Windows: '/'-separated)
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// list renders entries as "path:type" joined by spaces.
func list(es []Entry) string {
	var b []string
	for _, e := range es {
		b = append(b, fmt.Sprintf("%s:%d", e.Path, e.Type))
	}
	return strings.Join(b, " ")
}

func scan(t *testing.T, o Options) string {
	t.Helper()
	es, err := Scan(o)
	if err != nil {
		t.Fatal(err)
	}
	return list(es)
}

func TestPolicy(t *testing.T) {
	root := tree(t, "a.txt", "a/b.txt", ".hidden", ".hdir/x", ".git/config", "node_modules/m/i.js", "sub/.git", "sub/k")
	cases := []struct {
		name string
		o    Options
		want string
	}{
		{"default", Options{Root: root},
			"a:2 a.txt:1 a/b.txt:1 node_modules:2 node_modules/m:2 node_modules/m/i.js:1 sub:2 sub/k:1"},
		{"hidden", Options{Root: root, Hidden: true},
			".hdir:2 .hdir/x:1 .hidden:1 a:2 a.txt:1 a/b.txt:1 node_modules:2 node_modules/m:2 node_modules/m/i.js:1 sub:2 sub/k:1"},
		{"skip node_modules", Options{Root: root, SkipNodeModules: true},
			"a:2 a.txt:1 a/b.txt:1 sub:2 sub/k:1"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := scan(t, c.o); got != c.want {
				t.Errorf("got  %s\nwant %s", got, c.want)
			}
		})
	}
}

func TestSortedBytewise(t *testing.T) {
	root := tree(t, "a.txt", "a/b", "a-b", "B", "é")
	if got, want := scan(t, Options{Root: root}), "B:1 a:2 a-b:1 a.txt:1 a/b:1 é:1"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestFullDetail(t *testing.T) {
	root := tree(t, "f.txt", "d/")
	mt := time.Unix(1_700_000_000, 123_456_789) // the ns are kept (pi-natives 18.2 reports them)
	must(t, os.Chtimes(filepath.Join(root, "f.txt"), mt, mt))
	must(t, os.Symlink("f.txt", filepath.Join(root, "l")))
	es, err := Scan(Options{Root: root, Full: true})
	must(t, err)
	if len(es) != 3 {
		t.Fatalf("entries: %s", list(es))
	}
	d, f, l := es[0], es[1], es[2]
	if d.Size != -1 || d.Mtime <= 0 {
		t.Errorf("dir: size %d mtime %d", d.Size, d.Mtime)
	}
	if f.Mtime != mt.UnixNano() || f.Size != int64(len("f.txt")) {
		t.Errorf("file: mtime %d size %d, want %d %d", f.Mtime, f.Size, mt.UnixNano(), len("f.txt"))
	}
	if l.Type != Symlink || l.Size != -1 || l.Mtime <= 0 {
		t.Errorf("link: %+v", l)
	}
	// Walk and LstatDetail read the same ns.
	must(t, Walk(Options{Root: root, Full: true}, func(e Entry) error {
		if e.Path == "f.txt" && e.Mtime != mt.UnixNano() {
			t.Errorf("Walk: f.txt mtime %d, want %d", e.Mtime, mt.UnixNano())
		}
		return nil
	}))
	if m, _ := LstatDetail(filepath.Join(root, "f.txt")); m != mt.UnixNano() {
		t.Errorf("LstatDetail: mtime %d, want %d", m, mt.UnixNano())
	}
	min, _ := Scan(Options{Root: root})
	for _, e := range min {
		if e.Mtime != -1 || e.Size != -1 {
			t.Errorf("minimal detail carries metadata: %+v", e)
		}
	}
}

func TestLinks(t *testing.T) {
	root := tree(t, "real/f.txt", "file.txt")
	must(t, os.Symlink("real", filepath.Join(root, "dirlink")))
	must(t, os.Symlink("file.txt", filepath.Join(root, "filelink")))
	must(t, os.Symlink("missing", filepath.Join(root, "broken")))
	must(t, os.Symlink("..", filepath.Join(root, "real", "up"))) // a cycle
	if got, want := scan(t, Options{Root: root}),
		"broken:3 dirlink:3 file.txt:1 filelink:3 real:2 real/f.txt:1 real/up:3"; got != want {
		t.Errorf("not following:\ngot  %s\nwant %s", got, want)
	}
	got := scan(t, Options{Root: root, FollowLinks: true})
	for _, want := range []string{"broken:3", "dirlink:2", "dirlink/f.txt:1", "filelink:1", "real/f.txt:1"} {
		if !strings.Contains(" "+got+" ", " "+want+" ") {
			t.Errorf("following: %s missing from %s", want, got)
		}
	}
	if strings.Contains(got, "up/real/up") {
		t.Errorf("cycle walked repeatedly: %s", got)
	}
}

func TestSpecialFilesAreNotEntries(t *testing.T) {
	root := tree(t, "f")
	must(t, mkfifo(filepath.Join(root, "fifo")))
	if got := scan(t, Options{Root: root}); got != "f:1" {
		t.Errorf("got %s", got)
	}
}

func TestNames(t *testing.T) {
	root := tree(t, "日本/語.txt")
	bad := filepath.Join(root, "bad\xff\xfename")
	must(t, os.WriteFile(bad, nil, 0o644))
	got := scan(t, Options{Root: root})
	if want := "bad\uFFFD\uFFFDname:1 日本:2 日本/語.txt:1"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestCancel: a pre-set flag stops Scan and Walk before they start; a flag
// raised during the walk (from OnDir, which then waits for the token's
// clock to notice it) stops Scan with ErrSignal before it read the rest of
// the tree: fewer directories are announced than a full scan announces.
func TestCancel(t *testing.T) {
	root := tree(t, "a", "b")
	raised := cancel.New(time.Time{}, func() bool { return true })
	if _, err := Scan(Options{Root: root, Cancel: raised}); err != cancel.ErrSignal {
		t.Errorf("pre-set flag: %v", err)
	}
	if err := Walk(Options{Root: root, Cancel: raised}, func(Entry) error { return nil }); err != cancel.ErrSignal {
		t.Errorf("pre-set flag, Walk: %v", err)
	}
	var paths []string
	for i := range 600 {
		paths = append(paths, fmt.Sprintf("d%d/e%d/f%d", i%30, i%60, i))
	}
	root = tree(t, paths...)
	var full atomic.Int32
	if _, err := Scan(Options{Root: root, Hooks: Hooks{OnDir: func(string) error { full.Add(1); return nil }}}); err != nil {
		t.Fatal(err)
	}
	var flag atomic.Bool
	tok := cancel.New(time.Time{}, flag.Load)
	defer tok.Release()
	var dirs atomic.Int32
	// From the third directory on, no directory is read before the token
	// noticed the flag: the listing workers wait in OnDir.
	_, err := Scan(Options{Root: root, Cancel: tok, Hooks: Hooks{OnDir: func(string) error {
		if dirs.Add(1) >= 3 {
			flag.Store(true)
			waitStopped(t, tok)
		}
		return nil
	}}})
	if err != cancel.ErrSignal || dirs.Load() >= full.Load() {
		t.Errorf("flag raised during the walk: %v after %d of %d directories", err, dirs.Load(), full.Load())
	}
}

// waitStopped waits for tok to notice its flag or deadline: a minute at
// most, a hang otherwise.
func waitStopped(t *testing.T, tok *cancel.Token) {
	for end := time.Now().Add(time.Minute); tok.Err() == nil; time.Sleep(100 * time.Microsecond) {
		if time.Now().After(end) {
			t.Error("hang: the token did not notice its flag in a minute")
			return
		}
	}
}

func TestGitignorePrunes(t *testing.T) {
	root := tree(t, ".git/HEAD", ".gitignore", "build/out.o", "src/a.go", "src/gen/", "x.log")
	must(t, os.WriteFile(filepath.Join(root, ".gitignore"), []byte("build/\n*.log\n"), 0o644))
	if got, want := scan(t, Options{Root: root, Gitignore: true}), "src:2 src/a.go:1 src/gen:2"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if got, want := scan(t, Options{Root: root}), "build:2 build/out.o:1 src:2 src/a.go:1 src/gen:2 x.log:1"; got != want {
		t.Errorf("gitignore off: got %s, want %s", got, want)
	}
}

// BenchmarkScanGoroot scans $GOROOT/src with fscache's walk and with
// fastwalk alone, side by side.
func BenchmarkScanGoroot(b *testing.B) {
	root := filepath.Join(goroot(b), "src")
	b.Run("fscache", func(b *testing.B) {
		for b.Loop() {
			if _, err := Scan(Options{Root: root, Gitignore: true, SkipNodeModules: true}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("fscache-full", func(b *testing.B) {
		for b.Loop() {
			if _, err := Scan(Options{Root: root, Gitignore: true, SkipNodeModules: true, Full: true}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("fscache-walk", func(b *testing.B) {
		for b.Loop() {
			var n atomic.Int64
			if err := Walk(Options{Root: root, Gitignore: true, SkipNodeModules: true}, func(Entry) error {
				n.Add(1)
				return nil
			}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("fastwalk-alone", func(b *testing.B) {
		for b.Loop() {
			fastwalkAlone(b, root)
		}
	})
}
