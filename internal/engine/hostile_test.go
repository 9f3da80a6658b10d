//go:build unix

package engine

import (
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// Hostile trees and I/O: each test builds its tree in a temp dir, runs the
// public calls over it and checks that they settle with the right answer
// for what they saw. Durations are logged (go test -v) for the hardening
// note; no test asserts one, except that nothing hangs.

// hangLimit is how long settle waits before failing a call as a hang: far
// beyond any call's duration, on any machine, for no time is asserted here.
const hangLimit = 2 * time.Minute

// settle runs fn and fails the test when it has not returned within
// hangLimit (a hang), logging how long it took.
func settle(t *testing.T, what string, fn func()) {
	t.Helper()
	done := make(chan struct{})
	start := time.Now()
	go func() {
		defer close(done)
		fn()
	}()
	select {
	case <-done:
		t.Logf("%s: settled in %v", what, time.Since(start).Round(time.Microsecond))
	case <-time.After(hangLimit):
		t.Fatalf("%s: hang: still running after %v", what, hangLimit)
	}
}

// mkfiles creates the empty files (and their directories) under root.
func mkfiles(t testing.TB, root string, rels ...string) {
	t.Helper()
	for _, rel := range rels {
		p := filepath.Join(root, rel)
		mustDo(t, os.MkdirAll(filepath.Dir(p), 0o755))
		mustDo(t, os.WriteFile(p, []byte("needle in "+rel+"\n"), 0o644))
	}
}

func hostileGlob(t *testing.T, root, pattern string, o GlobOptions) []string {
	t.Helper()
	o.Pattern, o.Path = pattern, root
	r, err := Glob(o, nil)
	mustDo(t, err)
	var out []string
	for _, m := range r.Matches {
		out = append(out, m.Path)
	}
	return out
}

// TestHostileSymlinkCycles: links to an ancestor, to themselves and in a
// ring of links, walked without following (glob, grep) and following
// (fuzzyFind, which drops a link back onto its own walk path).
func TestHostileSymlinkCycles(t *testing.T) {
	root := t.TempDir()
	mkfiles(t, root, "a/b/file.txt")
	for link, target := range map[string]string{"a/b/up": "../..", "a/self": ".", "ring1": "ring2", "ring2": "ring1",
		"selfloop": "selfloop", "a/b/down": "../b"} {
		mustDo(t, os.Symlink(target, filepath.Join(root, link)))
	}
	var got []string
	settle(t, "glob ** over link cycles, not followed", func() {
		got = hostileGlob(t, root, "**", GlobOptions{})
	})
	want := []string{"a", "a/b", "a/b/down", "a/b/file.txt", "a/b/up", "a/self", "ring1", "ring2", "selfloop"}
	if !slices.Equal(got, want) {
		t.Errorf("glob: %q, want %q", got, want)
	}
	var fz FuzzyFindResult
	settle(t, "fuzzyFind over link cycles, followed", func() {
		var err error
		fz, err = FuzzyFind(FuzzyFindOptions{Query: "file", Path: root, MaxResults: Int(1000)})
		mustDo(t, err)
	})
	var paths []string
	for _, m := range fz.Matches {
		paths = append(paths, m.Path)
	}
	slices.Sort(paths)
	// Every link here leads back onto its own walk path: all are dropped,
	// so the file is found once, under its real path.
	if !slices.Equal(paths, []string{"a/b/file.txt"}) {
		t.Errorf("fuzzyFind: %q", paths)
	}
	var gr GrepResult
	settle(t, "grep over link cycles", func() {
		var err error
		gr, err = Grep(GrepOptions{Pattern: "needle", Path: root}, nil)
		mustDo(t, err)
	})
	if gr.FilesSearched != 1 || gr.TotalMatches != 1 {
		t.Errorf("grep: searched %d, matches %d", gr.FilesSearched, gr.TotalMatches)
	}
}

// TestHostileDeepNesting: 320 directory levels (a 640-byte relative path).
func TestHostileDeepNesting(t *testing.T) {
	root := t.TempDir()
	deep := strings.Repeat("d/", 320) + "deep.txt"
	mkfiles(t, root, deep)
	var got []string
	settle(t, "glob over 320 levels", func() { got = hostileGlob(t, root, "**/deep.txt", GlobOptions{}) })
	if !slices.Equal(got, []string{deep}) {
		t.Errorf("glob: %d matches", len(got))
	}
	settle(t, "glob over 320 levels, cached", func() {
		got = hostileGlob(t, root, "*", GlobOptions{Cache: true})
	})
	if len(got) != 321 {
		t.Errorf("glob *: %d entries, want 321", len(got))
	}
	settle(t, "grep over 320 levels", func() {
		r, err := Grep(GrepOptions{Pattern: "needle", Path: root}, nil)
		mustDo(t, err)
		if r.TotalMatches != 1 || len(r.Matches) != 1 || r.Matches[0].Path != deep {
			t.Errorf("grep: %+v", r)
		}
	})
	settle(t, "fuzzyFind over 320 levels", func() {
		r, err := FuzzyFind(FuzzyFindOptions{Query: "deep.txt", Path: root})
		mustDo(t, err)
		if len(r.Matches) == 0 || r.Matches[0].Path != deep {
			t.Errorf("fuzzyFind: %+v", r.Matches[:min(3, len(r.Matches))])
		}
	})
}

// TestHostileBeyondPathMax: 2100 levels, deeper than an absolute path can
// name (PATH_MAX, 4096 bytes). The walk lists what can be opened by path,
// down to that limit, without an error, as the reference does (its glob
// lists the same depth for the same root length); the file at the bottom
// is out of reach for both.
func TestHostileBeyondPathMax(t *testing.T) {
	root := t.TempDir()
	fd, err := unix.Open(root, unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	mustDo(t, err)
	for range 2100 {
		mustDo(t, unix.Mkdirat(fd, "d", 0o755))
		next, err := unix.Openat(fd, "d", unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		mustDo(t, err)
		unix.Close(fd)
		fd = next
	}
	f, err := unix.Openat(fd, "deep.txt", unix.O_CREAT|unix.O_WRONLY|unix.O_CLOEXEC, 0o644)
	mustDo(t, err)
	unix.Close(f)
	unix.Close(fd)
	// Directory k ("d" repeated k times) opens while len(root)+2k < 4096;
	// its entries are listed.
	want := (4096-len(root)-1)/2 + 1
	for _, cached := range []bool{false, true} {
		settle(t, fmt.Sprintf("glob ** over 2100 levels (cache %v)", cached), func() {
			r, err := Glob(GlobOptions{Pattern: "**", Path: root, Cache: cached}, nil)
			mustDo(t, err)
			if n := len(r.Matches); n < want-1 || n > want+1 {
				t.Errorf("%d entries, want about %d", n, want)
			}
		})
	}
	settle(t, "grep over 2100 levels", func() {
		r, err := Grep(GrepOptions{Pattern: "needle", Path: root}, nil)
		mustDo(t, err)
		if r.FilesSearched != 0 {
			t.Errorf("grep: %+v", r)
		}
	})
}

// makeFlat creates n empty files named f000000... in dir with plain system
// calls (fast enough for 120k).
func makeFlat(t testing.TB, dir string, n int) {
	t.Helper()
	mustDo(t, os.MkdirAll(dir, 0o755))
	for i := range n {
		fd, err := syscall.Open(filepath.Join(dir, fmt.Sprintf("f%06d", i)), syscall.O_CREAT|syscall.O_WRONLY|syscall.O_CLOEXEC, 0o644)
		mustDo(t, err)
		syscall.Close(fd)
	}
}

// TestHostileHugeDirectory: one directory of 60k entries.
func TestHostileHugeDirectory(t *testing.T) {
	root := t.TempDir()
	makeFlat(t, filepath.Join(root, "big"), 60000)
	mkfiles(t, root, "big/zz_needle.txt")
	var got []string
	settle(t, "glob of a 60k-entry directory", func() { got = hostileGlob(t, root, "big/*", GlobOptions{}) })
	if len(got) != 60001 || got[0] != "big/f000000" || got[60000] != "big/zz_needle.txt" {
		t.Errorf("glob: %d entries", len(got))
	}
	settle(t, "fuzzyFind in a 60k-entry directory", func() {
		r, err := FuzzyFind(FuzzyFindOptions{Query: "zz_needle", Path: root})
		mustDo(t, err)
		if len(r.Matches) != 1 || r.Matches[0].Path != "big/zz_needle.txt" {
			t.Errorf("fuzzyFind: %+v", r.Matches)
		}
	})
	settle(t, "grep of a 60k-entry directory", func() {
		r, err := Grep(GrepOptions{Pattern: "needle", Path: root, Mode: ModeFilesWithMatches}, nil)
		mustDo(t, err)
		if r.FilesSearched != 60001 || len(r.Matches) != 1 {
			t.Errorf("grep: searched %d, %d matches", r.FilesSearched, len(r.Matches))
		}
	})
}

// TestHostileNames: names that are not UTF-8, 255 bytes long (the limit;
// 256 is refused by the file system) or hold newlines and other control
// characters.
func TestHostileNames(t *testing.T) {
	root := t.TempDir()
	long := strings.Repeat("n", 251) + ".txt"
	names := []string{"bad\xff\xfe.txt", long, "new\nline.txt", "tab\tand\rcr.txt", "\x01ctl.txt", "sp ace .txt",
		"dir\xc3/inner.txt", strings.Repeat("é", 125) + "x.txt"}
	mkfiles(t, root, names...)
	if err := os.WriteFile(filepath.Join(root, strings.Repeat("n", 256)), nil, 0o644); err == nil {
		t.Fatal("the file system took a 256-byte name")
	}
	shown := func(s string) string { return strings.ToValidUTF8(s, "\uFFFD") }
	var got []string
	settle(t, "glob **/*.txt over hostile names", func() { got = hostileGlob(t, root, "**/*.txt", GlobOptions{}) })
	var want []string
	for _, n := range names {
		want = append(want, shown(strings.ReplaceAll(n, "\xff\xfe", "\xff")))
	}
	// Each invalid byte becomes one U+FFFD.
	want[0] = "bad\uFFFD\uFFFD.txt"
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("glob:\n got %q\nwant %q", got, want)
	}
	settle(t, "grep over hostile names", func() {
		for _, cached := range []bool{false, true} {
			r, err := Grep(GrepOptions{Pattern: "needle", Path: root, Cache: cached, Mode: ModeCount}, nil)
			mustDo(t, err)
			if r.FilesSearched != len(names) || len(r.Matches) != len(names) {
				t.Errorf("grep cache=%v: searched %d, %d files matched, want %d", cached, r.FilesSearched, len(r.Matches), len(names))
			}
		}
	})
	settle(t, "fuzzyFind of a name with a newline", func() {
		r, err := FuzzyFind(FuzzyFindOptions{Query: "newline", Path: root})
		mustDo(t, err)
		if len(r.Matches) != 1 || r.Matches[0].Path != "new\nline.txt" {
			t.Errorf("fuzzyFind: %+v", r.Matches)
		}
	})
}

// TestHostileChurn: entries created and deleted while walks run. Every
// answer holds the stable files and nothing but stable and churned names.
func TestHostileChurn(t *testing.T) {
	root := t.TempDir()
	var stable []string
	for i := range 200 {
		stable = append(stable, fmt.Sprintf("s/%02d/stable%03d.txt", i%20, i))
	}
	mkfiles(t, root, stable...)
	var churned atomic.Int64
	for w := range 2 {
		inBackground(t, func(i int) {
			d := filepath.Join(root, "s", fmt.Sprintf("%02d", i%20), fmt.Sprintf("churn%d_%d", w, i%7))
			_ = os.MkdirAll(d, 0o755)
			_ = os.WriteFile(filepath.Join(d, "c.txt"), []byte("needle\n"), 0o644)
			_ = os.RemoveAll(d)
			churned.Add(1)
		})
	}
	isStable := map[string]bool{}
	for _, s := range stable {
		isStable[s] = true
	}
	deadline := time.Now().Add(2 * time.Second)
	runs := 0
	settle(t, "glob/grep/fuzzyFind during churn", func() {
		for time.Now().Before(deadline) {
			runs++
			got := hostileGlob(t, root, "**/*.txt", GlobOptions{})
			n := 0
			for _, p := range got {
				switch {
				case isStable[p]:
					n++
				case strings.Contains(p, "/churn") && strings.HasSuffix(p, "/c.txt"):
				default:
					t.Fatalf("glob reported %q", p)
				}
			}
			if n != len(stable) {
				t.Fatalf("glob saw %d of %d stable files", n, len(stable))
			}
			r, err := Grep(GrepOptions{Pattern: "needle in s", Path: root, Mode: ModeCount}, nil)
			mustDo(t, err)
			if r.TotalMatches != len(stable) {
				t.Fatalf("grep counted %d, want %d", r.TotalMatches, len(stable))
			}
			fz, err := FuzzyFind(FuzzyFindOptions{Query: "stable199", Path: root})
			mustDo(t, err)
			if len(fz.Matches) == 0 || fz.Matches[0].Path != "s/19/stable199.txt" {
				t.Fatalf("fuzzyFind: %+v", fz.Matches)
			}
		}
	})
	t.Logf("%d rounds against %d create/delete cycles", runs, churned.Load())
}

// TestHostileChangingFiles: files rewritten, grown and shrunk while grep
// reads them. Each count is one a reader could see: between the smallest
// and the largest content (a file caught mid-write shows a prefix).
func TestHostileChangingFiles(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "moving.txt")
	big := bytes.Repeat([]byte("needle\n"), 50000) // 350 kB
	mustDo(t, os.WriteFile(path, big, 0o644))
	over := filepath.Join(root, "grows_over_4MiB.txt")
	mustDo(t, os.WriteFile(over, []byte("needle\n"), 0o644))
	inBackground(t, func(i int) {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return
		}
		n := (i%10 + 1) * 5000 * 7
		_ = f.Truncate(int64(n)) // shrink or grow in place
		f.Close()
		if i%2 == 0 {
			_ = os.Truncate(over, maxFileSize+1)
		} else {
			_ = os.Truncate(over, 7)
		}
	})
	rounds := 0
	settle(t, "grep of files changing under it", func() {
		for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); rounds++ {
			r, err := Grep(GrepOptions{Pattern: "^needle$", Path: root, Mode: ModeCount}, nil)
			mustDo(t, err)
			for _, m := range r.Matches {
				c := *m.MatchCount
				switch m.Path {
				case "moving.txt":
					// Truncation to a longer length pads with NUL bytes
					// (binary: no count); otherwise up to 50000 lines.
					if c < 0 || c > 50000 {
						t.Fatalf("moving.txt: %d matches", c)
					}
				case "grows_over_4MiB.txt":
					if c != 1 {
						t.Fatalf("grows_over_4MiB.txt: %d matches", c)
					}
				default:
					t.Fatalf("unexpected %q", m.Path)
				}
			}
		}
	})
	t.Logf("%d grep rounds", rounds)
}

// TestHostileSizeBoundary: grep searches a file of exactly 4 MiB and skips
// (uncounted) one of 4 MiB + 1 byte, also in cached mode and as a single
// file.
func TestHostileSizeBoundary(t *testing.T) {
	root := t.TempDir()
	body := bytes.Repeat([]byte("x"), maxFileSize)
	copy(body[maxFileSize-8:], "\nneedle\n")
	mustDo(t, os.WriteFile(filepath.Join(root, "exact.txt"), body, 0o644))
	mustDo(t, os.WriteFile(filepath.Join(root, "over.txt"), append(body, 'x'), 0o644))
	for _, cached := range []bool{false, true} {
		settle(t, fmt.Sprintf("grep at the 4 MiB boundary (cache %v)", cached), func() {
			r, err := Grep(GrepOptions{Pattern: "needle", Path: root, Cache: cached}, nil)
			mustDo(t, err)
			if r.FilesSearched != 1 || len(r.Matches) != 1 || r.Matches[0].Path != "exact.txt" || r.Matches[0].LineNumber != 2 {
				t.Errorf("searched %d, matches %+v", r.FilesSearched, r.Matches)
			}
		})
	}
	for name, want := range map[string]int{"exact.txt": 1, "over.txt": 0} {
		r, err := Grep(GrepOptions{Pattern: "needle", Path: filepath.Join(root, name)}, nil)
		mustDo(t, err)
		if r.TotalMatches != want || r.FilesSearched != want {
			t.Errorf("%s as the path: %d matches, %d searched", name, r.TotalMatches, r.FilesSearched)
		}
	}
}

// TestHostileSpecialFiles: FIFOs (one with a writer attached and one
// without) and a listening socket are not entries and never block grep.
func TestHostileSpecialFiles(t *testing.T) {
	root := t.TempDir()
	mkfiles(t, root, "a.txt")
	mustDo(t, syscall.Mkfifo(filepath.Join(root, "fifo"), 0o644))
	mustDo(t, syscall.Mkfifo(filepath.Join(root, "fifo_open"), 0o644))
	// A writer that never writes: a blocking reader would wait forever.
	w, err := os.OpenFile(filepath.Join(root, "fifo_open"), os.O_RDWR, 0)
	mustDo(t, err)
	defer w.Close()
	l, err := net.Listen("unix", filepath.Join(root, "sock"))
	mustDo(t, err)
	defer l.Close()
	var got []string
	settle(t, "glob over FIFOs and a socket", func() { got = hostileGlob(t, root, "*", GlobOptions{}) })
	if !slices.Equal(got, []string{"a.txt"}) {
		t.Errorf("glob: %q", got)
	}
	for _, cached := range []bool{false, true} {
		settle(t, fmt.Sprintf("grep over FIFOs and a socket (cache %v)", cached), func() {
			r, err := Grep(GrepOptions{Pattern: "needle", Path: root, Cache: cached}, nil)
			mustDo(t, err)
			if r.FilesSearched != 1 || r.TotalMatches != 1 {
				t.Errorf("grep: %+v", r)
			}
		})
	}
	for _, p := range []string{"fifo_open", "sock"} {
		settle(t, "grep with the path "+p, func() {
			r, err := Grep(GrepOptions{Pattern: "needle", Path: filepath.Join(root, p)}, nil)
			mustDo(t, err)
			if r.FilesSearched != 0 {
				t.Errorf("%s: %+v", p, r)
			}
		})
	}
}

// TestHostileUnreadable: a directory and a file without permissions. Root
// ignores permission bits, so the calls run in a child process (this test
// binary, copied where an unprivileged user can execute it) with the
// credentials of nobody (uid/gid 65534): unreadable entries are skipped
// and the rest is answered.
func TestHostileUnreadable(t *testing.T) {
	if os.Getenv("FSCACHE_UNREADABLE_CHILD") != "" {
		unreadableChild(t, os.Getenv("FSCACHE_UNREADABLE_CHILD"))
		return
	}
	base, err := os.MkdirTemp("", "fscache-unreadable")
	mustDo(t, err)
	defer os.RemoveAll(base)
	mustDo(t, os.Chmod(base, 0o755))
	root := filepath.Join(base, "tree")
	mkfiles(t, root, "ok.txt", "locked/inside.txt", "sub/secret.txt", "sub/visible.txt")
	mustDo(t, os.Chmod(filepath.Join(root, "locked"), 0))
	mustDo(t, os.Chmod(filepath.Join(root, "sub/secret.txt"), 0))
	if os.Geteuid() != 0 {
		unreadableChild(t, root)
		return
	}
	exe, err := os.Executable()
	mustDo(t, err)
	bin := filepath.Join(base, "child.test")
	data, err := os.ReadFile(exe)
	mustDo(t, err)
	mustDo(t, os.WriteFile(bin, data, 0o755))
	cmd := exec.Command(bin, "-test.run=^TestHostileUnreadable$", "-test.v")
	cmd.Env = append(os.Environ(), "FSCACHE_UNREADABLE_CHILD="+root, "HOME=/nonexistent")
	cmd.Dir = base
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	t.Logf("child as uid 65534:\n%s", out)
	if err != nil {
		t.Fatalf("child failed: %v", err)
	}
	if !bytes.Contains(out, []byte("--- PASS: TestHostileUnreadable")) {
		t.Fatal("the child did not run the checks")
	}
}

func unreadableChild(t *testing.T, root string) {
	if _, err := os.ReadDir(filepath.Join(root, "locked")); err == nil {
		t.Fatal("locked/ is readable: permissions are not in force")
	}
	var got []string
	settle(t, "glob with an unreadable directory", func() { got = hostileGlob(t, root, "**", GlobOptions{}) })
	// The locked directory is listed (its parent is readable), its content
	// is not; the unreadable file is listed like any name.
	if want := []string{"locked", "ok.txt", "sub", "sub/secret.txt", "sub/visible.txt"}; !slices.Equal(got, want) {
		t.Errorf("glob: %q, want %q", got, want)
	}
	settle(t, "grep with unreadable entries", func() {
		for _, cached := range []bool{false, true} {
			r, err := Grep(GrepOptions{Pattern: "needle", Path: root, Cache: cached, Mode: ModeFilesWithMatches}, nil)
			mustDo(t, err)
			var paths []string
			for _, m := range r.Matches {
				paths = append(paths, m.Path)
			}
			if r.FilesSearched != 2 || !slices.Equal(paths, []string{"ok.txt", "sub/visible.txt"}) {
				t.Errorf("grep cache=%v: searched %d, %q", cached, r.FilesSearched, paths)
			}
		}
	})
	settle(t, "fuzzyFind with an unreadable directory", func() {
		r, err := FuzzyFind(FuzzyFindOptions{Query: "inside", Path: root})
		mustDo(t, err)
		if len(r.Matches) != 0 {
			t.Errorf("fuzzyFind: %+v", r.Matches)
		}
	})
	r, err := Grep(GrepOptions{Pattern: "needle", Path: filepath.Join(root, "sub/secret.txt")}, nil)
	mustDo(t, err)
	if r.FilesSearched != 0 || r.TotalMatches != 0 {
		t.Errorf("grep of the unreadable file itself: %+v", r)
	}
	// Searching inside the unreadable directory itself: an empty answer,
	// no error, as the reference (14.9.9, run as nobody) answers.
	locked := filepath.Join(root, "locked")
	g, err := Glob(GlobOptions{Pattern: "*", Path: locked}, nil)
	mustDo(t, err)
	gr, err := Grep(GrepOptions{Pattern: "needle", Path: locked}, nil)
	mustDo(t, err)
	fz, err := FuzzyFind(FuzzyFindOptions{Query: "inside", Path: locked})
	mustDo(t, err)
	if len(g.Matches)+len(gr.Matches)+gr.FilesSearched+len(fz.Matches) != 0 {
		t.Errorf("inside the unreadable directory: %+v %+v %+v", g, gr, fz)
	}
}

// TestHostileGlobPatterns runs hostile glob patterns through Glob over a
// small tree: each settles; over-nested braces get the invalid_glob error.
// Answers as the reference's (14.9.9) over the same tree, but for the last.
func TestHostileGlobPatterns(t *testing.T) {
	root := t.TempDir()
	mkfiles(t, root, "a", "b", strings.Repeat("a", 40), "d/top.txt")
	for _, c := range []struct {
		pattern string
		want    int    // matches
		err     string // message prefix
	}{
		{strings.Repeat("{a,a}", 40), 1, ""},
		{strings.Repeat("{a,b}", 2000), 0, ""},
		{strings.Repeat("{a,", 124) + "b" + strings.Repeat("}", 124), 2, ""},
		{strings.Repeat("{a,", 125) + "b" + strings.Repeat("}", 125), 0, "Invalid glob pattern: error parsing glob '"},
		{strings.Repeat("{", 10000), 0, ""},
		// A run of stars is one '*' (top-level names); the reference
		// fails here ("error building NFA").
		{strings.Repeat("*", 100000), 4, ""},
	} {
		settle(t, fmt.Sprintf("glob %.20q... (%d bytes)", c.pattern, len(c.pattern)), func() {
			r, err := Glob(GlobOptions{Pattern: c.pattern, Path: root}, nil)
			switch {
			case c.err != "":
				var e *Error
				if !errors.As(err, &e) || e.Code != CodeInvalidGlob || !strings.HasPrefix(e.Message, c.err) {
					t.Errorf("%.20q: got %v, want an invalid_glob error", c.pattern, err)
				}
			case err != nil:
				t.Errorf("%.20q: %v", c.pattern, err)
			case r.TotalMatches != c.want:
				t.Errorf("%.20q: %d matches, want %d", c.pattern, r.TotalMatches, c.want)
			}
		})
	}
}

// inBackground runs step(0), step(1), ... on a goroutine of its own until
// the test ends: its cleanup stops the goroutine and waits for it.
func inBackground(t *testing.T, step func(i int)) {
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			step(i)
		}
	}()
	t.Cleanup(func() {
		close(stop)
		<-done
	})
}
