package walk

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fuzzyList renders the entries as the reference's fuzzyFind lists them:
// symlink entries (broken links) left out, directories with a trailing '/',
// sorted.
func fuzzyList(es []Entry) string {
	var out []string
	for _, e := range es {
		switch e.Type {
		case Dir:
			out = append(out, e.Path+"/")
		case File:
			out = append(out, e.Path)
		}
	}
	slices.Sort(out)
	return strings.Join(out, " ")
}

// links creates the symlinks given as link, target pairs under root.
func links(t *testing.T, root string, pairs ...string) {
	t.Helper()
	for i := 0; i < len(pairs); i += 2 {
		must(t, os.Symlink(pairs[i+1], filepath.Join(root, pairs[i])))
	}
}

// checkFollow scans root/rel with links followed, with Scan and Walk, and
// compares with want, in fuzzyList form.
func checkFollow(t *testing.T, root, rel string, hidden bool, want string) {
	t.Helper()
	o := Options{Root: filepath.Join(root, rel), Hidden: hidden, Gitignore: true, SkipNodeModules: true, FollowLinks: true}
	es, err := Scan(o)
	must(t, err)
	if got := fuzzyList(es); got != want {
		t.Errorf("Scan %q hidden=%v:\ngot  %s\nwant %s", rel, hidden, got, want)
	}
	if got := fuzzyList(walkSorted(t, o)); got != want {
		t.Errorf("Walk %q hidden=%v:\ngot  %s\nwant %s", rel, hidden, got, want)
	}
}

// TestFollowLoopRule pins walkdir's loop rule as pi-natives 14.9.9 applies
// it (answers recorded from its fuzzyFind): a link to a directory on its
// walk path (root to parent, by identity) is dropped entirely; any other
// link to a directory, a lexical ancestor of the root included, is walked.
func TestFollowLoopRule(t *testing.T) {
	root := tree(t, "dir/inner.txt")
	links(t, root, "dir/back", "..", "self", ".")
	checkFollow(t, root, ".", false, "dir/ dir/inner.txt")
	checkFollow(t, root, "dir", false, "back/ back/dir/ back/dir/inner.txt inner.txt")
}

// TestFollowLinkShapes covers the conformance fixture's link shapes and a
// few more (links reaching the walk path through other links, links above
// the root), with the reference's answers.
func TestFollowLinkShapes(t *testing.T) {
	root := tree(t, "file.txt", "dir/inner.txt", "dir/sub/deep.txt", ".hid/x.txt", "sub2/", "empty/")
	links(t, root,
		"link_file", "file.txt", "link_dir", "dir", "link_broken", "does-not-exist", "link_self", ".",
		"dir/back", "..", "loop_a", "loop_b", "loop_b", "loop_a", "chain1", "chain2", "chain2", "file.txt",
		".hidden_link", "dir", "link_to_hidden", ".hid", "sub2/up_file", "../file.txt", "link_empty", "empty",
		"dir/sub/up2", "../..", "dir/sub/tosib", "../../.hid", "dir/sub/viadir", "../../link_dir")
	checkFollow(t, root, ".", false, "chain1 chain2 dir/ dir/inner.txt dir/sub/ dir/sub/deep.txt dir/sub/tosib/ "+
		"dir/sub/tosib/x.txt empty/ file.txt link_dir/ link_dir/inner.txt link_dir/sub/ link_dir/sub/deep.txt "+
		"link_dir/sub/tosib/ link_dir/sub/tosib/x.txt link_empty/ link_file link_to_hidden/ link_to_hidden/x.txt "+
		"sub2/ sub2/up_file")
	checkFollow(t, root, ".", true, ".hid/ .hid/x.txt .hidden_link/ .hidden_link/inner.txt .hidden_link/sub/ "+
		".hidden_link/sub/deep.txt .hidden_link/sub/tosib/ .hidden_link/sub/tosib/x.txt chain1 chain2 dir/ "+
		"dir/inner.txt dir/sub/ dir/sub/deep.txt dir/sub/tosib/ dir/sub/tosib/x.txt empty/ file.txt link_dir/ "+
		"link_dir/inner.txt link_dir/sub/ link_dir/sub/deep.txt link_dir/sub/tosib/ link_dir/sub/tosib/x.txt "+
		"link_empty/ link_file link_to_hidden/ link_to_hidden/x.txt sub2/ sub2/up_file")
	checkFollow(t, root, "dir", false, "back/ back/chain1 back/chain2 back/dir/ back/dir/inner.txt back/dir/sub/ "+
		"back/dir/sub/deep.txt back/dir/sub/tosib/ back/dir/sub/tosib/x.txt back/empty/ back/file.txt "+
		"back/link_empty/ back/link_file back/link_to_hidden/ back/link_to_hidden/x.txt back/sub2/ "+
		"back/sub2/up_file inner.txt sub/ sub/deep.txt sub/tosib/ sub/tosib/x.txt sub/up2/ sub/up2/chain1 "+
		"sub/up2/chain2 sub/up2/dir/ sub/up2/dir/inner.txt sub/up2/dir/sub/ sub/up2/dir/sub/deep.txt "+
		"sub/up2/dir/sub/tosib/ sub/up2/dir/sub/tosib/x.txt sub/up2/empty/ sub/up2/file.txt sub/up2/link_empty/ "+
		"sub/up2/link_file sub/up2/link_to_hidden/ sub/up2/link_to_hidden/x.txt sub/up2/sub2/ sub/up2/sub2/up_file")
	checkFollow(t, root, "dir/sub", true,
		"deep.txt tosib/ tosib/x.txt up2/ up2/.hid/ up2/.hid/x.txt up2/.hidden_link/ "+
			"up2/.hidden_link/inner.txt up2/.hidden_link/sub/ up2/.hidden_link/sub/deep.txt "+
			"up2/.hidden_link/sub/tosib/ up2/.hidden_link/sub/tosib/x.txt up2/chain1 up2/chain2 up2/dir/ "+
			"up2/dir/inner.txt up2/dir/sub/ up2/dir/sub/deep.txt up2/dir/sub/tosib/ up2/dir/sub/tosib/x.txt "+
			"up2/empty/ up2/file.txt up2/link_dir/ up2/link_dir/inner.txt up2/link_dir/sub/ "+
			"up2/link_dir/sub/deep.txt up2/link_dir/sub/tosib/ up2/link_dir/sub/tosib/x.txt up2/link_empty/ "+
			"up2/link_file up2/link_to_hidden/ up2/link_to_hidden/x.txt up2/sub2/ up2/sub2/up_file viadir/ "+
			"viadir/back/ viadir/back/.hid/ viadir/back/.hid/x.txt viadir/back/chain1 viadir/back/chain2 "+
			"viadir/back/dir/ viadir/back/dir/inner.txt viadir/back/dir/sub/ viadir/back/dir/sub/deep.txt "+
			"viadir/back/dir/sub/tosib/ viadir/back/dir/sub/tosib/x.txt viadir/back/empty/ "+
			"viadir/back/file.txt viadir/back/link_empty/ viadir/back/link_file viadir/back/link_to_hidden/ "+
			"viadir/back/link_to_hidden/x.txt viadir/back/sub2/ viadir/back/sub2/up_file viadir/inner.txt "+
			"viadir/sub/ viadir/sub/deep.txt viadir/sub/tosib/ viadir/sub/tosib/x.txt viadir/sub/up2/ "+
			"viadir/sub/up2/.hid/ viadir/sub/up2/.hid/x.txt viadir/sub/up2/chain1 viadir/sub/up2/chain2 "+
			"viadir/sub/up2/dir/ viadir/sub/up2/dir/inner.txt viadir/sub/up2/dir/sub/ "+
			"viadir/sub/up2/dir/sub/deep.txt viadir/sub/up2/dir/sub/tosib/ "+
			"viadir/sub/up2/dir/sub/tosib/x.txt viadir/sub/up2/empty/ viadir/sub/up2/file.txt "+
			"viadir/sub/up2/link_empty/ viadir/sub/up2/link_file viadir/sub/up2/link_to_hidden/ "+
			"viadir/sub/up2/link_to_hidden/x.txt viadir/sub/up2/sub2/ viadir/sub/up2/sub2/up_file")
	// Broken links and link loops stay symlink entries.
	got := scan(t, Options{Root: root, FollowLinks: true})
	for _, want := range []string{"link_broken:3", "loop_a:3", "loop_b:3"} {
		if !strings.Contains(" "+got+" ", " "+want+" ") {
			t.Errorf("%s missing from %s", want, got)
		}
	}
}

// TestFollowOffByDefault: without FollowLinks no link is walked or
// dropped.
func TestFollowOffByDefault(t *testing.T) {
	root := tree(t, "dir/inner.txt")
	links(t, root, "dir/back", "..", "self", ".")
	if got, want := scan(t, Options{Root: root}), "dir:2 dir/back:3 dir/inner.txt:1 self:3"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

// TestRawPath: entries whose path is not valid UTF-8, in their name or in a
// directory above, carry the real bytes in RawPath, which opens the file.
func TestRawPath(t *testing.T) {
	root := tree(t, "ok/a.txt")
	for _, p := range []string{"bad\xff.txt", "dir\xc3/in.txt", "dir\xc3/sub/deep.txt"} {
		full := filepath.Join(root, p)
		must(t, os.MkdirAll(filepath.Dir(full), 0o755))
		must(t, os.WriteFile(full, []byte(p), 0o644))
	}
	want := map[string]string{"bad\uFFFD.txt": "bad\xff.txt", "dir\uFFFD": "dir\xc3", "dir\uFFFD/in.txt": "dir\xc3/in.txt",
		"dir\uFFFD/sub": "dir\xc3/sub", "dir\uFFFD/sub/deep.txt": "dir\xc3/sub/deep.txt", "ok": "", "ok/a.txt": ""}
	check := func(name string, es []Entry) {
		if len(es) != len(want) {
			t.Errorf("%s: %d entries: %s", name, len(es), list(es))
		}
		for _, e := range es {
			if raw, ok := want[e.Path]; !ok || e.RawPath != raw {
				t.Errorf("%s: %q has RawPath %q, want %q", name, e.Path, e.RawPath, raw)
			}
			if e.Type == File {
				if data, err := os.ReadFile(filepath.Join(root, e.FSPath())); err != nil || string(data) != e.FSPath() {
					t.Errorf("%s: %q: read %q, %v", name, e.Path, data, err)
				}
			}
		}
	}
	for _, o := range []Options{{Root: root}, {Root: root, FollowLinks: true, Gitignore: true, Full: true}} {
		es, err := Scan(o)
		must(t, err)
		check("Scan "+optName(o), es)
		check("Walk "+optName(o), walkSorted(t, o))
	}
}
