package idxstore

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strings"
	"testing"
)

// TestMain runs a helper (lock_test.go) instead of the tests when the
// test binary is started as one.
func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) != "" {
		os.Exit(runHelper())
	}
	os.Exit(m.Run())
}

// skipOnWindows skips a test of unix permissions and ownership, which
// the package does not check on Windows.
func skipOnWindows(t *testing.T) {
	t.Helper()
	if runtime.GOOS == "windows" {
		t.Skip("unix permissions and ownership: not checked on Windows (ACLs are not checked)")
	}
}

// openStore opens a store in a new temporary directory.
func openStore(t *testing.T) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "store"))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// symlink makes link a symbolic link to target, or skips the test when
// the system cannot make one (Windows without the privilege) or does not
// report it as one (wine 8 makes a Unix link to the Windows path, which
// Lstat follows and does not find).
func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Skipf("cannot make a symbolic link here: %v", err)
	}
	fi, err := os.Lstat(link)
	if err != nil {
		t.Skipf("the system does not report %s as a symbolic link (Lstat: %v)", link, err)
	}
	if fi.Mode()&fs.ModeSymlink == 0 {
		t.Skipf("the system does not report %s as a symbolic link (Lstat: mode %v)", link, fi.Mode())
	}
}

// listDir returns the sorted names in the store's directory.
func listDir(t *testing.T, s *Store) []string {
	t.Helper()
	ents, err := os.ReadDir(s.dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	sort.Strings(names)
	return names
}

// publish writes content as the published index name.
func publish(t *testing.T, s *Store, name, content string) {
	t.Helper()
	p, err := s.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.File().WriteString(content); err != nil {
		p.Abort()
		t.Fatal(err)
	}
	if err := p.Publish(); err != nil {
		t.Fatal(err)
	}
}

// readIndex returns the content of the published index name.
func readIndex(t *testing.T, s *Store, name string) string {
	t.Helper()
	f, err := s.OpenIndex(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	b, err := io.ReadAll(f)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestDirFromEnv(t *testing.T) {
	d := t.TempDir()
	t.Setenv(EnvDir, d+string(filepath.Separator)+"x"+string(filepath.Separator)+"..")
	got, err := Dir()
	if err != nil {
		t.Fatal(err)
	}
	if got != d {
		t.Errorf("Dir() = %q, want %q (cleaned)", got, d)
	}
}

func TestDirRelativeEnvRefused(t *testing.T) {
	t.Setenv(EnvDir, filepath.Join("relative", "dir"))
	got, err := Dir()
	if err == nil {
		t.Fatalf("Dir() = %q, want an error for a relative %s", got, EnvDir)
	}
	if !strings.Contains(err.Error(), EnvDir) || !strings.Contains(err.Error(), "absolute") {
		t.Errorf("error %q should name %s and say it is not absolute", err, EnvDir)
	}
}

func TestDirDefault(t *testing.T) {
	t.Setenv(EnvDir, "")
	os.Unsetenv(EnvDir) // restored by t.Setenv's cleanup
	if runtime.GOOS == "linux" {
		t.Setenv("XDG_CACHE_HOME", filepath.Join(t.TempDir(), "xdg"))
	}
	want, werr := os.UserCacheDir()
	got, err := Dir()
	if werr != nil {
		if err == nil {
			t.Fatalf("Dir() = %q, want an error (os.UserCacheDir: %v)", got, werr)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if want = filepath.Join(want, "fscache"); got != want {
		t.Errorf("Dir() = %q, want %q", got, want)
	}
	if runtime.GOOS == "linux" && got != filepath.Join(os.Getenv("XDG_CACHE_HOME"), "fscache") {
		t.Errorf("Dir() = %q, want it in $XDG_CACHE_HOME", got)
	}
}

func TestDirEmptyEnvIsUnset(t *testing.T) {
	t.Setenv(EnvDir, "")
	if _, werr := os.UserCacheDir(); werr != nil {
		t.Skipf("no user cache directory here: %v", werr)
	}
	if got, err := Dir(); err != nil || !strings.HasSuffix(got, "fscache") {
		t.Errorf("Dir() with %s empty = %q, %v; want the user cache directory's", EnvDir, got, err)
	}
}

func TestOpenRelativeRefused(t *testing.T) {
	if _, err := Open("relative"); err == nil || !strings.Contains(err.Error(), "absolute") {
		t.Errorf("Open(relative) error = %v, want one saying it is not absolute", err)
	}
}

func TestOpenCreates(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b")
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(dir, versionDir); s.dir != want {
		t.Errorf("store directory %q, want %q", s.dir, want)
	}
	for _, d := range []string{dir, s.dir} {
		fi, err := os.Lstat(d)
		if err != nil {
			t.Fatal(err)
		}
		if !fi.IsDir() {
			t.Errorf("%s: not a directory", d)
		}
	}
	// Opening again (another process) finds them as they are.
	if _, err := Open(dir); err != nil {
		t.Errorf("second Open: %v", err)
	}
}

func TestOpenCreatesPrivate(t *testing.T) {
	skipOnWindows(t)
	dir := filepath.Join(t.TempDir(), "store")
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{dir, s.dir} {
		fi, err := os.Stat(d)
		if err != nil {
			t.Fatal(err)
		}
		// 0700; the umask can only take bits away.
		if perm := fi.Mode().Perm(); perm&^0o700 != 0 {
			t.Errorf("%s: mode %v, want 0700", d, fi.Mode())
		}
	}
}

func TestOpenKeepsExistingParentMode(t *testing.T) {
	skipOnWindows(t)
	parent := t.TempDir()
	if err := os.Chmod(parent, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(filepath.Join(parent, "store")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Stat(parent); err != nil || fi.Mode().Perm() != 0o755 {
		t.Errorf("parent's mode changed: %v, %v", fi.Mode(), err)
	}
}

func TestOpenRefusesWritableByOthers(t *testing.T) {
	skipOnWindows(t)
	for _, sub := range []bool{false, true} {
		dir := filepath.Join(t.TempDir(), "store")
		bad := dir
		if sub {
			bad = filepath.Join(dir, versionDir)
		}
		if err := os.MkdirAll(bad, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(bad, 0o777); err != nil {
			t.Fatal(err)
		}
		_, err := Open(dir)
		if err == nil {
			t.Fatalf("Open accepted %s, mode 0777", bad)
		}
		if !strings.Contains(err.Error(), bad) || !strings.Contains(err.Error(), "writable by group or others") {
			t.Errorf("error %q should name %s and say it is writable by others", err, bad)
		}
	}
}

func TestOpenRefusesGroupWritable(t *testing.T) {
	skipOnWindows(t)
	dir := filepath.Join(t.TempDir(), "store")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o770); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir); err == nil {
		t.Fatalf("Open accepted %s, mode 0770", dir)
	}
	// Readable by others is fine: only writing is a danger.
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir); err != nil {
		t.Errorf("Open refused a 0755 directory: %v", err)
	}
}

func TestOpenRefusesSymlink(t *testing.T) {
	base := t.TempDir()
	real := filepath.Join(base, "real")
	if err := os.Mkdir(real, 0o700); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(base, "link")
	symlink(t, real, link)
	_, err := Open(link)
	if err == nil {
		t.Fatalf("Open accepted the symbolic link %s", link)
	}
	if !strings.Contains(err.Error(), link) || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("error %q should name %s and say it is a symbolic link", err, link)
	}
	// The version subdirectory as a link.
	if err := os.Mkdir(filepath.Join(base, "store2"), 0o700); err != nil {
		t.Fatal(err)
	}
	symlink(t, real, filepath.Join(base, "store2", versionDir))
	if _, err := Open(filepath.Join(base, "store2")); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("Open with a linked version directory: %v, want a symbolic link error", err)
	}
}

func TestOpenRefusesFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Open(file)
	if err == nil {
		t.Fatalf("Open accepted the file %s", file)
	}
	if !strings.Contains(err.Error(), file) || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("error %q should name %s and say it is not a directory", err, file)
	}
	// The version subdirectory as a file.
	dir := filepath.Join(t.TempDir(), "store")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, versionDir), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("Open with a file as version directory: %v, want a not-a-directory error", err)
	}
}

func TestName(t *testing.T) {
	s := openStore(t)
	s2 := openStore(t)
	n := s.Name("/src/repo", "policy")
	if !regexp.MustCompile(`^[0-9a-f]{16}\.idx$`).MatchString(n) {
		t.Errorf("Name = %q, want 16 hex digits and .idx", n)
	}
	// Deterministic: the xxhash64 of "/src/repo\x00policy", whatever the store.
	if n2 := s2.Name("/src/repo", "policy"); n2 != n {
		t.Errorf("Name differs between stores: %q, %q", n, n2)
	}
	if n != goldenName {
		t.Errorf("Name(/src/repo, policy) = %q, want %q: a change orphans every published index", n, goldenName)
	}
	// The separator keeps (root, key) pairs apart.
	for _, o := range [][2]string{{"/src/repo", "policy2"}, {"/src/repop", "olicy"}, {"/src/rep", "opolicy"}} {
		if s.Name(o[0], o[1]) == n {
			t.Errorf("Name(%q, %q) = Name(/src/repo, policy)", o[0], o[1])
		}
	}
	if got := s.Path(n); got != filepath.Join(s.dir, n) {
		t.Errorf("Path = %q", got)
	}
}

func TestInvalidNames(t *testing.T) {
	s := openStore(t)
	for _, n := range []string{"", ".", "..", "../x", "a/b", `a\b`, "x.idx.lock", "x.idx.tmp-1-2", "a\x00b", "c:x", "x.idx:stream"} {
		if _, err := s.Create(n); err == nil {
			t.Errorf("Create(%q) accepted", n)
		}
		if _, _, err := s.TryLock(n); err == nil {
			t.Errorf("TryLock(%q) accepted", n)
		}
		if _, err := s.OpenIndex(n); err == nil {
			t.Errorf("OpenIndex(%q) accepted", n)
		}
		if err := s.Remove(n); err == nil {
			t.Errorf("Remove(%q) accepted", n)
		}
	}
}

func TestPublishAndOpenIndex(t *testing.T) {
	s := openStore(t)
	name := s.Name("/root", "k")
	if _, err := s.OpenIndex(name); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("OpenIndex before publishing: %v, want fs.ErrNotExist", err)
	}
	lk, err := s.Lock(name)
	if err != nil {
		t.Fatal(err)
	}
	defer lk.Unlock()
	p, err := s.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Base(p.File().Name())
	if !strings.HasPrefix(tmp, name+".tmp-") {
		t.Errorf("temporary file %q, want %s.tmp-PID-RANDOM", tmp, name)
	}
	if _, err := p.File().WriteString("first index"); err != nil {
		t.Fatal(err)
	}
	// Not visible before Publish.
	if _, err := s.OpenIndex(name); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("OpenIndex before Publish: %v, want fs.ErrNotExist", err)
	}
	if err := p.Publish(); err != nil {
		t.Fatal(err)
	}
	if got := readIndex(t, s, name); got != "first index" {
		t.Errorf("published content %q", got)
	}
	if got, want := listDir(t, s), []string{name, name + ".lock"}; strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("store holds %q, want %q", got, want)
	}
	if err := p.Publish(); err == nil {
		t.Error("a second Publish of one Pending succeeded")
	}
	p.Abort() // after Publish: nothing
	if got := readIndex(t, s, name); got != "first index" {
		t.Errorf("Abort after Publish changed the index: %q", got)
	}
}

func TestPublishedFileMode(t *testing.T) {
	skipOnWindows(t)
	s := openStore(t)
	name := s.Name("/root", "k")
	publish(t, s, name, "x")
	fi, err := os.Lstat(s.Path(name))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm()&^0o600 != 0 {
		t.Errorf("published mode %v, want 0600", fi.Mode())
	}
}

func TestPublishReplaces(t *testing.T) {
	s := openStore(t)
	name := s.Name("/root", "k")
	publish(t, s, name, "old index")
	publish(t, s, name, "new")
	if got := readIndex(t, s, name); got != "new" {
		t.Errorf("after a second Publish: %q, want %q", got, "new")
	}
	if got := listDir(t, s); len(got) != 1 || got[0] != name {
		t.Errorf("store holds %q, want only %s", got, name)
	}
}

// TestPublishWhileOpen: a reader holding the old index keeps reading it
// while a writer replaces it (unix: always; Windows: OpenIndex shares
// delete, and the rename's outcome depends on the file system, but a
// failed Publish leaves the old index and no temporary file).
func TestPublishWhileOpen(t *testing.T) {
	s := openStore(t)
	name := s.Name("/root", "k")
	publish(t, s, name, "old index")
	f, err := s.OpenIndex(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	p, err := s.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	p.File().WriteString("new")
	perr := p.Publish()
	if perr != nil && runtime.GOOS != "windows" {
		t.Fatal(perr)
	}
	b, err := io.ReadAll(f)
	if err != nil || string(b) != "old index" {
		t.Errorf("the open old index reads %q, %v", b, err)
	}
	f.Close()
	want := "new"
	if perr != nil {
		t.Logf("Windows: replacing an open index failed: %v", perr)
		want = "old index"
	}
	if got := readIndex(t, s, name); got != want {
		t.Errorf("published %q, want %q", got, want)
	}
	if got := listDir(t, s); len(got) != 1 {
		t.Errorf("store holds %q, want only %s", got, name)
	}
}

func TestAbortLeavesNothing(t *testing.T) {
	s := openStore(t)
	name := s.Name("/root", "k")
	p, err := s.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	p.File().WriteString("partial")
	p.Abort()
	p.Abort() // twice: nothing
	if got := listDir(t, s); len(got) != 0 {
		t.Errorf("after Abort the store holds %q", got)
	}
	if err := p.Publish(); err == nil {
		t.Error("Publish after Abort succeeded")
	}
	if _, err := s.OpenIndex(name); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("OpenIndex after Abort: %v, want fs.ErrNotExist", err)
	}
}

func TestCreateDistinct(t *testing.T) {
	s := openStore(t)
	name := s.Name("/root", "k")
	a, err := s.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Abort()
	b, err := s.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Abort()
	if a.File().Name() == b.File().Name() {
		t.Errorf("two Creates made the same file %s", a.File().Name())
	}
}

func TestSweep(t *testing.T) {
	s := openStore(t)
	name := s.Name("/root", "k")
	other := s.Name("/other", "k")
	publish(t, s, name, "published")
	lk, err := s.Lock(name)
	if err != nil {
		t.Fatal(err)
	}
	defer lk.Unlock()
	// Leftovers of writers killed while writing, and another name's.
	for _, n := range []string{name + ".tmp-12345-abc", name + ".tmp-1-x", other + ".tmp-7-y"} {
		if err := os.WriteFile(s.Path(n), []byte("partial"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	s.Sweep(name)
	want := []string{name, name + ".lock", other + ".tmp-7-y"}
	sort.Strings(want)
	if got := listDir(t, s); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("after Sweep the store holds %q, want %q", got, want)
	}
	if got := readIndex(t, s, name); got != "published" {
		t.Errorf("Sweep changed the published index: %q", got)
	}
}

func TestRemove(t *testing.T) {
	s := openStore(t)
	name := s.Name("/root", "k")
	publish(t, s, name, "corrupt")
	lk, err := s.Lock(name)
	if err != nil {
		t.Fatal(err)
	}
	defer lk.Unlock()
	if err := s.Remove(name); err != nil {
		t.Fatal(err)
	}
	if _, err := s.OpenIndex(name); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("OpenIndex after Remove: %v, want fs.ErrNotExist", err)
	}
	if err := s.Remove(name); err != nil {
		t.Errorf("Remove of a missing index: %v, want nil", err)
	}
	// The lock file stays.
	if _, err := os.Lstat(s.Path(name) + ".lock"); err != nil {
		t.Errorf("lock file: %v", err)
	}
}

func TestOpenIndexRefusesWritableByOthers(t *testing.T) {
	skipOnWindows(t)
	s := openStore(t)
	name := s.Name("/root", "k")
	publish(t, s, name, "x")
	if err := os.Chmod(s.Path(name), 0o666); err != nil {
		t.Fatal(err)
	}
	_, err := s.OpenIndex(name)
	if err == nil {
		t.Fatal("OpenIndex accepted a 0666 file")
	}
	if !strings.Contains(err.Error(), s.Path(name)) || !strings.Contains(err.Error(), "writable by group or others") {
		t.Errorf("error %q should name the file and say it is writable by others", err)
	}
	if err := os.Chmod(s.Path(name), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.OpenIndex(name); err != nil {
		t.Errorf("OpenIndex refused a 0644 file: %v", err)
	}
}

func TestOpenIndexRefusesSymlink(t *testing.T) {
	s := openStore(t)
	name := s.Name("/root", "k")
	target := filepath.Join(t.TempDir(), "target")
	if err := os.WriteFile(target, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	symlink(t, target, s.Path(name))
	_, err := s.OpenIndex(name)
	if err == nil {
		t.Fatal("OpenIndex accepted a symbolic link")
	}
	if !strings.Contains(err.Error(), s.Path(name)) || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("error %q should name the file and say it is a symbolic link", err)
	}
}

func TestOpenIndexRefusesDirectory(t *testing.T) {
	s := openStore(t)
	name := s.Name("/root", "k")
	if err := os.Mkdir(s.Path(name), 0o700); err != nil {
		t.Fatal(err)
	}
	_, err := s.OpenIndex(name)
	if err == nil {
		t.Fatal("OpenIndex accepted a directory")
	}
	if !strings.Contains(err.Error(), s.Path(name)) {
		t.Errorf("error %q should name the file", err)
	}
}
