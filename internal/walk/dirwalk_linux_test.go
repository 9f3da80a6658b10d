package walk

import (
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestScanLargeDirectories checks Scan's own lister on directories whose
// listings take several getdents calls (names long enough to fill the
// buffer many times, while it grows from 4 KiB to 32 KiB), against Walk
// (fastwalk), with every option set.
func TestScanLargeDirectories(t *testing.T) {
	root := t.TempDir()
	long := strings.Repeat("n", 120)
	for d := 0; d < 3; d++ {
		dir := filepath.Join(root, "big"+string(rune('a'+d)))
		if err := os.MkdirAll(filepath.Join(dir, "sub", "deeper"), 0o755); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 1200; i++ {
			name := long + string(rune('a'+i%26)) + strings.Repeat("x", i%7) + "_" + strconv.Itoa(i)
			if i%100 == 0 {
				name = "." + name // hidden
			}
			if err := os.WriteFile(filepath.Join(dir, name), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("*_13\nsub/deeper/\n"), 0o644)
		os.WriteFile(filepath.Join(dir, "sub", "deeper", "f.txt"), nil, 0o644)
		os.Symlink("sub", filepath.Join(dir, "link"))
	}
	os.Mkdir(filepath.Join(root, ".git"), 0o755)
	for _, o := range optionSets(root) {
		got, err := Scan(o)
		if err != nil {
			t.Fatal(err)
		}
		want := walkSorted(t, o)
		if !sameEntries(got, want) {
			t.Errorf("%s: Scan has %d entries, Walk %d", optName(o), len(got), len(want))
		}
		if len(got) < 3000 && !o.Gitignore && o.Hidden {
			t.Errorf("%s: only %d entries", optName(o), len(got))
		}
	}
}

// TestDirentTypeUnknown checks the lstat fallback for file systems that
// leave d_type unknown.
func TestDirentTypeUnknown(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "f"), nil, 0o644)
	os.Mkdir(filepath.Join(dir, "d"), 0o755)
	os.Symlink("d", filepath.Join(dir, "l"))
	if err := syscall.Mkfifo(filepath.Join(dir, "p"), 0o644); err != nil {
		t.Fatal(err)
	}
	fd, err := openDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer syscall.Close(fd)
	for name, want := range map[string]fs.FileMode{"f": 0, "d": fs.ModeDir, "l": fs.ModeSymlink, "p": fs.ModeNamedPipe} {
		got, ok := direntType(syscall.DT_UNKNOWN, fd, []byte(name))
		if !ok || got != want {
			t.Errorf("%s: got %v %v, want %v", name, got, ok, want)
		}
	}
	if _, ok := direntType(syscall.DT_UNKNOWN, fd, []byte("gone")); ok {
		t.Error("a name that is gone was kept")
	}
}

// TestScanRootGone checks that a root that does not exist is an error, as
// with fastwalk, and not an empty scan.
func TestScanRootGone(t *testing.T) {
	root := filepath.Join(t.TempDir(), "gone")
	if _, err := Scan(Options{Root: root}); err == nil {
		t.Fatal("no error for a root that does not exist")
	}
}
