package readcache

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// readLC reads with a LineCount (and the fixture's store).
func (f *fixture) readLC(lc, path string, bases map[string]string, offset, limit *int) Result {
	f.t.Helper()
	o := Options{ResolveOptions: ResolveOptions{Path: path, Cwd: f.cwd, Offset: offset, Limit: limit},
		StoreDir: f.store, Bases: bases, LineCount: lc}
	r, err := Resolve(o.ResolveOptions)
	if err != nil {
		f.t.Fatal(err)
	}
	o.PathKey = r.PathKey
	res, err := Read(o)
	if err != nil {
		f.t.Fatalf("Read(%q, lineCount %q): %v", path, lc, err)
	}
	return res
}

// TestLineCountLinesMarkers: with LineCountLines a file ending in a
// newline has no last empty line in the markers' and the diff header's
// totals (pi 1.x's count); split keeps pi 0.73's. The meta counts lines
// split either way (scope keys are split line numbers).
func TestLineCountLinesMarkers(t *testing.T) {
	for _, tc := range []struct {
		lc    string
		total string
	}{{"", "121"}, {LineCountSplit, "121"}, {LineCountLines, "120"}} {
		f := newFixture(t)
		p := f.write("a.txt", numbered(120))
		first := f.readLC(tc.lc, "a.txt", nil, nil, nil)
		if first.Meta.TotalLines != 121 {
			t.Errorf("%q: meta.totalLines %d, want 121", tc.lc, first.Meta.TotalLines)
		}
		bases := map[string]string{"full": first.Meta.ServedHash}
		if r := f.readLC(tc.lc, "a.txt", bases, nil, nil); r.Text != "[readcache: unchanged, "+tc.total+" lines]" {
			t.Errorf("%q: unchanged marker %q", tc.lc, r.Text)
		}
		if r := f.readLC(tc.lc, "a.txt", bases, intp(10), intp(5)); r.Text != "[readcache: unchanged in lines 10-14 of "+tc.total+"]" {
			t.Errorf("%q: range marker %q", tc.lc, r.Text)
		}
		if err := os.WriteFile(p, []byte(strings.Replace(numbered(120), "line 60 of", "line 60, edited, of", 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		if r := f.readLC(tc.lc, "a.txt", bases, nil, nil); r.Mode != ModeDiff || !strings.HasPrefix(r.Text, "[readcache: 1 lines changed of "+tc.total+"]\n") {
			t.Errorf("%q: diff %s %q", tc.lc, r.Mode, r.Text)
		}
	}
	// Empty content has no lines.
	f := newFixture(t)
	f.write("empty.txt", "")
	first := f.readLC(LineCountLines, "empty.txt", nil, nil, nil)
	if r := f.readLC(LineCountLines, "empty.txt", map[string]string{"full": first.Meta.ServedHash}, nil, nil); r.Text != "[readcache: unchanged, 0 lines]" {
		t.Errorf("empty file: %q", r.Text)
	}
}

// TestLineCountLinesTruncation: pi 1.x's details.truncation. A 3000-line
// file ending in a newline has totalLines 3000 (pi 0.73: 3001) while the
// notice still says "of 3001"; 2000 lines ending in a newline are not
// truncated (pi 0.73 cuts the last, empty, line with a notice).
func TestLineCountLinesTruncation(t *testing.T) {
	f := newFixture(t)
	f.write("big.txt", numbered(3000))
	for lc, want := range map[string]int{LineCountSplit: 3001, LineCountLines: 3000} {
		r := f.readLC(lc, "big.txt", nil, nil, nil)
		if r.Truncation == nil || r.Truncation.TotalLines != want || r.Truncation.OutputLines != 2000 ||
			!strings.HasSuffix(r.Text, "\n\n[Showing lines 1-2000 of 3001. Use offset=2001 to continue.]") {
			t.Errorf("%s: truncation %+v, text ends %q", lc, r.Truncation, r.Text[len(r.Text)-80:])
		}
	}
	content := numbered(2000)
	f.write("edge.txt", content)
	if r := f.readLC(LineCountLines, "edge.txt", nil, nil, nil); r.Text != content || r.Truncation != nil {
		t.Errorf("lines, 2000 lines and a newline: truncation %+v, %d bytes of %d", r.Truncation, len(r.Text), len(content))
	}
	if r := f.readLC(LineCountSplit, "edge.txt", nil, nil, nil); r.Truncation == nil || r.Truncation.TotalLines != 2001 ||
		!strings.HasSuffix(r.Text, "[Showing lines 1-2000 of 2001. Use offset=2001 to continue.]") {
		t.Errorf("split, 2000 lines and a newline: truncation %+v", r.Truncation)
	}
	// A range ending on an empty line: pi 1.x does not count it.
	f.write("blank.txt", "a\n\n\nb\n")
	if r := f.readLC(LineCountLines, "blank.txt", nil, intp(1), intp(3)); r.Truncation != nil ||
		r.Text != "a\n\n\n\n[2 more lines in file. Use offset=4 to continue.]" {
		t.Errorf("range of blank lines: %+v %q", r.Truncation, r.Text)
	}
}

func TestLineCountInvalid(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "a\n")
	_, err := Read(Options{ResolveOptions: ResolveOptions{Path: "a.txt", Cwd: f.cwd}, StoreDir: f.store, LineCount: "Lines"})
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeInvalidOptions || !strings.Contains(e.Message, `"Lines"`) {
		t.Fatalf("lineCount Lines: %v", err)
	}
}
