package walk

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fscache/fscache/internal/cancel"
)

// optionSets are the option combinations the equivalence tests try.
func optionSets(root string) []Options {
	var out []Options
	for _, gi := range []bool{false, true} {
		for _, hidden := range []bool{false, true} {
			for _, follow := range []bool{false, true} {
				for _, nm := range []bool{false, true} {
					out = append(out, Options{Root: root, Gitignore: gi, Hidden: hidden, FollowLinks: follow, SkipNodeModules: nm})
				}
			}
		}
	}
	return out
}

func optName(o Options) string {
	return fmt.Sprintf("gitignore=%v hidden=%v follow=%v skipNM=%v full=%v", o.Gitignore, o.Hidden, o.FollowLinks, o.SkipNodeModules, o.Full)
}

// walkSorted collects Walk's entries and sorts them.
func walkSorted(t *testing.T, o Options) []Entry {
	t.Helper()
	var mu sync.Mutex
	var out []Entry
	if err := Walk(o, func(e Entry) error {
		mu.Lock()
		out = append(out, e)
		mu.Unlock()
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	slices.SortStableFunc(out, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) })
	return out
}

// sameEntries compares two results; entries with equal paths (possible
// only with names that are not UTF-8) may come in any order.
func sameEntries(got, want []Entry) bool {
	if len(got) != len(want) {
		return false
	}
	if !slices.IsSortedFunc(got, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) }) {
		return false
	}
	g := slices.Clone(got)
	w := slices.Clone(want)
	cmp := func(a, b Entry) int {
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		if c := strings.Compare(a.RawPath, b.RawPath); c != 0 {
			return c
		}
		return int(a.Type) - int(b.Type)
	}
	slices.SortFunc(g, cmp)
	slices.SortFunc(w, cmp)
	return slices.Equal(g, w)
}

// diff describes how got differs from want.
func diff(got, want []Entry) string {
	in := func(es []Entry) map[Entry]int {
		m := map[Entry]int{}
		for _, e := range es {
			m[e]++
		}
		return m
	}
	g, w := in(got), in(want)
	var b strings.Builder
	for e, n := range g {
		if w[e] < n {
			fmt.Fprintf(&b, "  extra   %q %d %d %d\n", e.Path, e.Type, e.Mtime, e.Size)
		}
	}
	for e, n := range w {
		if g[e] < n {
			fmt.Fprintf(&b, "  missing %q %d %d %d\n", e.Path, e.Type, e.Mtime, e.Size)
		}
	}
	if b.Len() == 0 {
		b.WriteString("  same entries, different order:\n  " + list(got))
	}
	return b.String()
}

// checkAgainstReference compares Scan and Walk with refScan under every
// option set.
func checkAgainstReference(t *testing.T, root string) {
	t.Helper()
	for _, o := range optionSets(root) {
		want, err := refScan(o)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Scan(o)
		if err != nil {
			t.Fatal(err)
		}
		if !sameEntries(got, want) {
			t.Errorf("Scan, %s:\n%s", optName(o), diff(got, want))
		}
		if w := walkSorted(t, o); !sameEntries(w, want) {
			t.Errorf("Walk, %s:\n%s", optName(o), diff(w, want))
		}
	}
}

// TestOrderAroundSlash covers names that sort between a directory and its
// subtree ('!' < '-' < '.' < '/' < '0').
func TestOrderAroundSlash(t *testing.T) {
	root := tree(t,
		"a/x", "a/.h", "a!", "a!b/y", "a-b", "a.txt", "a0", "a /z", "ab/c/d", "ab.c/e", "ab!/f",
		"z/", "zz/a/b/c/d", "x/x/x/x", "x/x.y", "x/x-y/", "x.x/x", "_/", "~", "ABC", "abcdefgh/1",
		"abcdefgh!/2", "abcdefgh.i/3", "abcdefghi/4", "abcdefg/5", "abcdefg.h/6", "abcdefg!/7")
	for _, o := range []Options{{Root: root}, {Root: root, Hidden: true}} {
		got, err := Scan(o)
		if err != nil {
			t.Fatal(err)
		}
		want, _ := refScan(o)
		if !slices.Equal(got, want) {
			t.Errorf("got  %s\nwant %s", list(got), list(want))
		}
	}
}

// TestNotUTF8Collisions covers sibling names that display the same: their
// subtrees must still come out sorted.
func TestNotUTF8Collisions(t *testing.T) {
	root := tree(t)
	for _, p := range []string{"x\xff/a", "x\xfe/b", "x\xff/c", "x\xfe/a", "x\xfd", "y\xff\xfe/z", "y\xfe\xff/y"} {
		full := filepath.Join(root, p)
		must(t, os.MkdirAll(filepath.Dir(full), 0o755))
		must(t, os.WriteFile(full, nil, 0o644))
	}
	got, err := Scan(Options{Root: root})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := refScan(Options{Root: root})
	if !sameEntries(got, want) {
		t.Errorf("got  %q\nwant %q", list(got), list(want))
	}
}

// TestIgnoreNested applies ignore rules at several levels, in and out of
// repositories, with Walk and Scan.
func TestIgnoreNested(t *testing.T) {
	root := tree(t,
		".ignore", "a.log", "keep.log", "top/", "top/x.tmp", "top/.ignore", "top/y.txt",
		"top/sub/z.tmp", "top/sub/w.txt", "top/sub/.gitignore", "top/sub/gi.txt",
		"repo/.git/info/exclude", "repo/.gitignore", "repo/build/o", "repo/src/a.go", "repo/src/a.o",
		"repo/src/.gitignore", "repo/src/gen/g.go", "repo/src/.env", "repo/ex.txt",
		"repo/nested/.git/HEAD", "repo/nested/a.o", "repo/nested/b.go", "repo/nested/.gitignore",
		"repo/jj/.jj/x", "repo/jj/a.o", "repo/jj/ign.txt", "repo/jj/.gitignore",
		"repo/wt/.git", "repo/wt/a.o", "repo/wt/.gitignore", "repo/wt/w.txt",
		"repo/emptydir/", "repo/onlydirs/d1/d2/a.o", "repo/onlydirs/d1/d2/.gitignore", "repo/onlydirs/d1/d2/d3/a.o")
	write := func(rel, data string) { must(t, os.WriteFile(filepath.Join(root, rel), []byte(data), 0o644)) }
	write(".ignore", "*.log\n!keep.log\n")
	write("top/.ignore", "*.tmp\n")
	write("top/sub/.gitignore", "gi.txt\n") // outside a repository: no effect
	write("repo/.git/info/exclude", "ex.txt\n")
	write("repo/.gitignore", "/build/\n*.o\n!.env\n")
	write("repo/src/.gitignore", "gen/\n!a.o\n")
	write("repo/nested/.gitignore", "b.go\n") // a.o is no longer ignored: new repo
	write("repo/jj/.gitignore", "ign.txt\n")
	write("repo/wt/.git", "gitdir: /nonexistent\n")
	write("repo/wt/.gitignore", "w.txt\n")
	write("repo/onlydirs/d1/d2/.gitignore", "!a.o\nd3/\n")
	checkAgainstReference(t, root)
	got := scan(t, Options{Root: root, Gitignore: true})
	for _, want := range []string{"keep.log:1", "top/y.txt:1", "top/sub/w.txt:1", "top/sub/gi.txt:1", "repo/src/a.go:1",
		"repo/src/a.o:1", "repo/nested/a.o:1", "repo/onlydirs/d1/d2/a.o:1", "repo/emptydir:2"} {
		if !strings.Contains(" "+got+" ", " "+want+" ") {
			t.Errorf("%s missing from %s", want, got)
		}
	}
	for _, bad := range []string{"a.log", "top/x.tmp", "top/sub/z.tmp", "repo/build", "repo/src/gen", "repo/ex.txt",
		"repo/nested/b.go", "repo/jj/ign.txt", "repo/wt/w.txt", "repo/onlydirs/d1/d2/d3"} {
		if strings.Contains(" "+got+" ", " "+bad+":") {
			t.Errorf("%s not ignored: %s", bad, got)
		}
	}
}

// TestIgnoreFileLinks covers ignore files reached through symlinks, and a
// followed directory link listed before a linked ignore file.
func TestIgnoreFileLinks(t *testing.T) {
	root := tree(t, "rules.txt", "d/a.skip", "d/b.txt", "d/sub/c.skip", "target/t.skip", "target/u.txt", "e/")
	must(t, os.WriteFile(filepath.Join(root, "rules.txt"), []byte("*.skip\n#link\n"), 0o644))
	must(t, os.Symlink("../rules.txt", filepath.Join(root, "d", ".ignore")))
	must(t, os.Symlink("../target", filepath.Join(root, "d", "#link"))) // sorts before ".ignore"
	must(t, os.Symlink("../target", filepath.Join(root, "d", "link")))
	must(t, os.Symlink("../rules.txt", filepath.Join(root, "e", ".ignore")))
	must(t, os.Symlink("../d", filepath.Join(root, "e", "dl")))
	checkAgainstReference(t, root)
}

// TestPrunedNameLinks: a link named .git or node_modules is pruned like
// the directory it points to, never followed.
func TestPrunedNameLinks(t *testing.T) {
	root := tree(t, "real/a", "real/b/c", "sub/")
	must(t, os.Symlink("../real", filepath.Join(root, "sub", "node_modules")))
	must(t, os.Symlink("real", filepath.Join(root, ".git")))
	for _, o := range []Options{
		{Root: root, FollowLinks: true, SkipNodeModules: true},
		{Root: root, FollowLinks: true, SkipNodeModules: true, Gitignore: true, Hidden: true},
	} {
		want := "real:2 real/a:1 real/b:2 real/b/c:1 sub:2"
		if got := scan(t, o); got != want {
			t.Errorf("Scan %s:\ngot  %s\nwant %s", optName(o), got, want)
		}
		if got := list(walkSorted(t, o)); got != want {
			t.Errorf("Walk %s:\ngot  %s\nwant %s", optName(o), got, want)
		}
	}
	checkAgainstReference(t, root)
}

// TestLinkCycles follows links that loop back to ancestors and siblings.
func TestLinkCycles(t *testing.T) {
	root := tree(t, "a/b/c/f", "x/y", "s/.ignore")
	must(t, os.WriteFile(filepath.Join(root, "s", ".ignore"), []byte("y\n"), 0o644))
	must(t, os.Symlink("../..", filepath.Join(root, "a", "b", "up")))
	must(t, os.Symlink("../../x", filepath.Join(root, "a", "b", "tox")))
	must(t, os.Symlink("../a", filepath.Join(root, "x", "toa")))
	must(t, os.Symlink(".", filepath.Join(root, "a", "self")))
	must(t, os.Symlink("../x", filepath.Join(root, "s", "x")))
	checkAgainstReference(t, root)
}

// TestScanStable scans the same tree many times: concurrency must not
// change the result.
func TestScanStable(t *testing.T) {
	root := randomTree(t, rand.New(rand.NewPCG(7, 7)), 400)
	for _, o := range []Options{{Root: root}, {Root: root, Gitignore: true, Hidden: true}} {
		first, err := Scan(o)
		must(t, err)
		for range 20 {
			again, err := Scan(o)
			must(t, err)
			if !slices.Equal(first, again) {
				t.Fatalf("results differ between runs (%s)", optName(o))
			}
		}
	}
}

// TestFullDetailMatchesReference compares full detail with the reference.
func TestFullDetailMatchesReference(t *testing.T) {
	root := randomTree(t, rand.New(rand.NewPCG(3, 4)), 200)
	for _, o := range []Options{{Root: root, Full: true}, {Root: root, Full: true, Gitignore: true, FollowLinks: true}} {
		want, err := refScan(o)
		must(t, err)
		got, err := Scan(o)
		must(t, err)
		if !sameEntries(got, want) {
			t.Errorf("Scan %s:\ngot  %v\nwant %v", optName(o), got, want)
		}
		if w := walkSorted(t, o); !sameEntries(w, want) {
			t.Errorf("Walk %s:\ngot  %v\nwant %v", optName(o), w, want)
		}
		// With Observe, the detail is read as each entry is observed (on
		// Linux, relative to the directory being listed), for both.
		{
			var mu sync.Mutex
			var seen []Entry
			oo := o
			oo.Hooks.Observe = func(e Entry) error {
				mu.Lock()
				seen = append(seen, e)
				mu.Unlock()
				return nil
			}
			want, err := refScan(Options{Root: oo.Root, Full: true, Gitignore: oo.Gitignore, FollowLinks: oo.FollowLinks})
			must(t, err)
			got, err := Scan(oo)
			must(t, err)
			slices.SortStableFunc(seen, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) })
			if !sameEntries(got, want) || !sameEntries(seen, want) {
				t.Errorf("Scan %s with Observe:\ngot  %v\nseen %v\nwant %v", optName(oo), got, seen, want)
			}
		}
	}
}

// TestRandomTrees compares Scan and Walk with the reference on random
// trees.
func TestRandomTrees(t *testing.T) {
	n := 12
	if testing.Short() {
		n = 3
	}
	for seed := range uint64(n) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			checkAgainstReference(t, randomTree(t, rand.New(rand.NewPCG(seed, 99)), 150))
		})
	}
}

// TestCancelWhileFinishing stops the token in the second phase (from
// OnLink, which finishing a directory calls for its links): the phase must
// stop with the token's error before it finished every directory.
func TestCancelWhileFinishing(t *testing.T) {
	var paths []string
	for i := range 300 {
		paths = append(paths, fmt.Sprintf("d%d/f%d", i%30, i))
	}
	root := tree(t, paths...)
	for i := range 300 {
		must(t, os.Symlink(fmt.Sprintf("f%d", i), filepath.Join(root, fmt.Sprintf("d%d/l%d", i%30, i))))
	}
	tok := cancel.New(time.Time{}, nil)
	var links atomic.Int32
	es, err := Scan(Options{Root: root, Cancel: tok, Hooks: Hooks{OnLink: func(string) {
		links.Add(1)
		tok.Stop(cancel.ErrSignal)
	}}})
	if err != cancel.ErrSignal || es != nil {
		t.Errorf("got %d entries, %v", len(es), err)
	}
	if n := links.Load(); n == 0 || n >= 300 {
		t.Errorf("%d of the 300 links reported: the second phase did not stop early", n)
	}
}

// TestRootForms covers the spellings of the root.
func TestRootForms(t *testing.T) {
	root := tree(t, "a/b", "c")
	want := scan(t, Options{Root: root})
	if got := scan(t, Options{Root: root + "/"}); got != want {
		t.Errorf("trailing slash: got %s, want %s", got, want)
	}
	w := newWalker(Options{Root: "/"})
	if w.root != "/" || w.start != 1 {
		t.Errorf("root /: %q %d", w.root, w.start)
	}
	w = newWalker(Options{Root: "/a/b//"})
	if w.root != "/a/b" || w.start != 5 {
		t.Errorf("root /a/b//: %q %d", w.root, w.start)
	}
}

func TestSubtreeBefore(t *testing.T) {
	names := []string{"a", "a!", "a!b", "a.", "a.txt", "a0", "ab", "", "abcdefgh", "abcdefg", "abcdefgh.", "abcdefgh0", "b", "a/"}
	for _, d := range names {
		if d == "" || strings.Contains(d, "/") {
			continue
		}
		for _, x := range names {
			if want := d+"/" < x; subtreeBefore(d, x) != want {
				t.Errorf("subtreeBefore(%q, %q) = %v", d, x, !want)
			}
		}
	}
	for _, a := range names {
		for _, b := range names {
			if (prefix8(a) < prefix8(b)) && a >= b {
				t.Errorf("prefix8 order: %q %q", a, b)
			}
		}
	}
}

var (
	randNames = []string{"a", "b", "a.txt", "a-b", "a!", "a0", "B", "x.log", "keep.log", "y.tmp", "z.o", "main.go",
		"build", "src", "gen", "node_modules", ".env", ".hidden", ".h", "deep", "d1", "d2", "é", "日本",
		"bad\xff", "bad\xfe", "abcdefgh", "abcdefgh.c", "abcdefgh-x", "abcdefghij", "_x", "~y", " sp"}
	randRules = []string{"*.log", "!keep.log", "build/", "/src/gen/", "*.o", "!.env", "!.h*", "deep", "d?", "[ab]", "**/gen",
		"!a.txt", "*.tmp", "/b", "a*/", "!d1/", "é", "*", "!*/", "!*.go", "abcdefgh*", ".*", "!node_modules/"}
)

// randomTree builds a tree of about n entries with ignore files, nested
// repositories, hidden names, links (some looping) and a FIFO.
func randomTree(t testing.TB, r *rand.Rand, n int) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	dirs := []string{root}
	pick := func(list []string) string { return list[r.IntN(len(list))] }
	for i := 0; i < n; i++ {
		parent := dirs[r.IntN(len(dirs))]
		name := pick(randNames)
		if r.IntN(4) == 0 {
			name = fmt.Sprintf("%s%d", name, r.IntN(5))
		}
		full := filepath.Join(parent, name)
		if _, err := os.Lstat(full); err == nil {
			continue
		}
		switch k := r.IntN(20); {
		case k < 7:
			must(t, os.Mkdir(full, 0o755))
			dirs = append(dirs, full)
		case k < 15:
			must(t, os.WriteFile(full, []byte("x"), 0o644))
		case k == 15:
			var rules []string
			for range 1 + r.IntN(4) {
				rules = append(rules, pick(randRules))
			}
			file := pick([]string{".gitignore", ".ignore", ".gitignore"})
			must(t, os.WriteFile(filepath.Join(parent, file), []byte(strings.Join(rules, "\n")+"\n"), 0o644))
		case k == 16:
			if r.IntN(3) == 0 {
				must(t, os.MkdirAll(filepath.Join(parent, ".jj"), 0o755))
			} else {
				must(t, os.MkdirAll(filepath.Join(parent, ".git", "info"), 0o755))
				must(t, os.WriteFile(filepath.Join(parent, ".git", "info", "exclude"), []byte(pick(randRules)+"\n"), 0o644))
			}
		case k == 17:
			target := dirs[r.IntN(len(dirs))]
			rel, err := filepath.Rel(parent, target)
			must(t, err)
			must(t, os.Symlink(rel, full))
		case k == 18:
			target := pick([]string{"missing", "a.txt", "../a", "main.go", ".."})
			if r.IntN(4) == 0 {
				// Never a link from an ignore file name to a FIFO: reading
				// it would block.
				full = filepath.Join(parent, pick([]string{".git", "node_modules", ".gitignore", ".ignore"}))
				target = pick([]string{"missing", "..", "../.gitignore"})
				if _, err := os.Lstat(full); err == nil {
					continue
				}
			}
			must(t, os.Symlink(target, full))
		default:
			must(t, mkfifo(full))
		}
	}
	return root
}

// BenchmarkScanGorootOriginal runs the original implementation (refScan)
// on the same tree as BenchmarkScanGoroot, for before/after comparisons.
func BenchmarkScanGorootOriginal(b *testing.B) {
	root := filepath.Join(goroot(b), "src")
	for _, full := range []bool{false, true} {
		name := "minimal"
		if full {
			name = "full"
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				if _, err := refScan(Options{Root: root, Gitignore: true, SkipNodeModules: true, Full: full}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
