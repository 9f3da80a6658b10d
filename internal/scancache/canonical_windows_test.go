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

// TestCanonicalUNC: a UNC path (\\server\share\...) keeps its server and
// share, '/'-separated, whether or not the share answers, so the roots and
// the invalidated paths under it compare as the drive paths do.
func TestCanonicalUNC(t *testing.T) {
	root := Canonical(`\\fscache-test-server\share\repo`)
	if root != "//fscache-test-server/share/repo" {
		t.Fatalf("Canonical of a UNC root = %q", root)
	}
	for _, in := range []string{`\\fscache-test-server\share\repo\src\a.go`, "//fscache-test-server/share/repo/src/a.go"} {
		if got := Canonical(in); got != root+"/src/a.go" || !within(got, root) {
			t.Errorf("Canonical(%q) = %q, not under %q", in, got, root)
		}
	}
	if within(Canonical(`\\fscache-test-server\share\repo2\a.go`), root) {
		t.Error("a sibling share directory is taken as under the root")
	}
}
