package glob

import (
	"strings"
	"testing"
)

// TestCandidateHelpers covers the prefix/suffix tests on a candidate split
// into directory and name.
func TestCandidateHelpers(t *testing.T) {
	type c struct {
		rel   string
		slash bool
		name  string
	}
	cands := []c{{"", false, "x.txt"}, {"a/b", true, "c.txt"}, {"", true, "c"}, {"/abs/p", true, "n"}}
	affixes := []string{"", "x", "x.txt", "a", "a/", "a/b", "a/b/", "a/b/c", "a/b/c.txt", "b/c.txt", "/c.txt",
		".txt", "/", "/abs", "/abs/p/n", "p/n", "zz/a/b/c.txt"}
	for _, cd := range cands {
		full := cd.name
		if cd.slash {
			full = cd.rel + "/" + cd.name
		}
		if got := candLen(cd.rel, cd.slash, cd.name); got != len(full) {
			t.Errorf("candLen(%q): %d", full, got)
		}
		for _, a := range affixes {
			if got, want := candHasPrefix(cd.rel, cd.slash, cd.name, a), strings.HasPrefix(full, a); got != want {
				t.Errorf("candHasPrefix(%q, %q) = %v", full, a, got)
			}
			if got, want := candHasSuffix(cd.rel, cd.slash, cd.name, a), strings.HasSuffix(full, a); got != want {
				t.Errorf("candHasSuffix(%q, %q) = %v", full, a, got)
			}
		}
	}
}
