package scancache

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/fscache/fscache/internal/walk"
	"github.com/fscache/fscache/internal/watch"
)

// churnKeys are the partitions the churn tests keep cached at once: every
// combination of the filtering flags, both details, and a link-following
// one (fuzzyFind's).
func churnKeys(root string) []Key {
	var ks []Key
	for _, h := range []bool{false, true} {
		for _, g := range []bool{false, true} {
			for _, n := range []bool{false, true} {
				ks = append(ks, Key{Root: root, Hidden: h, Gitignore: g, SkipNodeModules: n, Full: h == n})
			}
		}
	}
	return append(ks, Key{Root: root, Gitignore: true, SkipNodeModules: true, FollowLinks: true})
}

// diff compares a cached snapshot with a fresh scan of the same key.
func diff(k Key, got []walk.Entry) string {
	want, err := walk.Scan(k.Options(nil))
	if err != nil {
		return err.Error()
	}
	show := func(es []walk.Entry) string {
		var b strings.Builder
		for _, e := range es {
			fmt.Fprintf(&b, "%s %d", e.Path, e.Type)
			if k.Full {
				fmt.Fprintf(&b, " %d %d", e.Mtime, e.Size)
			}
			b.WriteByte('\n')
		}
		return b.String()
	}
	g, w := show(got), show(want)
	if g == w {
		return ""
	}
	gl, wl := strings.Split(g, "\n"), strings.Split(w, "\n")
	for i := 0; i < len(gl) && i < len(wl); i++ {
		if gl[i] != wl[i] {
			return fmt.Sprintf("first difference at %d: cached %q, fresh %q (%d vs %d entries)", i, gl[i], wl[i], len(got), len(want))
		}
	}
	return fmt.Sprintf("cached %d entries, fresh %d", len(got), len(want))
}

// churner makes random changes to a tree.
type churner struct {
	t    *testing.T
	root string
	r    *rand.Rand
	n    int
}

var names = []string{"a", "b.txt", "c.go", "x.log", ".h", "node_modules", "keep.log", "dir", "sub", "z"}

// must ignores the failures of random operations (a name taken by the
// other kind, a parent moved into its child): they change nothing.
func (c *churner) must(err error) {}

// all lists every path under root (not .git), directories flagged.
func (c *churner) all() (files, dirs []string) {
	filepath.Walk(c.root, func(p string, fi os.FileInfo, err error) error {
		if err != nil || p == c.root {
			return nil
		}
		if fi.Name() == ".git" {
			return filepath.SkipDir
		}
		if fi.IsDir() {
			dirs = append(dirs, p)
		} else {
			files = append(files, p)
		}
		return nil
	})
	return files, dirs
}

func (c *churner) pick(ps []string) string {
	if len(ps) == 0 {
		return ""
	}
	return ps[c.r.Intn(len(ps))]
}

func (c *churner) newName() string {
	c.n++
	n := names[c.r.Intn(len(names))]
	if c.r.Intn(3) == 0 {
		return n
	}
	return fmt.Sprintf("%s%d", n, c.n)
}

// tree makes a small populated tree at dir.
func (c *churner) tree(dir string, depth int) {
	c.must(os.MkdirAll(dir, 0o755))
	for range 1 + c.r.Intn(4) {
		p := filepath.Join(dir, c.newName())
		if depth > 0 && c.r.Intn(3) == 0 {
			c.tree(p, depth-1)
		} else {
			c.must(os.WriteFile(p, []byte("x"), 0o644))
		}
	}
}

// step makes one random change and says what it did.
func (c *churner) step(out string) string {
	files, dirs := c.all()
	dirs = append(dirs, c.root)
	dir := c.pick(dirs)
	switch op := c.r.Intn(13); op {
	case 0, 1:
		p := filepath.Join(dir, c.newName())
		c.must(os.WriteFile(p, []byte("new"), 0o644))
		return "create " + p
	case 2:
		p := c.pick(files)
		c.must(os.Remove(p))
		return "delete " + p
	case 3:
		p, q := c.pick(files), filepath.Join(dir, c.newName())
		if p == "" {
			return "nothing"
		}
		c.must(os.Rename(p, q))
		return "rename " + p + " -> " + q
	case 4:
		p := filepath.Join(dir, c.newName())
		c.tree(p, 2)
		return "tree in place " + p
	case 5:
		tmp := filepath.Join(out, c.newName())
		c.tree(tmp, 2)
		p := filepath.Join(dir, c.newName())
		c.must(os.Rename(tmp, p))
		return "tree moved in " + p
	case 6, 11:
		p := c.pick(dirs)
		if p == c.root {
			return "nothing"
		}
		c.must(os.RemoveAll(p))
		if op == 6 {
			return "remove tree " + p
		}
		c.must(os.WriteFile(p, []byte("now a file"), 0o644))
		return "dir replaced by file " + p
	case 7:
		p := c.pick(dirs)
		if p == c.root || strings.HasPrefix(dir, p) {
			return "nothing"
		}
		q := filepath.Join(dir, c.newName())
		c.must(os.Rename(p, q))
		return "move dir " + p + " -> " + q
	case 8:
		p := c.pick(dirs)
		if p == c.root {
			return "nothing"
		}
		c.must(os.Rename(p, filepath.Join(out, c.newName())))
		return "move dir out " + p
	case 9:
		pats := []string{"*.log", "!keep*.log", "sub*/", "dir*", "/a*", "*.go", "node_modules", ".h*", "!.h*"}
		var b strings.Builder
		for range c.r.Intn(3) {
			b.WriteString(pats[c.r.Intn(len(pats))] + "\n")
		}
		f := []string{".gitignore", ".ignore"}[c.r.Intn(2)]
		p := filepath.Join(dir, f)
		if c.r.Intn(4) == 0 {
			c.must(os.Remove(p))
			return "remove " + p
		}
		c.must(os.WriteFile(p, []byte(b.String()), 0o644))
		return "rules " + p + ": " + strings.ReplaceAll(b.String(), "\n", " ")
	case 10:
		p := c.pick(files)
		if p == "" {
			return "nothing"
		}
		c.must(os.WriteFile(p, []byte(strings.Repeat("y", c.r.Intn(100))), 0o644))
		return "write " + p
	default:
		if c.r.Intn(2) == 0 {
			g := filepath.Join(dir, ".git")
			if _, err := os.Stat(g); err == nil {
				c.must(os.RemoveAll(g))
				return "remove repo " + g
			}
			c.must(os.MkdirAll(filepath.Join(g, "info"), 0o755))
			return "new repo " + g
		}
		p := filepath.Join(c.root, ".git", "info", "exclude")
		c.must(os.WriteFile(p, []byte([]string{"", "*.txt\n", "z*\n"}[c.r.Intn(3)]), 0o644))
		return "exclude " + p
	}
}

func newRepo(t *testing.T) (root, out string) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root, out = filepath.Join(base, "repo"), filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(root, ".git", "info"), out} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	c := &churner{t: t, root: root, r: rand.New(rand.NewSource(1))}
	c.tree(filepath.Join(root, "src"), 3)
	c.tree(filepath.Join(root, "node_modules"), 1)
	os.WriteFile(filepath.Join(root, ".gitignore"), []byte("*.log\n"), 0o644)
	return root, out
}

func watching(t *testing.T) {
	if w, err := watch.New(); err != nil {
		t.Skip("no change notifications on this platform")
	} else {
		w.Close()
	}
}

// TestChurnNeverStale: with a TTL of 10 minutes and no invalidation, every
// cached partition equals a fresh scan after every random change.
func TestChurnNeverStale(t *testing.T) {
	watching(t)
	root, out := newRepo(t)
	c := New(Policy{TTL: 10 * time.Minute, EmptyRecheck: time.Hour, MaxEntries: 100, Watch: true}, nil)
	defer c.InvalidateAll()
	keys := churnKeys(root)
	for _, k := range keys {
		if _, _, err := c.Get(k, nil); err != nil {
			t.Fatal(err)
		}
	}
	ch := &churner{t: t, root: root, r: rand.New(rand.NewSource(42))}
	steps, stale := 400, 0
	if testing.Short() {
		steps = 100
	}
	for i := range steps {
		what := ch.step(out)
		for _, k := range keys {
			s, _, err := c.Get(k, nil)
			if err != nil {
				t.Fatal(err)
			}
			if d := diff(k, s.Entries()); d != "" {
				stale++
				t.Errorf("step %d (%s), key %+v: %s", i, what, k, d)
			}
		}
		if stale > 5 {
			t.FailNow()
		}
	}
	st := c.Stats()
	t.Logf("%d steps x %d partitions: %d stale answers; stats %+v", steps, len(keys), stale, st)
	if st.Watched < len(keys)-1 || st.EventsApplied == 0 || st.Refreshes == 0 {
		t.Errorf("the partitions were not kept by watching: %+v", st)
	}
	// Every fill is a full scan; nothing else may be one, save the
	// refills of the link-following partition after a fallback.
	if st.FullScans > int64(len(keys))+st.Fallbacks[ReasonSymlinks] {
		t.Errorf("%d full scans for %d partitions", st.FullScans, len(keys))
	}
}
