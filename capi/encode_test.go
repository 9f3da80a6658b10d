package main

import (
	"encoding/json"
	"math"
	"strconv"
	"testing"

	"github.com/fscache/fscache/internal/engine"
	"github.com/fscache/fscache/internal/walk"
)

// The encoder writes ASCII only, and the JSON means the same string (with
// invalid UTF-8 bytes replaced by U+FFFD).
func TestAppendStringASCII(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"plain/path.go", "plain/path.go"},
		{"é/ü", "é/ü"},
		{"日本語.txt", "日本語.txt"},
		{"emoji 😀 x", "emoji 😀 x"},
		{"bad \xff\xfe byte", "bad \uFFFD\uFFFD byte"},
		{"quote \" back \\ tab \t nl \n ctl \x01", "quote \" back \\ tab \t nl \n ctl \x01"},
	} {
		b := appendString(nil, c.in)
		for _, x := range b {
			if x >= 0x80 {
				t.Fatalf("%q: non-ASCII byte in %q", c.in, b)
			}
		}
		var got string
		if err := json.Unmarshal(b, &got); err != nil || got != c.want {
			t.Errorf("%q: got %q (%v), want %q", c.in, got, err, c.want)
		}
	}
}

// TestAppendGlobMatchMtime: a glob match's mtime (ns in the engine) is
// written as the milliseconds pi-natives 18.2.3 reports, in a form that
// reads back (JSON.parse, ParseFloat) as the same float64; none before
// the epoch or when unknown.
func TestAppendGlobMatchMtime(t *testing.T) {
	for _, c := range []struct {
		ns   int64
		want string // "" for no mtime key
	}{
		{1767225600_005_100_001, "1767225600005.1"},
		{1767225600_999_999_999, "1767225601000"},
		{1700000001_234_567_800, "1700000001234.5679"},
		{1234567890_987_654_321, "1234567890987.6543"},
		{1, "0.000001"},
		{0, "0"},
		{math.MaxInt64, "9223372036854.775"},
		{-2, ""},
		{-1, ""},
	} {
		got := string(appendGlobMatch(nil, engine.GlobMatch{Path: "f", Type: walk.File, Mtime: c.ns, Size: 3}))
		want := `{"path":"f","fileType":1,"size":3}`
		if c.want != "" {
			want = `{"path":"f","fileType":1,"mtime":` + c.want + `,"size":3}`
			if v, err := strconv.ParseFloat(c.want, 64); err != nil || math.Float64bits(v) != math.Float64bits(walk.MtimeMs(c.ns)) {
				t.Errorf("%s does not read back as MtimeMs(%d) = %v", c.want, c.ns, walk.MtimeMs(c.ns))
			}
		}
		if got != want {
			t.Errorf("ns %d: got %s, want %s", c.ns, got, want)
		}
	}
}
