//go:build cgo

package main

import (
	"crypto/sha256"
	hexenc "encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"unsafe"
)

// rcEnvelope is a read cache document, decoded.
type rcEnvelope struct {
	OK *struct {
		Mode, Reason, PathKey, AbsPath, Path, Text, StoreError string
		Offset, Limit                                          *int
		Truncation                                             *struct {
			Truncated   bool
			TruncatedBy *string
			TotalLines  int
			OutputLines int
		}
		Meta *struct {
			V                                       int
			PathKey, ScopeKey, ServedHash, Mode     string
			BaseHash                                string
			TotalLines, RangeStart, RangeEnd, Bytes int
		}
		Dir     string
		Objects int
		Bytes   int64
	} `json:"ok"`
	Error *struct{ Code, Message string } `json:"error"`
}

func rcCall(t *testing.T, op string, v any) rcEnvelope {
	t.Helper()
	js, ok := v.(string)
	if !ok {
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		js = string(b)
	}
	doc := document(op, js)
	var env rcEnvelope
	if err := json.Unmarshal(doc, &env); err != nil || (env.OK == nil) == (env.Error == nil) {
		t.Fatalf("%s %s: %v: %s", op, js, err, doc)
	}
	return env
}

func wantOK(t *testing.T, what string, env rcEnvelope) {
	t.Helper()
	if env.Error != nil {
		t.Fatalf("%s: error %s: %s", what, env.Error.Code, env.Error.Message)
	}
}

func wantErr(t *testing.T, what string, env rcEnvelope, code, msgPrefix string) {
	t.Helper()
	if env.Error == nil || env.Error.Code != code || !strings.HasPrefix(env.Error.Message, msgPrefix) {
		t.Errorf("%s: got %+v, want error %s %q...", what, env.Error, code, msgPrefix)
	}
}

func sha(s string) string {
	h := sha256.Sum256([]byte(s))
	return hexenc.EncodeToString(h[:])
}

// TestReadCacheThroughABI drives fscache_read_cache* as a pi package would:
// a first read is pi's text, a reread against its hash is the marker, an
// edit gives a diff, ranges, and the errors with their codes.
func TestReadCacheThroughABI(t *testing.T) {
	dir := t.TempDir()
	store := filepath.Join(dir, "store")
	var b strings.Builder
	for i := range 300 {
		fmt.Fprintf(&b, "line %d of the file\n", i+1)
	}
	body := b.String()
	file := filepath.Join(dir, "f.txt")
	if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := map[string]any{"path": "f.txt", "cwd": dir, "storeDir": store}
	with := func(extra map[string]any) map[string]any {
		m := map[string]any{}
		for k, v := range opts {
			m[k] = v
		}
		for k, v := range extra {
			m[k] = v
		}
		return m
	}

	first := rcCall(t, "readCache", opts)
	wantOK(t, "first read", first)
	r := first.OK
	if r.Mode != "full" || r.Text != strings.TrimSuffix(body, "\n") && r.Text != body {
		t.Fatalf("first read: mode %q, text %.80q", r.Mode, r.Text)
	}
	if r.Meta == nil || r.Meta.V != 1 || r.Meta.ScopeKey != "full" || r.Meta.ServedHash != sha(body) ||
		r.Meta.TotalLines != 301 || r.Meta.RangeStart != 1 || r.Meta.RangeEnd != 301 || r.Meta.BaseHash != "" {
		t.Fatalf("first read: meta %+v", r.Meta)
	}
	if r.AbsPath != file || r.Path != "f.txt" || r.Offset != nil || r.Limit != nil {
		t.Errorf("first read: resolved %q %q %v %v", r.AbsPath, r.Path, r.Offset, r.Limit)
	}
	key := r.PathKey

	// The reread: the marker, against the hash given.
	again := rcCall(t, "readCache", with(map[string]any{"pathKey": key, "bases": map[string]string{"full": sha(body)}}))
	wantOK(t, "reread", again)
	if again.OK.Mode != "unchanged" || again.OK.Text != "[readcache: unchanged, 301 lines]" ||
		again.OK.Meta.BaseHash != sha(body) || again.OK.Meta.Mode != "unchanged" {
		t.Errorf("reread: %q %q %+v", again.OK.Mode, again.OK.Text, again.OK.Meta)
	}
	// Bases of another file are ignored.
	other := rcCall(t, "readCache", with(map[string]any{"pathKey": key + ".x", "bases": map[string]string{"full": sha(body)}}))
	wantOK(t, "other key", other)
	if other.OK.Mode != "full" {
		t.Errorf("bases of another pathKey: mode %q", other.OK.Mode)
	}

	// An edit of one line: a diff against the stored base.
	edited := strings.Replace(body, "line 150 of the file\n", "line 150 was edited\n", 1)
	if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	d := rcCall(t, "readCache", with(map[string]any{"pathKey": key, "bases": map[string]string{"full": sha(body)}}))
	wantOK(t, "diff", d)
	if d.OK.Mode != "diff" || !strings.HasPrefix(d.OK.Text, "[readcache: ") ||
		!strings.Contains(d.OK.Text, "\n-line 150 of the file\n+line 150 was edited\n") || len(d.OK.Text) > len(edited)/10 {
		t.Errorf("diff: mode %q, %d bytes: %q", d.OK.Mode, len(d.OK.Text), d.OK.Text)
	}
	if d.OK.Meta.ServedHash != sha(edited) || d.OK.Meta.BaseHash != sha(body) {
		t.Errorf("diff: meta %+v", d.OK.Meta)
	}

	// A range: pi's text for offset/limit, then its marker.
	rg := rcCall(t, "readCache", with(map[string]any{"offset": 2, "limit": 2}))
	wantOK(t, "range", rg)
	if rg.OK.Mode != "full" || rg.OK.Text != "line 2 of the file\nline 3 of the file\n\n[298 more lines in file. Use offset=4 to continue.]" ||
		rg.OK.Meta.ScopeKey != "r:2:3" || *rg.OK.Offset != 2 || *rg.OK.Limit != 2 {
		t.Errorf("range: %q %q %+v", rg.OK.Mode, rg.OK.Text, rg.OK.Meta)
	}
	rg2 := rcCall(t, "readCache", with(map[string]any{"path": "f.txt:2-3", "pathKey": key,
		"bases": map[string]string{"r:2:3": rg.OK.Meta.ServedHash}}))
	wantOK(t, "range again", rg2)
	if rg2.OK.Mode != "unchanged_range" || rg2.OK.Text != "[readcache: unchanged in lines 2-3 of 301]" || rg2.OK.Path != "f.txt" {
		t.Errorf("range again: %q %q %q", rg2.OK.Mode, rg2.OK.Text, rg2.OK.Path)
	}

	// objectHash: the first read's answer again, from the store, though
	// the file was edited since; a range of it; its errors.
	obj := rcCall(t, "readCache", with(map[string]any{"objectHash": sha(body), "pathKey": key, "bases": map[string]string{"full": sha(body)}}))
	wantOK(t, "objectHash", obj)
	if obj.OK.Mode != "full" || obj.OK.Text != r.Text || obj.OK.Meta == nil || *obj.OK.Meta != *r.Meta || obj.OK.PathKey != key {
		t.Errorf("objectHash: %q %.80q %+v", obj.OK.Mode, obj.OK.Text, obj.OK.Meta)
	}
	objRange := rcCall(t, "readCache", with(map[string]any{"path": "f.txt:150-151", "objectHash": sha(body)}))
	wantOK(t, "objectHash, range", objRange)
	if objRange.OK.Text != "line 150 of the file\nline 151 of the file\n\n[150 more lines in file. Use offset=152 to continue.]" ||
		objRange.OK.Meta.ScopeKey != "r:150:151" || objRange.OK.Meta.ServedHash != sha(body) {
		t.Errorf("objectHash, range: %q %+v", objRange.OK.Text, objRange.OK.Meta)
	}
	missing := strings.Repeat("ab", 32)
	wantErr(t, "objectHash missing", rcCall(t, "readCache", with(map[string]any{"objectHash": missing})), "object_missing",
		"readcache: object sha256-"+missing+".txt is missing or damaged in the read cache store "+store)
	wantErr(t, "objectHash malformed", rcCall(t, "readCache", with(map[string]any{"objectHash": "ABC"})), "invalid_options",
		`readcache: objectHash "ABC"`)
	wantErr(t, "objectHash not a string", rcCall(t, "readCache", with(map[string]any{"objectHash": 1})), "invalid_options",
		"ReadCacheOptions.objectHash")
	wantErr(t, "objectHash with noStore", rcCall(t, "readCache", with(map[string]any{"objectHash": sha(body), "noStore": true})),
		"invalid_options", "readcache: objectHash "+sha(body)+" with noStore")

	// Errors, with the engine's codes.
	wantErr(t, "bad range", rcCall(t, "readCache", with(map[string]any{"path": "f.txt:5-3"})), "invalid_range", "")
	wantErr(t, "offset past the end", rcCall(t, "readCache", with(map[string]any{"offset": 999})), "offset_beyond_eof",
		"Offset 999 is beyond end of file (301 lines total)")
	wantErr(t, "relative cwd", rcCall(t, "readCache", map[string]any{"path": "f.txt", "cwd": "rel"}), "invalid_options", "")
	wantErr(t, "no path", rcCall(t, "readCache", map[string]any{"cwd": dir}), "invalid_options", "ReadCacheOptions.path: missing")
	wantErr(t, "bases", rcCall(t, "readCache", map[string]any{"path": "f.txt", "bases": map[string]any{"full": 1}}),
		"invalid_options", `ReadCacheOptions.bases: "full": expected a string`)
	wantErr(t, "exclude", rcCall(t, "readCache", map[string]any{"path": "f.txt", "exclude": "*.txt"}),
		"invalid_options", "ReadCacheOptions.exclude: expected an array")
	wantErr(t, "timeout 0", rcCall(t, "readCache", with(map[string]any{"timeoutMs": 0})), "timeout", "Aborted: Timeout")
	if runtime.GOOS != "windows" {
		fifo := filepath.Join(dir, "fifo")
		if err := mkfifo(fifo); err != nil {
			t.Fatal(err)
		}
		wantErr(t, "FIFO", rcCall(t, "readCache", with(map[string]any{"path": "fifo"})), "not_regular", "Not a regular file: "+fifo)
	}

	// Excluded files and binaries: the caller's own read.
	if err := os.WriteFile(filepath.Join(dir, ".env"), []byte("SECRET=1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ex := rcCall(t, "readCache", with(map[string]any{"path": ".env"}))
	wantOK(t, "excluded", ex)
	if ex.OK.Mode != "baseline" || ex.OK.Reason != "excluded" || ex.OK.Text != "" || ex.OK.Meta != nil {
		t.Errorf(".env: %+v", *ex.OK)
	}
	in := rcCall(t, "readCache", with(map[string]any{"path": ".env", "exclude": []string{}}))
	wantOK(t, "exclude []", in)
	if in.OK.Mode != "full" || in.OK.Text != "SECRET=1\n" {
		t.Errorf(".env with exclude []: %q %q", in.OK.Mode, in.OK.Text)
	}

	// Resolve and the store's statistics.
	res := rcCall(t, "readCacheResolve", map[string]any{"path": "@f.txt:10-20", "cwd": dir})
	wantOK(t, "resolve", res)
	if res.OK.PathKey != key || res.OK.AbsPath != file || res.OK.Path != "@f.txt" || res.OK.Offset == nil || *res.OK.Offset != 10 ||
		res.OK.Limit == nil || *res.OK.Limit != 11 {
		t.Errorf("resolve: %+v", *res.OK)
	}
	wantErr(t, "resolve, bad range", rcCall(t, "readCacheResolve", map[string]any{"path": "f.txt:0", "cwd": dir}), "invalid_range", "")
	st := rcCall(t, "readCacheStore", map[string]any{"dir": store})
	wantOK(t, "store", st)
	if st.OK.Dir != store || st.OK.Objects < 2 || st.OK.Bytes < int64(len(body)+len(edited)) {
		t.Errorf("store: %+v", *st.OK)
	}
	wantErr(t, "store, no dir", rcCall(t, "readCacheStore", `{}`), "invalid_options", "ReadCacheStoreOptions.dir: missing")
	if runtime.GOOS != "windows" {
		open := filepath.Join(dir, "open")
		if err := os.Mkdir(open, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(open, 0o777); err != nil {
			t.Fatal(err)
		}
		wantErr(t, "store, group-writable", rcCall(t, "readCacheStore", map[string]any{"dir": open}), "store", "read cache store "+open)
		served := rcCall(t, "readCache", with(map[string]any{"storeDir": open}))
		wantOK(t, "read, refused store", served)
		if served.OK.Mode != "full" || !strings.Contains(served.OK.StoreError, open) {
			t.Errorf("read with a refused store: %q, storeError %q", served.OK.Mode, served.OK.StoreError)
		}
	}
}

// TestReadCacheCancelled: a raised flag ends a read with the engine's
// "cancelled" error, and nothing is written to the store.
func TestReadCacheCancelled(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte("a\nb\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	store := filepath.Join(dir, "store")
	js, _ := json.Marshal(map[string]any{"path": "f.txt", "cwd": dir, "storeDir": store})
	o, err := decodeReadCache(string(js), func() bool { return true })
	if err != nil {
		t.Fatal(err)
	}
	doc := take(unsafe.Pointer(result(spawn(func() ([]byte, error) { return readCache(o) })())))
	want := `{"error":{"code":"cancelled","message":"Operation aborted"}}`
	if string(doc) != want {
		t.Errorf("cancelled read: %s, want %s", doc, want)
	}
	if entries, _ := os.ReadDir(filepath.Join(store, "objects")); len(entries) != 0 {
		t.Errorf("a cancelled read stored %d objects", len(entries))
	}
}
