//go:build linux

package watch

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestFilesThroughAnotherName: a watch of a file reports a write, a
// chmod and a utimes made through another hard link of it, in a directory
// nobody watches, at the next Drain; both names share one descriptor.
func TestFilesThroughAnotherName(t *testing.T) {
	f, err := NewFiles()
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	a, b := t.TempDir(), t.TempDir()
	name, other := filepath.Join(a, "f.txt"), filepath.Join(b, "f.txt")
	if err := os.WriteFile(name, []byte("one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(name, other); err != nil {
		t.Fatal(err)
	}
	wd, err := f.Add(name)
	if err != nil {
		t.Fatal(err)
	}
	if wd2, err := f.Add(other); err != nil || wd2 != wd {
		t.Fatalf("the other name: %d %v, want %d", wd2, err, wd)
	}
	if wds, over, err := f.Drain(); len(wds) != 0 || over || err != nil {
		t.Fatalf("nothing happened yet: %v %v %v", wds, over, err)
	}
	for what, change := range map[string]func() error{
		"write": func() error { return os.WriteFile(other, []byte("two\n"), 0o644) },
		"chmod": func() error { return os.Chmod(other, 0o600) },
		"utimes": func() error {
			old := time.Now().Add(-time.Hour)
			return os.Chtimes(other, old, old)
		},
	} {
		if err := change(); err != nil {
			t.Fatal(err)
		}
		wds, over, err := f.Drain()
		if over || err != nil || !slices.Contains(wds, wd) {
			t.Fatalf("%s through the other name: %v %v %v", what, wds, over, err)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := f.Add(name); err == nil {
		t.Fatal("Add after Close")
	}
}
