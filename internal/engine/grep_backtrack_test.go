package engine

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestGrepBacktrack: look-around and backreferences in every mode, and a
// pattern over its backtracking budget ends the call with a Regex error
// naming the limit and the file, without waiting for the other files.
func TestGrepBacktrack(t *testing.T) {
	root := t.TempDir()
	mustDo(t, os.WriteFile(filepath.Join(root, "a.txt"), []byte("foobar\nfoobaz\nhello hello\n"), 0o644))
	mustDo(t, os.WriteFile(filepath.Join(root, "b.txt"), []byte("foo bar\nbye bye\n"), 0o644))
	for _, c := range []struct {
		pattern string
		mode    GrepMode
		want    string
	}{
		{"foo(?=bar)", ModeContent, "a.txt:1:foobar"},
		{"foo(?!bar)", ModeContent, "a.txt:2:foobaz b.txt:1:foo bar"},
		{`(\w+) \1`, ModeContent, "a.txt:3:hello hello b.txt:2:bye bye"},
		{`(?<w>\w+) \k<w>`, ModeCount, "a.txt:0:1 b.txt:0:1"},
		{`(?<=o)b`, ModeFilesWithMatches, "a.txt:0:"},
	} {
		for _, cache := range []bool{false, true} {
			r, err := Grep(GrepOptions{Pattern: c.pattern, Path: root, Mode: c.mode, Cache: cache}, nil)
			mustDo(t, err)
			var got []string
			for _, m := range r.Matches {
				got = append(got, m.Path+":"+strconv.Itoa(m.LineNumber)+":"+m.Line)
				if m.MatchCount != nil {
					got[len(got)-1] += strconv.Itoa(*m.MatchCount)
				}
			}
			if s := strings.Join(got, " "); s != c.want {
				t.Errorf("%q mode %v cache %v: got %q, want %q", c.pattern, c.mode, cache, s, c.want)
			}
		}
	}

	big := filepath.Join(root, "big.txt")
	mustDo(t, os.WriteFile(big, append(bytes.Repeat([]byte("a"), 4<<20-2), " b"...), 0o644))
	for _, p := range []string{`(\w+) \1`, `(?=(a*)*c)`} {
		start := time.Now()
		_, err := Grep(GrepOptions{Pattern: p, Path: root}, nil)
		var e *Error
		if !errors.As(err, &e) || e.Code != CodeInvalidRegex || !strings.HasPrefix(e.Message, "Regex error: backtracking budget exceeded") ||
			!strings.Contains(e.Message, "1s") || !strings.HasSuffix(e.Message, "big.txt") {
			t.Errorf("%q: got %v", p, err)
		}
		t.Logf("%q: %v after %v", p, err, time.Since(start))
	}

	// A timeout stops a backtracking run before its budget does: the call
	// ends with the timeout, not the budget's error.
	start := time.Now()
	_, err := Grep(GrepOptions{Pattern: `(?=(a*)*c)`, Path: big, Cancel: Cancel{TimeoutMs: ptr64(30)}}, nil)
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeTimeout {
		t.Errorf("timeout: got %v", err)
	}
	t.Logf("timed out after %v", time.Since(start))
}

func ptr64(v int64) *int64 { return &v }
