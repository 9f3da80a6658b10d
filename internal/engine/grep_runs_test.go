package engine

import (
	"reflect"
	"testing"

	"github.com/fscache/fscache/internal/walk"
)

// TestDirRuns checks that runs hold the files of exactly one directory,
// including neighbours that share a prefix ("a/b/x" then "a/bc"), the
// root's files, raw (non-UTF-8) names and the run size bound.
func TestDirRuns(t *testing.T) {
	paths := []string{"r1", "r2", "a/b/x", "a/b/y", "a/bc", "a/bd", "a/b0/z", "c/\xff/q", "c/\xff/r", "c/s"}
	var files []*walk.Entry
	for _, p := range paths {
		e := &walk.Entry{Path: p}
		if p != string([]rune(p)) {
			e.Path, e.RawPath = string([]rune(p)), p
		}
		files = append(files, e)
	}
	got := dirRuns(files)
	want := []dirRun{{0, 2, ""}, {2, 4, "a/b"}, {4, 6, "a"}, {6, 7, "a/b0"}, {7, 9, "c/\xff"}, {9, 10, "c"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("dirRuns = %+v\nwant %+v", got, want)
	}
	var many []*walk.Entry
	for range runMax*2 + 1 {
		many = append(many, &walk.Entry{Path: "d/f"})
	}
	if runs := dirRuns(many); len(runs) != 3 || runs[0].hi-runs[0].lo != runMax {
		t.Errorf("a directory of %d files gave runs %v", len(many), runs)
	}
}
