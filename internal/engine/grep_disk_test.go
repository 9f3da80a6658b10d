package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/fscache/fscache/internal/cancel"
	"github.com/fscache/fscache/internal/index"
	"github.com/fscache/fscache/internal/scancache"
)

// useDiskIndex gives the test fresh grep indexes with the disk policy in
// dir, over a fresh scan cache that watches or not: a new process.
func useDiskIndex(t *testing.T, dir string, watching, eager bool) *grepIndexes {
	t.Helper()
	if watching {
		needWatch(t)
	}
	useCache(t, scancache.Policy{TTL: 10 * time.Minute, EmptyRecheck: time.Hour, MaxEntries: 16, Watch: watching})
	grepIndex()
	old := indexes
	p := indexPolicy{eager: eager, capMem: 64 << 20, disk: true, dir: dir}
	set(&p)
	t.Cleanup(func() {
		stopBuilders(t)
		unmapAll(indexes)
		indexes = old
	})
	return indexes
}

// unmapAll releases gi's mappings of published indexes (no grep may run):
// Windows deletes no mapped file, and the test's directory goes at its end.
func unmapAll(gi *grepIndexes) {
	if gi == nil {
		return
	}
	gi.disk.mu.Lock()
	defer gi.disk.mu.Unlock()
	for k, o := range gi.disk.opened {
		o.ix.Close()
		delete(gi.disk.opened, k)
	}
}

// restart replaces the test's indexes with a new process's (same disk
// directory, same watching), and waits for the old one's builder.
func restart(t *testing.T, gi *grepIndexes, eager bool) *grepIndexes {
	t.Helper()
	stopBuilders(t)
	unmapAll(gi)
	p := gi.policy
	p.eager = eager
	set(&p)
	return indexes
}

// diskCases are the uncached greps compared with and without the index.
func diskCases(root string) []GrepOptions {
	var out []GrepOptions
	for _, o := range grepCases(root) {
		if !o.Cache {
			out = append(out, o)
		}
	}
	out = append(out, GrepOptions{Pattern: "alpha", Path: root, MaxCount: Int(3)},
		GrepOptions{Pattern: "beta", Path: root, Glob: "d1/**"})
	return out
}

// compareDisk greps every case with gi and without an index, fails on any
// difference, and on a case with a trigram that gi did not serve from an
// index (published, or live once adopted) when wantDisk.
func compareDisk(t *testing.T, step string, gi *grepIndexes, root string, wantDisk bool) {
	t.Helper()
	compareDiskCases(t, step, gi, diskCases(root), wantDisk)
}

// compareDiskCases is compareDisk over cases.
func compareDiskCases(t *testing.T, step string, gi *grepIndexes, cases []GrepOptions, wantDisk bool) {
	t.Helper()
	for _, o := range cases {
		indexes = gi
		// Served: by an index, or left to the unindexed search on purpose
		// (a limit the first files meet: idxManyCandidates).
		answered := func() int64 { s := IndexStats(); return s.Queries + s.Fallbacks[idxManyCandidates] }
		before := answered()
		with, errW := Grep(o, nil)
		served := answered() > before
		set(nil)
		without, errWO := Grep(o, nil)
		indexes = gi
		with.read, without.read = 0, 0
		if fmt.Sprint(errW) != fmt.Sprint(errWO) || !reflect.DeepEqual(with, without) {
			t.Fatalf("%s: %+v:\nindexed   %+v (%v)\nunindexed %+v (%v)", step, o, with, errW, without, errWO)
		}
		if wantDisk && !served && o.Pattern != `gam+a\d` {
			t.Fatalf("%s: %+v was not served by the published index: %+v", step, o, IndexStats())
		}
	}
}

// diskTree writes the churn tests' tree, its files' mtimes an hour old (so
// that the index trusts them: not racy).
func diskTree(t *testing.T) (root string, w func(rel, content string)) {
	root, w = churnTree(t)
	age(t, root, time.Hour)
	return root, w
}

// churnTree writes the index churn tests' tree in a temporary directory,
// and returns it with a function that writes a file in it.
func churnTree(t *testing.T) (root string, w func(rel, content string)) {
	root, _ = filepath.EvalSymlinks(t.TempDir())
	w = func(rel, content string) {
		t.Helper()
		path := filepath.Join(root, rel)
		mustDo(t, os.MkdirAll(filepath.Dir(path), 0o755))
		mustDo(t, os.WriteFile(path, []byte(content), 0o644))
	}
	for i := range 40 {
		w(fmt.Sprintf("d%d/f%02d.txt", i%4, i), fmt.Sprintf("line %d\nalpha %d\nbeta\n", i, i))
		w(fmt.Sprintf("d%d/g%02d.go", i%3, i), fmt.Sprintf("package p\n// gamma%d Delta\nvar xyz = %d\n", i, i))
	}
	w("bin.dat", "alpha\x00beta")
	w(".hidden/h.txt", "alpha hidden")
	return root, w
}

// age sets the mtime of every file under root to d ago.
func age(t *testing.T, root string, d time.Duration) {
	t.Helper()
	old := time.Now().Add(-d)
	mustDo(t, filepath.Walk(root, func(p string, info os.FileInfo, err error) error {
		if err != nil || !info.Mode().IsRegular() {
			return err
		}
		return os.Chtimes(p, old, old)
	}))
}

func TestDiskIndexServesANewProcess(t *testing.T) {
	for _, watching := range []bool{false, true} {
		t.Run(fmt.Sprintf("watching=%t", watching), func(t *testing.T) {
			dir := t.TempDir()
			gi := useDiskIndex(t, dir, watching, true)
			root, _ := diskTree(t)
			if _, err := Grep(GrepOptions{Pattern: "alpha", Path: root}, nil); err != nil {
				t.Fatal(err)
			}
			if s := IndexStats().Persisted; s.Published != 1 || s.Dir == "" || s.LastError != "" {
				t.Fatalf("after the first eager grep: %+v", s)
			}
			gi = restart(t, gi, false)
			compareDisk(t, "new process", gi, root, true)
			s := IndexStats()
			if s.Persisted.Untrusted != 0 || s.Persisted.Published != 0 {
				t.Fatalf("a new process on an unchanged tree: %+v", s.Persisted)
			}
			if s.Skipped == 0 {
				t.Fatalf("the published index ruled nothing out: %+v", s)
			}
			// Where nothing watches, greps validate the published index:
			// they do not build it again. A watching process adopts it.
			waitNoBuilder(t, gi)
			if s = IndexStats(); !watching && s.Builds != 0 || watching && s.Persisted.Adopted > 1 {
				t.Fatalf("builds in a new process on an unchanged tree: %+v", s)
			}
			fi, err := os.Stat(gi.diskIndexDir())
			mustDo(t, err)
			if os.PathSeparator == '/' && fi.Mode().Perm() != 0o700 { // Windows: no mode bits
				t.Fatalf("index directory mode %v", fi.Mode())
			}
		})
	}
}

// TestDiskIndexFormatDirectory: the index files live in a subdirectory
// named by the file format's version, so that a process of another
// version (another directory) neither reads them nor replaces them; the
// directory of an older format is left untouched.
func TestDiskIndexFormatDirectory(t *testing.T) {
	dir := t.TempDir()
	old := filepath.Join(dir, "grep-v1")
	mustDo(t, os.Mkdir(old, 0o700))
	oldFile := filepath.Join(old, "something.idx")
	mustDo(t, os.WriteFile(oldFile, []byte("an index of format 1"), 0o600))
	gi := useDiskIndex(t, dir, false, true)
	root, _ := diskTree(t)
	if _, err := Grep(GrepOptions{Pattern: "alpha", Path: root}, nil); err != nil {
		t.Fatal(err)
	}
	loc := gi.diskIndexDir()
	if want := filepath.Join(dir, fmt.Sprintf("grep-v%d", index.FormatVersion)); loc != want {
		t.Fatalf("index directory %q, want %q (named by the format version)", loc, want)
	}
	if m, _ := filepath.Glob(filepath.Join(loc, "*.idx")); len(m) != 1 {
		t.Fatalf("published files in %s: %v", loc, m)
	}
	if b, err := os.ReadFile(oldFile); err != nil || string(b) != "an index of format 1" {
		t.Fatalf("the older format's file was touched: %q, %v", b, err)
	}
}

// TestDiskBuildWalkYields: a build's walk with full detail (readDisk's,
// here over a published index it then adopts, reading no file) waits
// before each directory while a foreground call is in flight, and goes on
// once none is.
func TestDiskBuildWalkYields(t *testing.T) {
	gi := useDiskIndex(t, t.TempDir(), false, true)
	root, _ := diskTree(t)
	if _, err := Grep(GrepOptions{Pattern: "alpha", Path: root}, nil); err != nil {
		t.Fatal(err)
	}
	gi = restart(t, gi, false)
	key := scancache.Key{Root: root, Hidden: true, Gitignore: true, SkipNodeModules: true}
	r, _ := gi.note(key, time.Now())
	release := holdBuilder()
	done := make(chan error, 1)
	go func() {
		_, _, err := gi.readDisk(r, nil, true)
		done <- err
	}()
	select {
	case err := <-done:
		release()
		t.Fatalf("the build walked while a foreground call was in flight (%v)", err)
	case <-time.After(300 * time.Millisecond):
	}
	release()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if s := IndexStats().Persisted; s.Adopted != 1 || s.Published != 0 {
		t.Fatalf("want the published index adopted, got %+v", s)
	}
}

// TestDiskIndexChurnAcrossRestarts edits the tree every way between two
// processes (each step a new process that greps the published index, and
// sometimes rebuilds it), and compares every answer with an unindexed
// grep's.
func TestDiskIndexChurnAcrossRestarts(t *testing.T) {
	for _, watching := range []bool{false, true} {
		t.Run(fmt.Sprintf("watching=%t", watching), func(t *testing.T) {
			diskChurn(t, watching)
		})
	}
}

func diskChurn(t *testing.T, watching bool) {
	dir := t.TempDir()
	gi := useDiskIndex(t, dir, watching, true)
	root, w := diskTree(t)
	compareDisk(t, "initial", gi, root, false)
	same := func(rel, content string) { // same size, same mtime: the racy case
		path := filepath.Join(root, rel)
		fi, err := os.Stat(path)
		mustDo(t, err)
		if int64(len(content)) != fi.Size() {
			t.Fatalf("same-size rewrite of %s: %d bytes, not %d", rel, len(content), fi.Size())
		}
		w(rel, content)
		mustDo(t, os.Chtimes(path, fi.ModTime(), fi.ModTime()))
	}
	steps := []struct {
		name string
		do   func()
	}{
		{"rewrite", func() { w("d2/f02.txt", "Alpha beta rewritten nowhere_token\n") }},
		{"truncate", func() { mustDo(t, os.Truncate(filepath.Join(root, "d3/f03.txt"), 3)) }},
		{"delete", func() { mustDo(t, os.Remove(filepath.Join(root, "d1/f05.txt"))) }},
		{"create", func() { w("d9/new.go", "package q // DELTA gamma77\n") }},
		{"rename over", func() {
			w("tmp.txt", "omega nowhere_token (renamed)\n")
			mustDo(t, os.Rename(filepath.Join(root, "tmp.txt"), filepath.Join(root, "d0/f04.txt")))
		}},
		{"directory renamed", func() { mustDo(t, os.Rename(filepath.Join(root, "d1"), filepath.Join(root, "d7"))) }},
		{"same size, same mtime, just after the build (racy)", func() { same("d9/new.go", "package q // omega xyz7\n   ") }},
		{"checkout: many files rewritten", func() {
			for i := 0; i < 40; i += 2 {
				w(fmt.Sprintf("d%d/g%02d.go", i%3, i), fmt.Sprintf("package p\n// omega%d beta\n", i))
			}
		}},
		{"ignore file", func() { w(".gitignore", "d0/\n") }},
		{"made hidden", func() { mustDo(t, os.Rename(filepath.Join(root, "d3"), filepath.Join(root, ".d3"))) }},
		{"binary becomes text", func() { w("bin.dat", "alpha beta text now") }},
		{"unreadable", func() { mustDo(t, os.Chmod(filepath.Join(root, "d2/g05.go"), 0)) }},
	}
	var fromDisk int64
	for i, s := range steps {
		s.do()
		// A new process: some build again (eager), most only read.
		gi = restart(t, gi, i%3 == 2)
		compareDisk(t, s.name, gi, root, false)
		compareDisk(t, s.name+" (again)", gi, root, false)
		fromDisk += IndexStats().Persisted.Queries
	}
	if fromDisk == 0 {
		t.Fatal("no grep was served from the published index")
	}
}

// TestDiskIndexRacyRewrite: a file rewritten with the same size within the
// mtime's granularity of its read is never answered from its entry.
func TestDiskIndexRacyRewrite(t *testing.T) {
	dir := t.TempDir()
	gi := useDiskIndex(t, dir, false, true)
	root, _ := filepath.EvalSymlinks(t.TempDir())
	path := filepath.Join(root, "a.txt")
	mustDo(t, os.WriteFile(path, []byte("alpha one\n"), 0o644))
	fi, err := os.Stat(path)
	mustDo(t, err)
	if _, err := Grep(GrepOptions{Pattern: "alpha", Path: root}, nil); err != nil {
		t.Fatal(err)
	}
	mustDo(t, os.WriteFile(path, []byte("omega one\n"), 0o644))
	mustDo(t, os.Chtimes(path, fi.ModTime(), fi.ModTime()))
	gi = restart(t, gi, false)
	indexes = gi
	res, err := Grep(GrepOptions{Pattern: "omega", Path: root}, nil)
	mustDo(t, err)
	if res.TotalMatches != 1 {
		t.Fatalf("racy rewrite: %+v", res)
	}
	if s := IndexStats().Persisted; s.Queries != 1 || s.Untrusted != 1 {
		t.Fatalf("the racy entry was trusted or the index not used: %+v", s)
	}
}

// TestDiskIndexDirectoryRefused: a directory others can write is never
// used; greps answer without it and say why.
func TestDiskIndexDirectoryRefused(t *testing.T) {
	if os.PathSeparator != '/' {
		t.Skip("permission bits are not checked on Windows")
	}
	dir := t.TempDir()
	mustDo(t, os.Chmod(dir, 0o777))
	useDiskIndex(t, dir, false, true)
	root, _ := diskTree(t)
	for range 2 {
		res, err := Grep(GrepOptions{Pattern: "alpha", Path: root}, nil)
		mustDo(t, err)
		if res.TotalMatches == 0 {
			t.Fatalf("%+v", res)
		}
	}
	s := IndexStats()
	if s.Persisted.Published != 0 || !strings.Contains(s.Persisted.LastError, dir) {
		t.Fatalf("a world-writable index directory was used, or the error does not name it: %+v", s.Persisted)
	}
}

// TestDiskIndexInvalidate: a change the metadata does not show (same size,
// mtime set back) is seen once invalidateFsScanCache names the file, its
// directory, or nothing (everything).
func TestDiskIndexInvalidate(t *testing.T) {
	for _, what := range []string{"file", "dir", "all"} {
		t.Run(what, func(t *testing.T) {
			dir := t.TempDir()
			gi := useDiskIndex(t, dir, false, true)
			root, _ := diskTree(t)
			if _, err := Grep(GrepOptions{Pattern: "alpha", Path: root}, nil); err != nil {
				t.Fatal(err)
			}
			gi = restart(t, gi, false)
			path := filepath.Join(root, "d1", "f01.txt")
			fi, err := os.Stat(path)
			mustDo(t, err)
			mustDo(t, os.WriteFile(path, []byte("line 1\nomega 1\nbeta\n"), 0o644))
			mustDo(t, os.Chtimes(path, fi.ModTime(), fi.ModTime()))
			switch what {
			case "file":
				Invalidate(path)
			case "dir":
				Invalidate(filepath.Dir(path))
			case "all":
				InvalidateAll()
			}
			res, err := Grep(GrepOptions{Pattern: "omega", Path: root}, nil)
			mustDo(t, err)
			if res.TotalMatches != 1 {
				t.Fatalf("after invalidating the %s: %+v (%+v)", what, res, IndexStats().Persisted)
			}
			compareDisk(t, "after invalidation", gi, root, false)
		})
	}
}

// TestDiskIndexBuiltAfterACheckout: a background build over files written
// just now (a checkout) waits until they are no longer racy, so that the
// next process trusts them instead of rebuilding at once.
func TestDiskIndexBuiltAfterACheckout(t *testing.T) {
	dir := t.TempDir()
	gi := useDiskIndex(t, dir, false, false)
	root, w := churnTree(t) // every mtime is now
	for i := range 300 {    // more than a rebuild allows unconfirmed
		w(fmt.Sprintf("m/%03d.txt", i), fmt.Sprintf("alpha %d\n", i))
	}
	for range 2 { // the second grep queues the build
		if _, err := Grep(GrepOptions{Pattern: "alpha", Path: root}, nil); err != nil {
			t.Fatal(err)
		}
	}
	waitNoBuilder(t, gi)
	if s := IndexStats().Persisted; s.Published != 1 {
		t.Fatalf("the background build published nothing: %+v", s)
	}
	gi = restart(t, gi, false)
	compareDisk(t, "next process", gi, root, true)
	if s := IndexStats().Persisted; s.Untrusted != 0 {
		t.Fatalf("the index built after the checkout does not trust its files: %+v", s)
	}
}

// TestDiskIndexMergedRebuild: a rebuild over a published index reads only
// the files whose entries the walk does not confirm (changed, new, or
// under a path invalidateFsScanCache named) and keeps the others'; the
// index it publishes answers as a search without one, and the next
// process trusts all of it.
func TestDiskIndexMergedRebuild(t *testing.T) {
	for _, watching := range []bool{false, true} {
		t.Run(fmt.Sprintf("watching=%t", watching), func(t *testing.T) {
			dir := t.TempDir()
			gi := useDiskIndex(t, dir, watching, true)
			root, w := diskTree(t)
			for i := range 600 {
				w(fmt.Sprintf("m%d/%03d.txt", i%7, i), fmt.Sprintf("alpha %d\nbeta line %d\n", i, i*7))
			}
			age(t, root, time.Hour)
			compareDisk(t, "first build", gi, root, false)
			if s := IndexStats().Persisted; s.Published != 1 || s.Merged != 0 {
				t.Fatalf("first build: %+v", s)
			}
			// Many files changed (more than a process adopts), some gone,
			// some new, written an hour ago (not racy); one changed
			// without its metadata showing it.
			old := time.Now().Add(-time.Hour)
			wOld := func(rel, content string) {
				w(rel, content)
				mustDo(t, os.Chtimes(filepath.Join(root, rel), old, old))
			}
			changed := 0
			for i := 0; i < 600; i += 2 {
				wOld(fmt.Sprintf("m%d/%03d.txt", i%7, i), fmt.Sprintf("omega %d rewritten\n", i))
				changed++
			}
			for i := 1; i < 60; i += 6 {
				mustDo(t, os.Remove(filepath.Join(root, fmt.Sprintf("m%d/%03d.txt", i%7, i))))
			}
			for i := range 25 {
				wOld(fmt.Sprintf("n/%02d.txt", i), fmt.Sprintf("delta new %d\n", i))
				changed++
			}
			hidden := filepath.Join(root, "m3", "003.txt") // odd: not rewritten above
			fi, err := os.Stat(hidden)
			mustDo(t, err)
			mustDo(t, os.WriteFile(hidden, []byte("gammaX 3\nbeta line 2\n"), 0o644))
			mustDo(t, os.Chtimes(hidden, fi.ModTime(), fi.ModTime()))
			gi = restart(t, gi, true)
			Invalidate(filepath.Dir(hidden))
			read := 0
			gi.policy.onFile = func(*cancel.Token) { read++ }
			compareDisk(t, "merged build", gi, root, false)
			gi.policy.onFile = nil
			s := IndexStats().Persisted
			inM3 := 0
			for i := 3; i < 600; i += 7 {
				if i%2 == 1 && (i >= 60 || (i-1)%6 != 0) {
					inM3++ // m3's files not rewritten nor removed: read again, as invalidated
				}
			}
			if s.Published != 1 || s.Merged != 1 || read != changed+inM3 {
				t.Fatalf("merged build: read %d files (%d changed or new, %d invalidated): %+v", read, changed, inM3, s)
			}
			res, err := Grep(GrepOptions{Pattern: "gammaX", Path: root}, nil)
			mustDo(t, err)
			if res.TotalMatches != 1 {
				t.Fatalf("the invalidated file's change is not seen: %+v", res)
			}
			gi = restart(t, gi, false)
			compareDisk(t, "next process", gi, root, !watching)
			if s := IndexStats().Persisted; s.Untrusted != 0 {
				t.Fatalf("the next process does not trust the merged index: %+v", s)
			}
		})
	}
}

// TestDiskIndexReleasesHeap: a call that walked (a grep validated by a
// walk; an uncached grep or glob where nothing watches) has the heap
// returned to the system once calls pause, by a goroutine that then ends.
func TestDiskIndexReleasesHeap(t *testing.T) {
	old := releaseFrom
	releaseFrom = 1
	defer func() { releaseFrom = old }()
	dir := t.TempDir()
	gi := useDiskIndex(t, dir, false, true)
	root, _ := diskTree(t)
	compareDisk(t, "build", gi, root, false)
	gi = restart(t, gi, false)
	compareDisk(t, "validated", gi, root, true)
	waitRelease(t, gi, 1)
	// A grep searched without the index (no trigram) walks too, and so
	// does an uncached glob.
	if _, err := Grep(GrepOptions{Pattern: "a.b", Path: root}, nil); err != nil {
		t.Fatal(err)
	}
	waitRelease(t, gi, 2)
	if _, err := Glob(GlobOptions{Pattern: "**/*.txt", Path: root}, nil); err != nil {
		t.Fatal(err)
	}
	waitRelease(t, gi, 3)
}

// waitRelease waits (at most 30 s) until gi has returned the heap n times
// and no release is pending.
func waitRelease(t *testing.T, gi *grepIndexes, n int64) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for gi.releasing.Load() || gi.releases.Load() < n {
		if time.Now().After(deadline) {
			t.Fatalf("releasing %t, %d releases, want %d", gi.releasing.Load(), gi.releases.Load(), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}
