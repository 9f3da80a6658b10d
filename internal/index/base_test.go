package index

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// writeWithBase writes the index of files to a new file of dir, reusing
// base's entries for the files keep selects, and returns its path and the
// number of files kept.
func writeWithBase(t *testing.T, dir string, base *Index, files []testFile, keep func(i int) bool) (string, int) {
	t.Helper()
	path := filepath.Join(dir, fmt.Sprintf("merged-%d", len(files)))
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var b Builder
	b.Spill(f)
	b.Base(base)
	plan := base.Plan(Query{}, false)
	kept := 0
	for i, tf := range files {
		if keep(i) && b.Keep(tf.path, plan.Lookup(tf.path), tf.meta) {
			kept++
			continue
		}
		b.Add(tf.path, tf.data, tf.ok, tf.meta)
	}
	if err := b.WriteFile(f, testHeader); err != nil {
		t.Fatal(err)
	}
	return path, kept
}

// TestBaseMerge: an index written from a base (the entries of unchanged
// files kept, the others read) decides as one read from every file: files
// removed, added and changed, large files of several documents among
// them, binary and unread files, with several segments on both sides.
func TestBaseMerge(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	withChunk(1024, func() {
		withSegment(3000, func() {
			old := append(genFiles(rng, 400), bigFiles(rng, 60)...)
			slices.SortFunc(old, func(a, b testFile) int { return cmpStr(a.path, b.path) })
			dir := t.TempDir()
			base := openDisk(t, writeDisk(t, dir, old, true))
			// The tree now: a fifth of the files gone, a tenth changed
			// (a large one among them), new ones.
			var now []testFile
			changed := map[string]bool{}
			for _, f := range old {
				switch r := rng.Intn(10); {
				case r < 2:
					continue
				case r < 3:
					f.data = append(slices.Clone(f.data), " changed Needle zebra"...)
					changed[f.path] = true
				}
				now = append(now, f)
			}
			for i := range 50 {
				now = append(now, testFile{path: fmt.Sprintf("new/%03d", i), data: []byte(fmt.Sprintf("fresh %d alpha kelvin", i)), ok: true})
			}
			slices.SortFunc(now, func(a, b testFile) int { return cmpStr(a.path, b.path) })
			path, kept := writeWithBase(t, dir, base, now, func(i int) bool { return !changed[now[i].path] })
			merged := openDisk(t, path)
			if err := merged.VerifyBlobs(); err != nil {
				t.Fatal(err)
			}
			want := buildMem(now)
			if kept < len(now)/2 || merged.Files != want.Files || merged.Bytes != want.Bytes || merged.docs != want.docs ||
				!slices.Equal(merged.spans, want.spans) || merged.blooms.len() != want.blooms.len() {
				t.Fatalf("kept %d of %d; merged: %d files %d bytes %d docs %d spans %d blooms, want %d %d %d %d %d", kept, len(now),
					merged.Files, merged.Bytes, merged.docs, len(merged.spans), merged.blooms.len(),
					want.Files, want.Bytes, want.docs, len(want.spans), want.blooms.len())
			}
			for _, q := range randomQueries(t, rng, now, 200) {
				samePlans(t, want, merged, now, q)
			}
			if merged.Corrupt() {
				t.Fatal("the merged index decoded as corrupt")
			}
		})
	})
}

// TestKeepRefuses: Keep records nothing for an id the base does not have
// under that path or did not read, nor without a base.
func TestKeepRefuses(t *testing.T) {
	files := genFiles(rand.New(rand.NewSource(12)), 30)
	base := buildMem(files)
	var unread testFile
	unreadID := -1
	for i, f := range files {
		if !f.ok {
			unread, unreadID = f, i
		}
	}
	if unreadID < 0 {
		t.Fatal("no unread file in the fixture")
	}
	var b Builder
	if b.Keep(files[0].path, 0, Meta{}) {
		t.Fatal("Keep without a base")
	}
	b.Base(base)
	for _, c := range []struct {
		path string
		id   int
	}{{files[1].path, 0}, {files[0].path, -1}, {files[0].path, len(files)}, {unread.path, unreadID}} {
		if b.Keep(c.path, c.id, Meta{}) {
			t.Fatalf("Keep(%q, %d) accepted", c.path, c.id)
		}
	}
	if len(b.paths) != 0 || b.docs != 0 {
		t.Fatalf("refused Keeps recorded %d paths, %d documents", len(b.paths), b.docs)
	}
	b.Abort()
}

func cmpStr(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}
