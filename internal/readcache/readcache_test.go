package readcache

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// fixture is a working directory with a store beside it.
type fixture struct {
	t     *testing.T
	cwd   string
	store string
}

func newFixture(t *testing.T) *fixture {
	t.Helper()
	root := t.TempDir()
	cwd := filepath.Join(root, "work")
	if err := os.Mkdir(cwd, 0o755); err != nil {
		t.Fatal(err)
	}
	return &fixture{t: t, cwd: cwd, store: filepath.Join(root, "store")}
}

func (f *fixture) write(name, content string) string {
	f.t.Helper()
	p := filepath.Join(f.cwd, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		f.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		f.t.Fatal(err)
	}
	return p
}

func (f *fixture) read(path string, bases map[string]string, offset, limit *int) Result {
	f.t.Helper()
	r, err := f.tryRead(path, bases, offset, limit)
	if err != nil {
		f.t.Fatalf("Read(%q): %v", path, err)
	}
	return r
}

func (f *fixture) tryRead(path string, bases map[string]string, offset, limit *int) (Result, error) {
	o := Options{ResolveOptions: ResolveOptions{Path: path, Cwd: f.cwd, Offset: offset, Limit: limit}, StoreDir: f.store, Bases: bases}
	if bases != nil {
		r, err := Resolve(o.ResolveOptions)
		if err != nil {
			return Result{}, err
		}
		o.PathKey = r.PathKey
	}
	return Read(o)
}

func intp(n int) *int { return &n }

func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d of the file\n", i)
	}
	return b.String()
}

func TestFirstReadIsPiText(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "one\ntwo\nthree\n")
	r := f.read("a.txt", nil, nil, nil)
	if r.Mode != ModeFull || r.Text != "one\ntwo\nthree\n" || r.Truncation != nil {
		t.Fatalf("first read: %+v", r)
	}
	m := r.Meta
	if m == nil || m.V != 1 || m.ScopeKey != "full" || m.TotalLines != 4 || m.RangeStart != 1 || m.RangeEnd != 4 ||
		len(m.ServedHash) != 64 || m.BaseHash != "" || m.Mode != ModeFull || m.Bytes != len(r.Text) {
		t.Fatalf("meta: %+v", m)
	}
	if _, err := os.Stat(filepath.Join(f.store, "objects", objectName(m.ServedHash))); err != nil {
		t.Fatalf("object not stored: %v", err)
	}
}

func TestUnchangedAndDiff(t *testing.T) {
	f := newFixture(t)
	p := f.write("a.go", numbered(300))
	first := f.read("a.go", nil, nil, nil)
	bases := map[string]string{"full": first.Meta.ServedHash}
	again := f.read("a.go", bases, nil, nil)
	if again.Mode != ModeUnchanged || again.Text != "[readcache: unchanged, 301 lines]" || again.Meta.BaseHash != first.Meta.ServedHash {
		t.Fatalf("unchanged: %+v", again)
	}
	edited := strings.Replace(numbered(300), "line 150 of the file\n", "line 150 EDITED\n", 1)
	if err := os.WriteFile(p, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	d := f.read("a.go", bases, nil, nil)
	if d.Mode != ModeDiff {
		t.Fatalf("diff: %+v", d)
	}
	if !strings.HasPrefix(d.Text, "[readcache: 1 lines changed of 301]\n--- a/a.go\n+++ b/a.go\n@@ -147,7 +147,7 @@\n") ||
		!strings.Contains(d.Text, "\n-line 150 of the file\n+line 150 EDITED\n") {
		t.Fatalf("diff text:\n%s", d.Text)
	}
	if len(d.Text)*10 > len(edited) {
		t.Errorf("diff of %d bytes for a one-line edit of %d bytes", len(d.Text), len(edited))
	}
	if d.Meta.ServedHash == first.Meta.ServedHash || d.Meta.BaseHash != first.Meta.ServedHash {
		t.Errorf("diff meta: %+v", d.Meta)
	}
}

func TestDiffNotUsefulFallsBack(t *testing.T) {
	f := newFixture(t)
	p := f.write("a.txt", numbered(50))
	first := f.read("a.txt", nil, nil, nil)
	rewritten := strings.ReplaceAll(numbered(50), "line", "row")
	if err := os.WriteFile(p, []byte(rewritten), 0o644); err != nil {
		t.Fatal(err)
	}
	r := f.read("a.txt", map[string]string{"full": first.Meta.ServedHash}, nil, nil)
	if r.Mode != ModeFullFallback || r.Text != rewritten || r.Reason != "diff_not_useful" {
		t.Fatalf("rewrite: %+v", r)
	}
}

func TestBaseMissingFallsBack(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "new\n")
	r := f.read("a.txt", map[string]string{"full": strings.Repeat("ab", 32)}, nil, nil)
	if r.Mode != ModeFullFallback || r.Reason != "base_missing" || r.Text != "new\n" {
		t.Fatalf("missing base: %+v", r)
	}
}

func TestDamagedObjectIsMissing(t *testing.T) {
	f := newFixture(t)
	p := f.write("a.txt", numbered(40))
	first := f.read("a.txt", nil, nil, nil)
	obj := filepath.Join(f.store, "objects", objectName(first.Meta.ServedHash))
	if err := os.WriteFile(obj, []byte("tampered"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(numbered(41)), 0o644); err != nil {
		t.Fatal(err)
	}
	r := f.read("a.txt", map[string]string{"full": first.Meta.ServedHash}, nil, nil)
	if r.Mode != ModeFullFallback || r.Reason != "base_missing" {
		t.Fatalf("damaged object served as a base: %+v", r)
	}
}

func TestBasesOfAnotherPathIgnored(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "same\n")
	first := f.read("a.txt", nil, nil, nil)
	o := Options{ResolveOptions: ResolveOptions{Path: "a.txt", Cwd: f.cwd}, StoreDir: f.store,
		PathKey: "/elsewhere/a.txt", Bases: map[string]string{"full": first.Meta.ServedHash}}
	r, err := Read(o)
	if err != nil || r.Mode != ModeFull {
		t.Fatalf("bases of another pathKey were used: %+v %v", r, err)
	}
}

func TestRanges(t *testing.T) {
	f := newFixture(t)
	p := f.write("r.txt", numbered(100))
	first := f.read("r.txt", nil, intp(10), intp(5))
	if first.Mode != ModeFull || first.Meta.ScopeKey != "r:10:14" ||
		first.Text != strings.Join(strings.Split(numbered(100), "\n")[9:14], "\n")+"\n\n[87 more lines in file. Use offset=15 to continue.]" {
		t.Fatalf("range read: %+v", first)
	}
	bases := map[string]string{"r:10:14": first.Meta.ServedHash}
	if r := f.read("r.txt", bases, intp(10), intp(5)); r.Mode != ModeUnchangedRange || r.Text != "[readcache: unchanged in lines 10-14 of 101]" {
		t.Fatalf("same range: %+v", r)
	}
	// A change outside the range.
	lines := strings.Split(numbered(100), "\n")
	lines[50] = "changed far away"
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := f.read("r.txt", bases, intp(10), intp(5)); r.Mode != ModeUnchangedRange || r.Text != "[readcache: unchanged in lines 10-14; changes exist outside this range]" {
		t.Fatalf("changed elsewhere: %+v", r)
	}
	// A change inside it.
	lines[11] = "changed inside"
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := f.read("r.txt", bases, intp(10), intp(5)); r.Mode != ModeFullFallback || !strings.Contains(r.Text, "changed inside") {
		t.Fatalf("changed inside: %+v", r)
	}
	// An insertion before it shifts the lines: changed.
	shifted := "inserted\n" + numbered(100)
	if err := os.WriteFile(p, []byte(shifted), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := f.read("r.txt", bases, intp(10), intp(5)); r.Mode != ModeFullFallback {
		t.Fatalf("shifted: %+v", r)
	}
}

func TestRangeFromFullRead(t *testing.T) {
	f := newFixture(t)
	f.write("big.txt", numbered(3000)) // a full read shows lines 1-2000
	full := f.read("big.txt", nil, nil, nil)
	if full.Truncation == nil || !full.Truncation.Truncated || full.Meta.ScopeKey != "full" {
		t.Fatalf("full read of 3000 lines: %+v", full.Truncation)
	}
	bases := map[string]string{"full": full.Meta.ServedHash}
	if r := f.read("big.txt", bases, intp(100), intp(10)); r.Mode != ModeUnchangedRange {
		t.Fatalf("range the full read showed: %+v", r)
	}
	// Lines the full read never showed are not "unchanged".
	if r := f.read("big.txt", bases, intp(2500), intp(10)); r.Mode != ModeFull || !strings.HasPrefix(r.Text, "line 2500 of the file\n") {
		t.Fatalf("range past the truncation: %+v", r)
	}
}

func TestPiTextTruncation(t *testing.T) {
	f := newFixture(t)
	f.write("lines.txt", numbered(2500))
	r := f.read("lines.txt", nil, nil, nil)
	if !strings.HasSuffix(r.Text, "line 2000 of the file\n\n[Showing lines 1-2000 of 2501. Use offset=2001 to continue.]") ||
		*r.Truncation.TruncatedBy != "lines" || r.Truncation.OutputLines != 2000 || r.Truncation.TotalLines != 2501 {
		t.Fatalf("line truncation: %q %+v", r.Text[len(r.Text)-80:], r.Truncation)
	}
	long := strings.Repeat(strings.Repeat("x", 99)+"\n", 1000) // 100 KB
	f.write("bytes.txt", long)
	r = f.read("bytes.txt", nil, intp(3), nil)
	if !strings.HasSuffix(r.Text, "\n\n[Showing lines 3-514 of 1001 (50.0KB limit). Use offset=515 to continue.]") || *r.Truncation.TruncatedBy != "bytes" {
		t.Fatalf("byte truncation: %q", r.Text[len(r.Text)-90:])
	}
	f.write("wide.txt", strings.Repeat("y", 60*1024+300)+"\nshort\n")
	r = f.read("wide.txt", nil, nil, nil)
	if r.Text != "[Line 1 is 60.3KB, exceeds 50.0KB limit. Use bash: sed -n '1p' wide.txt | head -c 51200]" || !r.Truncation.FirstLineExceedsLimit {
		t.Fatalf("first line over the limit: %q", r.Text)
	}
	if _, err := f.tryRead("lines.txt", nil, intp(9999), nil); err == nil || err.Error() != "Offset 9999 is beyond end of file (2501 lines total)" {
		t.Fatalf("offset past the end: %v", err)
	}
}

func TestFormatSizeRoundsLikeJavaScript(t *testing.T) {
	for b, want := range map[int]string{0: "0B", 1023: "1023B", 1024: "1.0KB", 1280: "1.3KB", 1331: "1.3KB", 51200: "50.0KB",
		1024*1024 - 1: "1024.0KB", 1024 * 1024: "1.0MB", 1024*1024 + 1024*1024/4: "1.3MB"} {
		if got := formatSize(b); got != want {
			t.Errorf("formatSize(%d) = %q, want %q", b, got, want)
		}
	}
}

func TestBaselineCases(t *testing.T) {
	f := newFixture(t)
	f.write("bin.dat", "ok\xff\xfe\x00bad")
	f.write("img.png", "\x89PNG\r\n\x1a\nrest")
	f.write("gif.gif", "GIF89a text-like")
	f.write(".env.local", "SECRET=1\n")
	f.write("key.pem", "-----BEGIN-----\n")
	if err := os.Mkdir(filepath.Join(f.cwd, "dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	for path, reason := range map[string]string{"bin.dat": "invalid_utf8", "img.png": "image", "gif.gif": "image",
		".env.local": "excluded", "key.pem": "excluded", "dir": "directory", "missing.txt": "not_found"} {
		r := f.read(path, nil, nil, nil)
		if r.Mode != ModeBaseline || r.Reason != reason || r.Meta != nil || r.Text != "" {
			t.Errorf("%s: %+v, want baseline %s", path, r, reason)
		}
	}
	f.write("big.txt", strings.Repeat("z", 2000))
	o := Options{ResolveOptions: ResolveOptions{Path: "big.txt", Cwd: f.cwd}, StoreDir: f.store, MaxFileBytes: 1000}
	if r, err := Read(o); err != nil || r.Mode != ModeFull || r.Reason != "streamed" || r.Meta != nil || r.Text != strings.Repeat("z", 2000) {
		t.Errorf("too large: %+v %v, want it streamed (huge_test.go)", r, err)
	}
	if r := f.read("bin.dat", nil, nil, intp(0)); r.Mode != ModeBaseline || r.Reason != "unusual_range" {
		t.Errorf("limit 0: %+v", r)
	}
}

func TestSymlinkLoopAndSymlinkKey(t *testing.T) {
	f := newFixture(t)
	_ = os.Symlink("loop2", filepath.Join(f.cwd, "loop1"))
	_ = os.Symlink("loop1", filepath.Join(f.cwd, "loop2"))
	if r := f.read("loop1", nil, nil, nil); r.Mode != ModeBaseline {
		t.Fatalf("symlink loop: %+v", r)
	}
	target := f.write("real.txt", "x\n")
	_ = os.Symlink("real.txt", filepath.Join(f.cwd, "link.txt"))
	a := f.read("link.txt", nil, nil, nil)
	b := f.read("./real.txt", nil, nil, nil)
	real, _ := filepath.EvalSymlinks(target)
	if a.PathKey != real || b.PathKey != real {
		t.Fatalf("pathKeys %q %q, want %q", a.PathKey, b.PathKey, real)
	}
	// A secret behind an innocent name is still excluded.
	f.write(".env", "TOKEN=1\n")
	_ = os.Symlink(".env", filepath.Join(f.cwd, "settings.txt"))
	if r := f.read("settings.txt", nil, nil, nil); r.Mode != ModeBaseline || r.Reason != "excluded" {
		t.Fatalf("link to .env: %+v", r)
	}
}

func TestResolve(t *testing.T) {
	f := newFixture(t)
	t.Setenv("HOME", f.cwd)
	f.write("src/a.ts", numbered(30))
	f.write("odd:12", "a file whose name looks like a range\n")
	f.write("Screenshot 2024 at 10.00.00\u202FAM.png", "img")
	f.write("Capture d\u2019écran.txt", "curly\n")
	check := func(in string, wantPath string, off, lim int) {
		t.Helper()
		r, err := Resolve(ResolveOptions{Path: in, Cwd: f.cwd})
		if err != nil {
			t.Fatalf("Resolve(%q): %v", in, err)
		}
		if r.Path != wantPath || r.AbsPath == "" || (off == 0) != (r.Offset == nil) || (off != 0 && (*r.Offset != off || *r.Limit != lim)) {
			t.Fatalf("Resolve(%q) = %+v", in, r)
		}
	}
	check("src/a.ts:5-9", "src/a.ts", 5, 5)
	check("src/a.ts:7", "src/a.ts", 7, 1)
	check("@src/a.ts:1-30", "@src/a.ts", 1, 30)
	check("odd:12", "odd:12", 0, 0) // the file as written wins
	check("~/src/a.ts", "~/src/a.ts", 0, 0)
	check("src/a.ts:999", "src/a.ts", 999, 1) // past the end: Read reports pi's error
	if r, _ := Resolve(ResolveOptions{Path: "Screenshot 2024 at 10.00.00 AM.png", Cwd: f.cwd}); filepath.Base(r.AbsPath) != "Screenshot 2024 at 10.00.00\u202FAM.png" {
		t.Errorf("AM/PM variant: %q", r.AbsPath)
	}
	if r, _ := Resolve(ResolveOptions{Path: "Capture d'écran.txt", Cwd: f.cwd}); filepath.Base(r.AbsPath) != "Capture d\u2019écran.txt" {
		t.Errorf("curly quote variant: %q", r.AbsPath)
	}
	if r, _ := Resolve(ResolveOptions{Path: "src/a.ts", Cwd: f.cwd, Offset: intp(3)}); r.Offset == nil || *r.Offset != 3 || r.Limit != nil {
		t.Errorf("explicit offset: %+v", r)
	}
	for _, bad := range []string{"src/a.ts:0", "src/a.ts:5-3", "src/a.ts:0-2", "src/a.ts:99999999999999999999999"} {
		_, err := Resolve(ResolveOptions{Path: bad, Cwd: f.cwd})
		var e *Error
		if !errors.As(err, &e) || e.Code != CodeInvalidRange || !strings.Contains(e.Message, bad) {
			t.Errorf("Resolve(%q): %v, want an invalid_range error naming it", bad, err)
		}
	}
	if _, err := Resolve(ResolveOptions{Path: "a", Cwd: "relative"}); err == nil {
		t.Error("a relative cwd was accepted")
	}
}

func TestStoreRefusesUnsafeDirectories(t *testing.T) {
	root := t.TempDir()
	real := filepath.Join(root, "real")
	if err := os.Mkdir(real, 0o700); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "link")
	_ = os.Symlink(real, link)
	open := filepath.Join(root, "open")
	if err := os.Mkdir(open, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(open, 0o777); err != nil {
		t.Fatal(err)
	}
	for dir, want := range map[string]string{link: "is a symlink", open: "writable by group or others"} {
		_, err := StoreStats(dir)
		if err == nil || !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), want) {
			t.Errorf("StoreStats(%s): %v, want %q", dir, err, want)
		}
	}
	// A read with a refused store is served, without the store.
	f := newFixture(t)
	f.write("a.txt", "x\n")
	r, err := Read(Options{ResolveOptions: ResolveOptions{Path: "a.txt", Cwd: f.cwd}, StoreDir: link})
	if err != nil || r.Mode != ModeFull || !strings.Contains(r.StoreError, "symlink") {
		t.Errorf("read with a refused store: %+v %v", r, err)
	}
	// The default store is <cwd>/.pi/readcache, made 0700.
	if _, err := Read(Options{ResolveOptions: ResolveOptions{Path: "a.txt", Cwd: f.cwd}}); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(filepath.Join(f.cwd, ".pi", "readcache", "objects"))
	if err != nil || st.Mode().Perm() != 0o700 {
		t.Errorf("default store: %v %v", st, err)
	}
}

func TestStoreConcurrentWritersAndPrune(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "store")
	s, err := openStore(dir)
	if err != nil {
		t.Fatal(err)
	}
	content := []byte(numbered(2000))
	hash := sha(content)
	var wg sync.WaitGroup
	for i := 0; i < 16; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := s.put(hash, content); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	if got, ok := s.get(hash); !ok || got != string(content) {
		t.Fatal("object damaged by concurrent writers")
	}
	if ents, _ := os.ReadDir(filepath.Join(dir, "tmp")); len(ents) != 0 {
		t.Errorf("temporary files left: %d", len(ents))
	}
	// Prune: an old object goes by age, then the least recently used by size.
	now := time.Now()
	put := func(text string, age time.Duration) string {
		h := sha([]byte(text))
		if err := s.put(h, []byte(text)); err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, "objects", objectName(h))
		_ = os.Chtimes(p, now.Add(-age), now.Add(-age))
		return h
	}
	old := put("old\n", 30*24*time.Hour)
	a := put(strings.Repeat("a", 1000), 3*time.Hour)
	b := put(strings.Repeat("b", 1000), 2*time.Hour)
	s.prune(now, int64(len(content))+1500, 7*24*60*60)
	for h, want := range map[string]bool{old: false, a: false, b: true, hash: true} {
		if _, ok := s.get(h); ok != want {
			t.Errorf("after prune, object %s present = %v, want %v", h[:8], ok, want)
		}
	}
	info, err := StoreStats(dir)
	if err != nil || info.Objects != 2 || info.Bytes != int64(len(content))+1000 {
		t.Errorf("stats: %+v %v", info, err)
	}
}

func TestCancelled(t *testing.T) {
	f := newFixture(t)
	f.write("a.txt", "x\n")
	_, err := Read(Options{ResolveOptions: ResolveOptions{Path: "a.txt", Cwd: f.cwd}, StoreDir: f.store, Cancel: func() bool { return true }})
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeCancelled {
		t.Fatalf("cancelled read: %v", err)
	}
	if _, err := os.Stat(f.store); err == nil {
		if ents, _ := os.ReadDir(filepath.Join(f.store, "objects")); len(ents) != 0 {
			t.Error("a cancelled read wrote to the store")
		}
	}
}

// A large file gets a diff: 200k lines (about 16 MiB) with ten lines
// edited far apart is answered with a patch of a few KB.
func TestLargeFileGetsDiff(t *testing.T) {
	f := newFixture(t)
	var b strings.Builder
	for i := 1; i <= 200_000; i++ {
		fmt.Fprintf(&b, "%08d: the quick brown fox jumps over the lazy dog, line of a large generated file\n", i)
	}
	text := b.String()
	p := f.write("big.txt", text)
	first := f.read("big.txt", nil, nil, nil)
	lines := strings.Split(text, "\n")
	for i := 0; i < 10; i++ {
		lines[i*19_997+5] += " (edited)"
	}
	if err := os.WriteFile(p, []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	r := f.read("big.txt", map[string]string{"full": first.Meta.ServedHash}, nil, nil)
	if r.Mode != ModeDiff || !strings.HasPrefix(r.Text, "[readcache: 10 lines changed of 200001]\n") || len(r.Text) > 8<<10 {
		t.Fatalf("%d bytes of text (%d MiB): mode %s, %d bytes: %.200s", len(text), len(text)>>20, r.Mode, len(r.Text), r.Text)
	}
}

// TestSecretsNeverStored: every default exclude (the seed's four, the peer
// pi-readcache's list, anything under a .ssh directory), read twice each
// with the store at its default place (<cwd>/.pi/readcache), is baseline
// "excluded", and no object of the store holds its text, while an
// ordinary file read beside them is stored. The name as written and the
// real path both count: an innocent name linking into .ssh is excluded.
func TestSecretsNeverStored(t *testing.T) {
	f := newFixture(t)
	secrets := []string{"cert.pfx", "server.crt", "ca.cer", "ca.der", "key.pk8", "id_rsa", "id_ed25519",
		"id_ecdsa", "id_dsa", ".npmrc", ".netrc", "deploy/.ssh/id_rsa", "deploy/.ssh/config", "home/.ssh/keys/work",
		".env", ".env.production", "tls.pem", "tls.key", "bundle.p12"}
	texts := map[string]string{}
	for i, name := range secrets {
		texts[name] = fmt.Sprintf("SECRET-%02d-%s\nsecond line\n", i, name)
		f.write(name, texts[name])
	}
	if err := os.Symlink(filepath.Join(f.cwd, "deploy/.ssh/config"), filepath.Join(f.cwd, "notes.txt")); err != nil {
		t.Fatal(err)
	}
	f.write("plain.txt", "PLAIN-TEXT-STORED\n")
	read := func(name string) Result {
		t.Helper()
		r, err := Read(Options{ResolveOptions: ResolveOptions{Path: name, Cwd: f.cwd}})
		if err != nil {
			t.Fatalf("Read(%q): %v", name, err)
		}
		return r
	}
	for round := 0; round < 2; round++ {
		for _, name := range append(slices.Clone(secrets), "notes.txt") {
			if r := read(name); r.Mode != ModeBaseline || r.Reason != "excluded" || r.Meta != nil || r.Text != "" {
				t.Errorf("%s (read %d): mode %s reason %q, want baseline excluded", name, round+1, r.Mode, r.Reason)
			}
		}
		if r := read("plain.txt"); r.Mode != ModeFull || r.StoreError != "" {
			t.Fatalf("plain.txt: %+v", r)
		}
	}
	objects := filepath.Join(f.cwd, ".pi", "readcache", "objects")
	var stored []string
	err := filepath.WalkDir(filepath.Join(f.cwd, ".pi", "readcache"), func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		stored = append(stored, string(b))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(stored, func(s string) bool { return strings.Contains(s, "PLAIN-TEXT-STORED") }) {
		t.Fatalf("the ordinary file is not in %s: the store was not where the test looks", objects)
	}
	for name, text := range texts {
		for _, s := range stored {
			if strings.Contains(s, strings.SplitN(text, "\n", 2)[0]) {
				t.Errorf("%s's text is in the store", name)
			}
		}
	}
	// An explicit empty list excludes nothing (the defaults are only defaults).
	if r, err := Read(Options{ResolveOptions: ResolveOptions{Path: "id_rsa", Cwd: f.cwd}, NoStore: true, Exclude: []string{}}); err != nil || r.Mode != ModeFull {
		t.Fatalf("Exclude []: %+v %v", r, err)
	}
}

func TestExcludeDirectoryPattern(t *testing.T) {
	for _, c := range []struct {
		pats      []string
		abs, real string
		want      bool
	}{
		{[]string{".ssh/"}, "/h/.ssh/id", "/h/.ssh/id", true},
		{[]string{".ssh/"}, "/h/.ssh/a/b/c.txt", "/h/.ssh/a/b/c.txt", true},
		{[]string{".ssh/"}, "/h/w/notes.txt", "/h/.ssh/config", true}, // the real path
		{[]string{".ssh/"}, "/h/w/.ssh", "/h/w/.ssh", false},          // a file named .ssh is not under one
		{[]string{".ssh/"}, "/h/w/x.ssh/id", "/h/w/x.ssh/id", false},
		{[]string{"sec*/"}, "/h/secrets/a.txt", "/h/secrets/a.txt", true},
		{[]string{"*.crt"}, "/h/a.crt", "/h/a.crt", true},
		{nil, "/h/w/.netrc", "/h/w/.netrc", true},
		{nil, "/h/w/main.go", "/h/w/main.go", false},
	} {
		if got := excluded(c.pats, c.abs, c.real); got != c.want {
			t.Errorf("excluded(%q, %q, %q) = %v, want %v", c.pats, c.abs, c.real, got, c.want)
		}
	}
}
