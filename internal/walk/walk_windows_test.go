package walk

import (
	"os"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
)

// TestHiddenAttribute: on Windows a file or directory with the hidden
// attribute is left out, as the ignore crate's walker does, by both
// walkers, unless hidden entries are shown.
func TestHiddenAttribute(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"shown", "secret"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, d, "f.txt"), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "shown", "h.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(root, "secret"), filepath.Join(root, "shown", "h.txt")} {
		u, err := syscall.UTF16PtrFromString(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := syscall.SetFileAttributes(u, syscall.FILE_ATTRIBUTE_HIDDEN); err != nil {
			t.Fatalf("set hidden on %s: %v", p, err)
		}
	}
	paths := func(hidden bool) []string {
		es, err := Scan(Options{Root: filepath.ToSlash(root), Hidden: hidden})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range es {
			out = append(out, e.Path)
		}
		return out
	}
	if got, want := paths(false), []string{"shown", "shown/f.txt"}; !slices.Equal(got, want) {
		t.Errorf("hidden off: %q, want %q", got, want)
	}
	if got, want := paths(true), []string{"secret", "secret/f.txt", "shown", "shown/f.txt", "shown/h.txt"}; !slices.Equal(got, want) {
		t.Errorf("hidden on: %q, want %q", got, want)
	}
}

// TestDriveRoot: a drive's root keeps its slash ("C:" alone would be the
// drive's working directory) and relative paths start after it.
func TestDriveRoot(t *testing.T) {
	for _, r := range []string{`C:\`, "C:/", "C://"} {
		if w := newWalker(Options{Root: r}); w.root != "C:/" || w.start != 3 {
			t.Errorf("root %s: %q %d", r, w.root, w.start)
		}
	}
}
