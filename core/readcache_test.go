package core

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/fscache/fscache/internal/readcache"
)

func sha256Hex(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

// wantCode checks that err is a *Error with the code (and a message that
// starts with prefix).
func wantCode(t *testing.T, what string, err error, code Code, prefix string) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) || e.Code != code || !strings.HasPrefix(e.Message, prefix) {
		t.Errorf("%s: error %v (%T), want *Error %s %q...", what, err, err, code, prefix)
	}
}

// rcFile writes a file of n numbered lines in a new directory.
func rcFile(t *testing.T, n int) (dir, file, body string) {
	t.Helper()
	dir = t.TempDir()
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "line %d\n", i+1)
	}
	body = b.String()
	file = filepath.Join(dir, "f.txt")
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, file, body
}

// TestReadCache: a first read is pi's text, a reread against its hash the
// marker, an edit a diff, a range its slice then its marker; the store
// holds both versions.
func TestReadCache(t *testing.T) {
	dir, file, body := rcFile(t, 250)
	store := filepath.Join(dir, "store")
	ctx := context.Background()
	o := ReadCacheOptions{Path: "f.txt", Cwd: dir, StoreDir: store}

	first, err := ReadCache(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	if first.Mode != ReadCacheFull || first.Text != body || first.AbsPath != file || first.Meta == nil ||
		first.Meta.ServedHash != sha256Hex(body) || first.Meta.ScopeKey != "full" || first.Meta.TotalLines != 251 {
		t.Fatalf("first read: %q %.40q %+v", first.Mode, first.Text, first.Meta)
	}

	o.PathKey, o.Bases = first.PathKey, map[string]string{"full": first.Meta.ServedHash}
	again, err := ReadCache(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	if again.Mode != ReadCacheUnchanged || again.Text != "[readcache: unchanged, 251 lines]" || again.Meta.BaseHash != first.Meta.ServedHash {
		t.Errorf("reread: %q %q %+v", again.Mode, again.Text, again.Meta)
	}

	edited := strings.Replace(body, "line 100\n", "line one hundred\n", 1)
	if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := ReadCache(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	if d.Mode != ReadCacheDiff || !strings.HasPrefix(d.Text, "[readcache: 1 lines changed of 251]\n") ||
		!strings.Contains(d.Text, "\n-line 100\n+line one hundred\n") || len(d.Text) > len(edited)/10 {
		t.Errorf("after an edit: %q, %d bytes: %q", d.Mode, len(d.Text), d.Text)
	}

	r, err := ReadCache(ctx, ReadCacheOptions{Path: "f.txt:3-4", Cwd: dir, StoreDir: store})
	if err != nil {
		t.Fatal(err)
	}
	if r.Mode != ReadCacheFull || r.Path != "f.txt" || r.Offset == nil || *r.Offset != 3 || r.Limit == nil || *r.Limit != 2 ||
		r.Text != "line 3\nline 4\n\n[247 more lines in file. Use offset=5 to continue.]" || r.Meta.ScopeKey != "r:3:4" {
		t.Errorf("range: %+v %q", r.ReadCacheResolved, r.Text)
	}
	rr, err := ReadCache(ctx, ReadCacheOptions{Path: "f.txt", Cwd: dir, Offset: Int(3), Limit: Int(2), StoreDir: store,
		PathKey: r.PathKey, Bases: map[string]string{"r:3:4": r.Meta.ServedHash}})
	if err != nil {
		t.Fatal(err)
	}
	if rr.Mode != ReadCacheUnchangedRange || rr.Text != "[readcache: unchanged in lines 3-4 of 251]" {
		t.Errorf("range again: %q %q", rr.Mode, rr.Text)
	}

	info, err := ReadCacheStore(ctx, store)
	if err != nil {
		t.Fatal(err)
	}
	if info.Dir != store || info.Objects != 2 || info.Bytes != int64(len(body)+len(edited)) {
		t.Errorf("store: %+v", info)
	}
}

// TestReadCacheErrors: the engine's codes reach *Error; a done context is
// CodeCancelled, TimeoutMs CodeTimeout; nothing is stored by either.
func TestReadCacheErrors(t *testing.T) {
	dir, _, _ := rcFile(t, 3)
	store := filepath.Join(dir, "store")
	ctx := context.Background()
	_, err := ReadCache(ctx, ReadCacheOptions{Path: "f.txt:5-3", Cwd: dir, NoStore: true})
	wantCode(t, "f.txt:5-3", err, CodeInvalidRange, "")
	_, err = ReadCache(ctx, ReadCacheOptions{Path: "f.txt", Cwd: dir, Offset: Int(10), NoStore: true})
	wantCode(t, "offset 10", err, CodeOffsetBeyondEOF, "Offset 10 is beyond end of file (4 lines total)")
	_, err = ReadCache(ctx, ReadCacheOptions{Path: "f.txt", Cwd: "relative"})
	wantCode(t, "relative cwd", err, CodeInvalidOptions, "")
	_, err = ReadCacheResolve(ctx, ReadCacheResolveOptions{Path: "f.txt:0", Cwd: dir})
	wantCode(t, "resolve f.txt:0", err, CodeInvalidRange, "")
	if runtime.GOOS != "windows" {
		if err := mkfifo(filepath.Join(dir, "fifo")); err != nil {
			t.Fatal(err)
		}
		_, err = ReadCache(ctx, ReadCacheOptions{Path: "fifo", Cwd: dir, NoStore: true})
		wantCode(t, "FIFO", err, CodeNotRegular, "Not a regular file: ")
		open := filepath.Join(dir, "open")
		if err := os.Mkdir(open, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(open, 0o777); err != nil {
			t.Fatal(err)
		}
		_, err = ReadCacheStore(ctx, open)
		wantCode(t, "group-writable store", err, CodeStore, "read cache store "+open)
	}

	done, cancelFn := context.WithCancel(ctx)
	cancelFn()
	_, err = ReadCache(done, ReadCacheOptions{Path: "f.txt", Cwd: dir, StoreDir: store})
	wantCode(t, "cancelled", err, CodeCancelled, "Operation aborted")
	_, err = ReadCache(ctx, ReadCacheOptions{Path: "f.txt", Cwd: dir, StoreDir: store, TimeoutMs: new(int64)})
	wantCode(t, "timeout 0", err, CodeTimeout, "Aborted: Timeout")
	if _, err := os.Stat(store); !os.IsNotExist(err) {
		t.Errorf("a cancelled read made the store: %v", err)
	}
	_, err = ReadCacheResolve(done, ReadCacheResolveOptions{Path: "f.txt", Cwd: dir})
	wantCode(t, "resolve, cancelled", err, CodeCancelled, "")
	_, err = ReadCacheStore(done, store)
	wantCode(t, "store, cancelled", err, CodeCancelled, "")
}

// TestReadCacheConvertKeepsEveryField: the public result holds every field
// of the engine's, with equal values, for a full read with truncation, a
// diff with a base, a baseline answer and a resolve.
func TestReadCacheConvertKeepsEveryField(t *testing.T) {
	dir, file, body := rcFile(t, 2500)
	store := filepath.Join(dir, "store")
	ctx := context.Background()
	first, err := ReadCache(ctx, ReadCacheOptions{Path: "f.txt", Cwd: dir, StoreDir: store})
	if err != nil {
		t.Fatal(err)
	}
	if first.Truncation == nil || first.Truncation.TruncatedBy == nil || *first.Truncation.TruncatedBy != "lines" {
		t.Fatalf("2500 lines: truncation %+v", first.Truncation)
	}
	eng, err := readcache.Read(readcache.Options{ResolveOptions: readcache.ResolveOptions{Path: "f.txt", Cwd: dir}, NoStore: true})
	if err != nil {
		t.Fatal(err)
	}
	same(t, "full", first, eng)

	if err := os.WriteFile(file, []byte(strings.Replace(body, "line 7\n", "line seven\n", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	bases := map[string]string{"full": first.Meta.ServedHash}
	o := ReadCacheOptions{Path: "f.txt", Cwd: dir, StoreDir: store, PathKey: first.PathKey, Bases: bases}
	pub, err := ReadCache(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	eng, err = readcache.Read(readcache.Options{ResolveOptions: readcache.ResolveOptions{Path: "f.txt", Cwd: dir},
		StoreDir: store, PathKey: first.PathKey, Bases: bases})
	if err != nil {
		t.Fatal(err)
	}
	if pub.Mode != ReadCacheDiff || pub.Meta.BaseHash == "" {
		t.Errorf("diff: %q %+v", pub.Mode, pub.Meta)
	}
	same(t, "diff", pub, eng)

	if err := os.WriteFile(filepath.Join(dir, "img.png"), []byte("\x89PNG\r\n\x1a\nrest"), 0o644); err != nil {
		t.Fatal(err)
	}
	pub, err = ReadCache(ctx, ReadCacheOptions{Path: "img.png", Cwd: dir, NoStore: true})
	if err != nil {
		t.Fatal(err)
	}
	eng, _ = readcache.Read(readcache.Options{ResolveOptions: readcache.ResolveOptions{Path: "img.png", Cwd: dir}, NoStore: true})
	if pub.Mode != ReadCacheBaseline || pub.Reason != "image" || pub.Meta != nil {
		t.Errorf("image: %+v", pub)
	}
	same(t, "baseline", pub, eng)

	res, err := ReadCacheResolve(ctx, ReadCacheResolveOptions{Path: "~/x:2-5", Cwd: dir})
	if err != nil {
		t.Fatal(err)
	}
	engRes, _ := readcache.Resolve(readcache.ResolveOptions{Path: "~/x:2-5", Cwd: dir})
	same(t, "resolve", res, engRes)
}

// TestReadCacheObjectHash: ObjectHash reaches the engine: the first read's
// answer again (every field, as the engine gives it) after the file
// changed; CodeObjectMissing for an object not in the store,
// CodeInvalidOptions for a malformed hash or NoStore with it.
func TestReadCacheObjectHash(t *testing.T) {
	dir, file, body := rcFile(t, 30)
	store := filepath.Join(dir, "store")
	ctx := context.Background()
	first, err := ReadCache(ctx, ReadCacheOptions{Path: "f.txt", Cwd: dir, StoreDir: store, Offset: Int(5), Limit: Int(3)})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte("changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := ReadCacheOptions{Path: "f.txt", Cwd: dir, StoreDir: store, Offset: Int(5), Limit: Int(3), ObjectHash: sha256Hex(body)}
	pub, err := ReadCache(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	if pub.Mode != ReadCacheFull || pub.Text != first.Text || *pub.Meta != *first.Meta || pub.Meta.ServedHash != sha256Hex(body) {
		t.Errorf("objectHash: %q %q %+v, want %q %+v", pub.Mode, pub.Text, pub.Meta, first.Text, first.Meta)
	}
	eng, err := readcache.Read(readcache.Options{ResolveOptions: readcache.ResolveOptions{Path: "f.txt", Cwd: dir, Offset: Int(5), Limit: Int(3)},
		StoreDir: store, ObjectHash: sha256Hex(body)})
	if err != nil {
		t.Fatal(err)
	}
	same(t, "objectHash", pub, eng)

	missing := strings.Repeat("0", 64)
	o.ObjectHash = missing
	_, err = ReadCache(ctx, o)
	wantCode(t, "objectHash missing", err, CodeObjectMissing, "readcache: object sha256-"+missing+".txt is missing")
	o.ObjectHash = "xyz"
	_, err = ReadCache(ctx, o)
	wantCode(t, "objectHash malformed", err, CodeInvalidOptions, `readcache: objectHash "xyz"`)
	o.ObjectHash, o.NoStore = sha256Hex(body), true
	_, err = ReadCache(ctx, o)
	wantCode(t, "objectHash with NoStore", err, CodeInvalidOptions, "readcache: objectHash")
}
