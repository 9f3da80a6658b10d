package readcache

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// readObj reads path with ObjectHash hash (and the fixture's store); the
// bases of hash itself are passed, to show they are ignored.
func (f *fixture) readObj(lc, path, hash string, offset, limit *int) (Result, error) {
	f.t.Helper()
	o := Options{ResolveOptions: ResolveOptions{Path: path, Cwd: f.cwd, Offset: offset, Limit: limit},
		StoreDir: f.store, LineCount: lc, ObjectHash: hash, Bases: map[string]string{"full": hash}}
	if r, err := Resolve(o.ResolveOptions); err == nil {
		o.PathKey = r.PathKey
	}
	return Read(o)
}

// wantReadError checks that err is an *Error with code whose message
// contains each of parts.
func wantReadError(t *testing.T, what string, err error, code string, parts ...string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) || e.Code != code {
		t.Errorf("%s: error %v (%T), want code %s", what, err, err, code)
		return
	}
	for _, p := range parts {
		if !strings.Contains(e.Message, p) {
			t.Errorf("%s: message %q does not name %q", what, e.Message, p)
		}
	}
}

// head is the start and end of a long text (for a failure's message).
func head(s string) string {
	if len(s) <= 200 {
		return s
	}
	return s[:100] + "..." + s[len(s)-100:]
}

func objectCount(t *testing.T, store string) int {
	t.Helper()
	info, err := StoreStats(store)
	if err != nil {
		t.Fatal(err)
	}
	return info.Objects
}

// TestObjectHashRendersStoredContent: a read with ObjectHash answers,
// result for result (text, truncation, meta, range, errors), as Read
// answered when the file held that content, after the file changed and
// after it was deleted; for the whole file, ranges (arguments and a path
// suffix), an offset past the end, truncation by lines (3000 lines), by
// bytes (over 50 KB) and a first line over the limit, in both line
// counts. Nothing is written to the store.
func TestObjectHashRendersStoredContent(t *testing.T) {
	contents := map[string]string{
		"small":      numbered(40),
		"no newline": "alpha\nbeta\ngamma",
		"3000 lines": numbered(3000),
		"over 50 KB": strings.Repeat(strings.Repeat("x", 99)+"\n", 600),
		"long line":  strings.Repeat("y", 60*1024) + "\nshort\n",
	}
	ranges := []struct {
		name          string
		path          string
		offset, limit *int
	}{
		{"whole", "f.txt", nil, nil},
		{"offset+limit", "f.txt", intp(3), intp(10)},
		{"offset", "f.txt", intp(2), nil},
		{"suffix", "f.txt:20-30", nil, nil},
		{"offset 2500", "f.txt", intp(2500), nil},
		{"past the end", "f.txt", intp(5000), nil},
	}
	for name, content := range contents {
		f := newFixture(t)
		p := f.write("f.txt", content)
		first := f.read("f.txt", nil, nil, nil)
		if first.Meta == nil {
			t.Fatalf("%s: no meta: %+v", name, first)
		}
		hash := first.Meta.ServedHash
		objects := objectCount(t, f.store)
		for _, lc := range []string{LineCountSplit, LineCountLines} {
			for _, rg := range ranges {
				what := name + ", " + lc + ", " + rg.name
				if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
				want, wantErr := Read(Options{ResolveOptions: ResolveOptions{Path: rg.path, Cwd: f.cwd, Offset: rg.offset, Limit: rg.limit},
					StoreDir: f.store, LineCount: lc})
				if wantErr == nil && (want.Mode != ModeFull || want.Meta == nil || want.Meta.ServedHash != hash) {
					t.Fatalf("%s: the file's own read: %+v", what, want)
				}
				for _, state := range []string{"changed", "deleted"} {
					if state == "changed" {
						if err := os.WriteFile(p, []byte("other content\n"), 0o644); err != nil {
							t.Fatal(err)
						}
					} else if err := os.Remove(p); err != nil {
						t.Fatal(err)
					}
					got, err := f.readObj(lc, rg.path, hash, rg.offset, rg.limit)
					if wantErr != nil {
						if err == nil || err.Error() != wantErr.Error() || !reflect.DeepEqual(err, wantErr) {
							t.Errorf("%s, file %s: error %v, want %v", what, state, err, wantErr)
						}
						continue
					}
					if err != nil {
						t.Errorf("%s, file %s: %v", what, state, err)
						continue
					}
					if !reflect.DeepEqual(got, want) {
						t.Errorf("%s, file %s:\n got %s %q %+v %+v\nwant %s %q %+v %+v", what, state,
							got.Mode, head(got.Text), got.Resolved, got.Meta, want.Mode, head(want.Text), want.Resolved, want.Meta)
					}
				}
			}
		}
		if n := objectCount(t, f.store); n != objects {
			t.Errorf("%s: %d objects after the objectHash reads, want %d (nothing written)", name, n, objects)
		}
	}
}

// TestObjectHashTruncationCases: the contents above are truncated as
// meant (a test of the test's own fixtures).
func TestObjectHashTruncationCases(t *testing.T) {
	f := newFixture(t)
	f.write("f.txt", numbered(3000))
	hash := f.read("f.txt", nil, nil, nil).Meta.ServedHash
	if err := os.Remove(filepath.Join(f.cwd, "f.txt")); err != nil {
		t.Fatal(err)
	}
	for _, lc := range []string{LineCountSplit, LineCountLines} {
		r, err := f.readObj(lc, "f.txt", hash, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if r.Mode != ModeFull || r.Truncation == nil || *r.Truncation.TruncatedBy != "lines" ||
			!strings.HasSuffix(r.Text, "\n\n[Showing lines 1-2000 of 3001. Use offset=2001 to continue.]") ||
			r.Meta.ServedHash != hash || r.Meta.TotalLines != 3001 || r.Meta.ScopeKey != "full" || r.Meta.BaseHash != "" {
			t.Errorf("%s: %q %+v %+v", lc, r.Text[max(0, len(r.Text)-80):], r.Truncation, r.Meta)
		}
		wantTotal := map[string]int{LineCountSplit: 3001, LineCountLines: 3000}[lc]
		if r.Truncation.TotalLines != wantTotal {
			t.Errorf("%s: truncation.totalLines %d, want %d", lc, r.Truncation.TotalLines, wantTotal)
		}
	}
}

// TestObjectHashErrors: a missing or damaged object is CodeObjectMissing
// naming the hash and the store; a malformed hash and NoStore with it
// CodeInvalidOptions; a refused store its CodeStore error; an excluded
// path is baseline.
func TestObjectHashErrors(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", numbered(10))
	hash := f.read("a.txt", nil, nil, nil).Meta.ServedHash

	missing := strings.Repeat("0", 64)
	_, err := f.readObj("", "a.txt", missing, nil, nil)
	wantReadError(t, "missing object", err, CodeObjectMissing, objectName(missing), f.store)

	obj := filepath.Join(f.store, "objects", objectName(hash))
	if err := os.WriteFile(obj, []byte("tampered\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = f.readObj("", "a.txt", hash, nil, nil)
	wantReadError(t, "damaged object", err, CodeObjectMissing, objectName(hash), f.store)
	if _, err := os.Lstat(obj); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the damaged object was kept: %v", err)
	}

	for _, bad := range []string{"abc", strings.Repeat("A", 64), strings.Repeat("0", 63), strings.Repeat("0", 65), strings.Repeat("g", 64)} {
		_, err := f.readObj("", "a.txt", bad, nil, nil)
		wantReadError(t, "hash "+bad, err, CodeInvalidOptions, "objectHash", bad)
	}

	_, err = Read(Options{ResolveOptions: ResolveOptions{Path: "a.txt", Cwd: f.cwd}, ObjectHash: hash, NoStore: true})
	wantReadError(t, "with noStore", err, CodeInvalidOptions, "objectHash", "noStore")

	real := filepath.Join(t.TempDir(), "real")
	if err := os.Mkdir(real, 0o700); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	_, err = Read(Options{ResolveOptions: ResolveOptions{Path: "a.txt", Cwd: f.cwd}, ObjectHash: hash, StoreDir: link})
	wantReadError(t, "refused store", err, CodeStore, link, "symlink")

	// An excluded name is the caller's own read, as without ObjectHash.
	r, err := f.readObj("", ".env", hash, nil, nil)
	if err != nil || r.Mode != ModeBaseline || r.Reason != "excluded" {
		t.Errorf("excluded: %+v %v", r, err)
	}
}

// TestObjectHashDefaultStore: without StoreDir the object is looked up in
// <cwd>/.pi/readcache, where a read stored it.
func TestObjectHashDefaultStore(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "one\ntwo\n")
	first, err := Read(Options{ResolveOptions: ResolveOptions{Path: "a.txt", Cwd: f.cwd}})
	if err != nil {
		t.Fatal(err)
	}
	f.write("a.txt", "three\n")
	r, err := Read(Options{ResolveOptions: ResolveOptions{Path: "a.txt", Cwd: f.cwd}, ObjectHash: first.Meta.ServedHash})
	if err != nil || !reflect.DeepEqual(r, first) {
		t.Errorf("default store: %+v %v, want %+v", r, err, first)
	}
}
