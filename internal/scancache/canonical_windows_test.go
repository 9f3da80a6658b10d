package scancache

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCanonicalWindowsForms: on Windows a path given with '\', with '/',
// with a lower-case drive letter or in another case (the file system
// ignores case) names the same root as the walk's: '/'-separated, in the
// case on disk, so invalidateFsScanCache finds the partitions it concerns.
// A path that no longer exists keeps its name under its canonical parent.
func TestCanonicalWindowsForms(t *testing.T) {
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, "Sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	real, err := filepath.EvalSymlinks(root)
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.ToSlash(real)
	if !strings.Contains(want, ":/") || strings.Contains(want, `\`) {
		t.Fatalf("canonical root %q is not a '/'-separated drive path", want)
	}
	for _, in := range []string{
		root,
		filepath.ToSlash(root),
		strings.ToLower(root[:1]) + root[1:],
		strings.ToUpper(root),
		root + `\`,
	} {
		if got := Canonical(in); got != want {
			t.Errorf("Canonical(%q) = %q, want %q", in, got, want)
		}
	}
	for _, in := range []string{root + `\Sub`, root + `\sub`, filepath.ToSlash(root) + "/SUB"} {
		if got := Canonical(in); got != want+"/Sub" {
			t.Errorf("Canonical(%q) = %q, want %q", in, got, want+"/Sub")
		}
	}
	if got := Canonical(root + `\gone.txt`); got != want+"/gone.txt" {
		t.Errorf("Canonical of a missing file = %q, want %q", got, want+"/gone.txt")
	}
	if !within(Canonical(root+`\Sub\x.go`), want) || within(want+"x", want) {
		t.Error("within does not take the canonical forms")
	}
}
