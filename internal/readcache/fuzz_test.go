package readcache

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fscache/fscache/internal/diff"
)

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

// FuzzResolveRange: any suffix gives either an invalid_range error or a
// range of positive lines, and never a panic.
func FuzzResolveRange(f *testing.F) {
	for _, s := range []string{":0", ":5-3", ":1", ":1-1", ":99999", ":-1", ":1-", "::2", ":2:3", ":007-010", ":1-99999999999999999999"} {
		f.Add(s)
	}
	dir := f.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte("a\nb\n"), 0o644); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, suffix string) {
		r, err := Resolve(ResolveOptions{Path: "f.txt" + suffix, Cwd: dir})
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Code != CodeInvalidRange {
				t.Fatalf("%q: %v", suffix, err)
			}
			return
		}
		if r.Offset != nil && (*r.Offset < 1 || r.Limit == nil || *r.Limit < 1) {
			t.Fatalf("%q: offset %v limit %v", suffix, *r.Offset, r.Limit)
		}
	})
}

// FuzzRead: whatever the base and current contents and the range, a marker
// is served only for equal content, and a diff only when applying it to
// the base gives the current text.
func FuzzRead(f *testing.F) {
	f.Add("a\nb\nc\n", "a\nB\nc\n", 0, 0)
	f.Add("x\n", "x\n", 1, 1)
	f.Add("1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\n3\n4\nfive\n6\n7\n8\n9\n", 2, 2)
	f.Add("no newline", "no newline\n", 0, 0)
	f.Add("", "\n", 0, 0)
	f.Fuzz(func(t *testing.T, base, current string, offset, limit int) {
		if offset < 0 || offset > 50 || limit < 0 || limit > 50 {
			return
		}
		dir := t.TempDir()
		p := filepath.Join(dir, "f.txt")
		o := Options{ResolveOptions: ResolveOptions{Path: "f.txt", Cwd: dir}, StoreDir: filepath.Join(dir, "store")}
		if offset > 0 {
			o.Offset = &offset
		}
		if limit > 0 {
			o.Limit = &limit
		}
		if err := os.WriteFile(p, []byte(base), 0o644); err != nil {
			t.Fatal(err)
		}
		first, err := Read(o)
		if err != nil || first.Mode != ModeFull {
			return // past the end, or not text: nothing is trusted
		}
		if err := os.WriteFile(p, []byte(current), 0o644); err != nil {
			t.Fatal(err)
		}
		o.PathKey, o.Bases = first.PathKey, map[string]string{first.Meta.ScopeKey: first.Meta.ServedHash}
		r, err := Read(o)
		if err != nil {
			return
		}
		baseLines, curLines := strings.Split(base, "\n"), strings.Split(current, "\n")
		switch r.Mode {
		case ModeUnchanged:
			if base != current {
				t.Fatalf("unchanged for %q -> %q", base, current)
			}
		case ModeUnchangedRange:
			s, e := r.Meta.RangeStart, r.Meta.RangeEnd
			if e > len(baseLines) || strings.Join(baseLines[s-1:e], "\n") != strings.Join(curLines[s-1:e], "\n") {
				t.Fatalf("unchanged_range %d-%d for %q -> %q", s, e, base, current)
			}
		case ModeDiff:
			_, patch, _ := strings.Cut(r.Text, "\n")
			got, err := diff.Apply(base, patch)
			if err != nil || got != current {
				t.Fatalf("diff %q does not turn %q into %q: %v", r.Text, base, current, err)
			}
		}
	})
}
