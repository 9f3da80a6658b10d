package readcache

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// git runs git in dir with no global or system configuration (a user's
// global excludes could otherwise hide what the test looks for).
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("this test needs git on PATH: %v", err)
	}
	cmd := exec.Command("git", append([]string{"-c", "user.email=t@example.com", "-c", "user.name=t"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL="+os.DevNull, "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// TestStoreStaysOutOfGit reads, edits, rereads (a diff) and prunes in a
// real git repository with the store at its default place,
// <cwd>/.pi/readcache: `git status --porcelain` shows only the edit, and
// `git add -A` stages nothing of the store, including the copy of a file
// the repository's own .gitignore keeps out. A store without its marker
// files gets them at its next use.
func TestStoreStaysOutOfGit(t *testing.T) {
	cwd := t.TempDir()
	git(t, cwd, "init", "-q")
	write := func(name, content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(cwd, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".gitignore", "*.log\n")
	write("a.txt", numbered(200))
	write("b.txt", "b\n")
	write("secret.log", "kept out of git by the user\n")
	git(t, cwd, "add", "-A")
	git(t, cwd, "commit", "-q", "-m", "fixture")

	read := func(name string, bases map[string]string) Result {
		t.Helper()
		o := Options{ResolveOptions: ResolveOptions{Path: name, Cwd: cwd}, Bases: bases}
		r, err := Resolve(o.ResolveOptions)
		if err != nil {
			t.Fatal(err)
		}
		o.PathKey = r.PathKey
		res, err := Read(o)
		if err != nil {
			t.Fatalf("Read(%s): %v", name, err)
		}
		if res.StoreError != "" {
			t.Fatalf("Read(%s): store error %s", name, res.StoreError)
		}
		return res
	}
	clean := func(when string, want string) {
		t.Helper()
		if got := git(t, cwd, "status", "--porcelain"); got != want {
			t.Fatalf("%s: git status --porcelain:\n%s\nwant:\n%s", when, got, want)
		}
	}

	a := read("a.txt", nil)
	read("b.txt", nil)
	read("secret.log", nil)
	clean("after first reads", "")

	write("a.txt", strings.Replace(numbered(200), "line 100 of", "line 100, edited, of", 1))
	if d := read("a.txt", map[string]string{"full": a.Meta.ServedHash}); d.Mode != ModeDiff {
		t.Fatalf("reread after the edit: mode %s (%s), want diff", d.Mode, d.Reason)
	}
	clean("after an edit and its diff", " M a.txt\n")

	st, err := openStore(filepath.Join(cwd, ".pi", "readcache"))
	if err != nil {
		t.Fatal(err)
	}
	st.prune(time.Now(), 1, 0) // everything over the bound: all objects go
	if info, err := StoreStats(st.dir); err != nil || info.Objects != 0 {
		t.Fatalf("after pruning: %+v %v", info, err)
	}
	read("b.txt", nil)
	clean("after pruning and a read", " M a.txt\n")

	// A store made before the markers existed gets them at its next use.
	for _, m := range []string{".gitignore", "CACHEDIR.TAG"} {
		if err := os.Remove(filepath.Join(st.dir, m)); err != nil {
			t.Fatal(err)
		}
	}
	if got := git(t, cwd, "status", "--porcelain"); !strings.Contains(got, "?? .pi/") {
		t.Fatalf("without the markers the store should show in git status, got:\n%s", got)
	}
	read("b.txt", nil)
	clean("after the markers were removed and a read", " M a.txt\n")
	tag, err := os.ReadFile(filepath.Join(st.dir, "CACHEDIR.TAG"))
	if err != nil || !strings.HasPrefix(string(tag), "Signature: 8a477f597d28d172789f06886806bc55\n") {
		t.Fatalf("CACHEDIR.TAG: %q %v", tag, err)
	}

	git(t, cwd, "add", "-A")
	if staged := git(t, cwd, "diff", "--cached", "--name-only"); staged != "a.txt\n" {
		t.Fatalf("git add -A staged:\n%s\nwant only a.txt", staged)
	}
}

// TestStoreMarkersKeptAsFound: a .gitignore the user wrote in the store is
// not replaced.
func TestStoreMarkersKeptAsFound(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "store")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".gitignore"), []byte("mine\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := StoreStats(dir); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, ".gitignore")); string(b) != "mine\n" {
		t.Fatalf(".gitignore replaced: %q", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "CACHEDIR.TAG")); err != nil {
		t.Fatalf("CACHEDIR.TAG not written: %v", err)
	}
}
