package readcache

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"testing"
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
