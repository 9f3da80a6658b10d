package engine

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fscache/fscache/internal/cancel"
	"github.com/fscache/fscache/internal/scancache"
)

// useIndex replaces the process's grep indexes for the test with a fresh
// set under policy p (nil: indexing off), over a fresh watched scan cache.
func useIndex(t *testing.T, p *indexPolicy) {
	t.Helper()
	needWatch(t)
	useCache(t, scancache.Policy{TTL: 10 * time.Minute, EmptyRecheck: time.Hour, MaxEntries: 16, Watch: true})
	grepIndex()
	old := indexes
	set(p)
	t.Cleanup(func() {
		stopBuilders(t)
		indexes = old
	})
}

// set makes p the policy of a fresh set of indexes (nil: off).
func set(p *indexPolicy) {
	if p == nil {
		indexes = nil
		return
	}
	indexes = &grepIndexes{policy: *p, roots: map[scancache.Key]*indexedRoot{}}
}

// grepCases are the calls compared with and without an index.
func grepCases(root string) []GrepOptions {
	var out []GrepOptions
	for _, pat := range []string{"alpha", "Alpha beta", `gam+a\d`, "alpha|omega", "nowhere_token", "(?i)DELTA", `\bbeta\b`, `xyz(?= =)`} {
		for _, mode := range []GrepMode{ModeContent, ModeCount, ModeFilesWithMatches} {
			out = append(out, GrepOptions{Pattern: pat, Path: root, Mode: mode})
		}
		out = append(out, GrepOptions{Pattern: pat, Path: root, IgnoreCase: true, Glob: "*.txt", Context: Int(1)})
		out = append(out, GrepOptions{Pattern: pat, Path: root, MaxCount: Int(2), Offset: Int(1), Cache: true})
		out = append(out, GrepOptions{Pattern: pat, Path: root, MaxCountPerFile: Int(1), Type: "go"})
	}
	return out
}

// compareIndexed greps every case with the index (which must serve it) and
// without, and fails on any difference.
func compareIndexed(t *testing.T, step string, root string, p indexPolicy) {
	t.Helper()
	compareCases(t, step, grepCases(root), true)
}

// compareCases greps every case with the index and without, and fails on
// any difference, and when the index serves a case (but the one without a
// trigram) other than as wantServed says.
func compareCases(t *testing.T, step string, cases []GrepOptions, wantServed bool) {
	t.Helper()
	for _, o := range cases {
		gi := indexes
		before := IndexStats().Queries
		with, errW := Grep(o, nil)
		served := IndexStats().Queries > before
		set(nil)
		without, errWO := Grep(o, nil)
		indexes = gi
		with.read, without.read = 0, 0 // the index reads fewer files: that is its point
		if fmt.Sprint(errW) != fmt.Sprint(errWO) || !reflect.DeepEqual(with, without) {
			t.Fatalf("%s: %+v:\nindexed   %+v (%v)\nunindexed %+v (%v)", step, o, with, errW, without, errWO)
		}
		if wantServed && !served && o.Pattern != `gam+a\d` {
			t.Fatalf("%s: %+v was not served by the index: %+v", step, o, IndexStats())
		}
		if !wantServed && served {
			t.Fatalf("%s: %+v was served by the index", step, o)
		}
	}
}

func TestIndexedGrepChurn(t *testing.T) {
	p := indexPolicy{eager: true, capMem: 64 << 20}
	useIndex(t, &p)
	root, w := churnTree(t)
	compareIndexed(t, "initial", root, p)
	steps := []struct {
		name string
		do   func()
	}{
		{"append", func() {
			f, err := os.OpenFile(filepath.Join(root, "d1/f01.txt"), os.O_APPEND|os.O_WRONLY, 0)
			mustDo(t, err)
			_, err = f.WriteString("nowhere_token appended omega\n")
			mustDo(t, err)
			mustDo(t, f.Close())
		}},
		{"rewrite", func() { w("d2/f02.txt", "Alpha beta rewritten\n") }},
		{"truncate", func() { mustDo(t, os.Truncate(filepath.Join(root, "d3/f03.txt"), 3)) }},
		{"identical rewrite", func() { w("d0/f00.txt", "line 0\nalpha 0\nbeta\n") }},
		{"rename over", func() {
			w("tmp.txt", "omega nowhere_token (renamed)\n")
			mustDo(t, os.Rename(filepath.Join(root, "tmp.txt"), filepath.Join(root, "d0/f04.txt")))
		}},
		{"delete", func() { mustDo(t, os.Remove(filepath.Join(root, "d1/f05.txt"))) }},
		{"create", func() { w("d9/new.go", "package q // DELTA gamma77\n") }},
		{"directory moved in", func() {
			out := t.TempDir()
			mustDo(t, os.MkdirAll(filepath.Join(out, "moved/deep"), 0o755))
			mustDo(t, os.WriteFile(filepath.Join(out, "moved/deep/m.txt"), []byte("alpha moved nowhere_token\n"), 0o644))
			mustDo(t, os.Rename(filepath.Join(out, "moved"), filepath.Join(root, "moved")))
		}},
		{"directory moved away and back with other content", func() {
			mustDo(t, os.Rename(filepath.Join(root, "d2"), filepath.Join(root, "d2old")))
			w("d2/f02.txt", "omega only\n")
		}},
		{"unreadable", func() { mustDo(t, os.Chmod(filepath.Join(root, "d3/f07.txt"), 0)) }},
		{"binary becomes text", func() { w("bin.dat", "alpha beta text now") }},
		{"text becomes binary", func() { w("d0/f08.txt", "alpha\x00") }},
		{"hard link made in the tree", func() {
			mustDo(t, os.Link(filepath.Join(root, "d0/g03.go"), filepath.Join(root, "d9/link.go")))
		}},
		{"write through the new link", func() { w("d9/link.go", "package p // omega nowhere_token via link\n") }},
		{"ignore file", func() { w(".ignore", "d1/\n") }},
	}
	for _, s := range steps {
		s.do()
		compareIndexed(t, s.name, root, p)
	}
	if st := IndexStats(); st.Reindexed == 0 || st.Skipped == 0 || st.Restored == 0 {
		t.Fatalf("the index did not re-read, restore and skip: %+v", st)
	}
}

// tree writes n small files under a new temporary root and returns it.
func tree(t *testing.T, n int) string {
	t.Helper()
	root, _ := filepath.EvalSymlinks(t.TempDir())
	for i := range n {
		path := filepath.Join(root, fmt.Sprintf("d%d/f%03d.txt", i%5, i))
		mustDo(t, os.MkdirAll(filepath.Dir(path), 0o755))
		mustDo(t, os.WriteFile(path, []byte(fmt.Sprintf("alpha %d\nbeta %d\n", i, i)), 0o644))
	}
	return root
}

// waitBuilder waits until no builder goroutine runs.
func waitBuilder(t *testing.T) {
	t.Helper()
	waitNoBuilder(t, indexes)
}

// raise raises flag and waits until tok has seen it.
func raise(t *testing.T, flag *atomic.Bool, tok *cancel.Token) {
	flag.Store(true)
	for i := 0; !tok.Poll(); i++ {
		if i > 60000 {
			t.Error("hang: the token did not see the flag in a minute")
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// indexedTree turns the index on (64 MiB cap, built in the background),
// and returns a tree of n files and a grep of it.
func indexedTree(t *testing.T, n int) (string, GrepOptions) {
	p := indexPolicy{capMem: 64 << 20}
	useIndex(t, &p)
	root := tree(t, n)
	return root, GrepOptions{Pattern: "alpha 7", Path: root}
}

// liveRoots returns the number of roots with a live index.
func liveRoots() int { return IndexStats().Roots }

func TestIndexBuiltAfterTwoGrepsInTheBackground(t *testing.T) {
	root, o := indexedTree(t, 50)
	Grep(o, nil)
	waitBuilder(t)
	if liveRoots() != 0 {
		t.Fatal("indexed after one grep")
	}
	Grep(o, nil)
	waitBuilder(t)
	if liveRoots() != 1 {
		t.Fatalf("not indexed after two greps: %+v", IndexStats())
	}
	compareIndexed(t, "background", root, indexPolicy{capMem: 64 << 20})
}

func TestIndexBuildCancelled(t *testing.T) {
	p := indexPolicy{eager: true, capMem: 64 << 20}
	useIndex(t, &p)
	root := tree(t, 300)
	// The eager build runs in the call: an abort flag raised when half the
	// files are read stops it mid-way (the hook waits until the call's
	// token has seen the flag).
	var flag atomic.Bool
	read := 0
	indexes.policy.onFile = func(tok *cancel.Token) {
		if read++; read != 150 {
			return
		}
		raise(t, &flag, tok)
	}
	o := GrepOptions{Pattern: "alpha 7", Path: root}
	o.Aborted = flag.Load
	if _, err := Grep(o, nil); err == nil || err.Error() != "Aborted: Signal" {
		t.Fatalf("cancelled build: %v", err)
	}
	if read >= 300 {
		t.Fatalf("the cancelled build read all %d files", read)
	}
	indexes.policy.onFile = nil
	if liveRoots() != 0 {
		t.Fatal("a cancelled build left an index")
	}
	// A timeout during a query on a live index.
	compareIndexed(t, "after a cancelled build", root, p)
	o.Aborted = nil
	o.TimeoutMs = new(int64)
	*o.TimeoutMs = 0
	if _, err := Grep(o, nil); err == nil || err.Error() != "Aborted: Timeout" {
		t.Fatalf("timeout: %v", err)
	}
	// An abort during a query on the live index.
	flag.Store(false)
	queried := false
	indexes.policy.onQuery = func(tok *cancel.Token) {
		queried = true
		raise(t, &flag, tok)
	}
	o.TimeoutMs = nil
	o.Aborted = flag.Load
	if _, err := Grep(o, nil); err == nil || err.Error() != "Aborted: Signal" || !queried {
		t.Fatalf("cancelled query: %v (through the index: %v)", err, queried)
	}
	indexes.policy.onQuery = nil
	compareIndexed(t, "after cancelled queries", root, p)
}

// holdBuilder keeps the background builder waiting (as for a foreground
// call) until the returned function is called.
func holdBuilder() func() {
	indexes.active.Add(1)
	return func() { indexes.active.Add(-1) }
}

// duringHeldBuild greps a tree of 100 files twice, which queues its index
// build, and runs during while the builder waits; then lets the build go
// on and waits for it to end.
func duringHeldBuild(t *testing.T, during func(root string)) GrepOptions {
	root, o := indexedTree(t, 100)
	Grep(o, nil)
	release := holdBuilder()
	Grep(o, nil) // queues the build, which waits
	during(root)
	release()
	waitBuilder(t)
	return o
}

func TestIndexRootRemovedWhileBuilding(t *testing.T) {
	o := duringHeldBuild(t, func(root string) { mustDo(t, os.RemoveAll(root)) })
	if liveRoots() != 0 {
		t.Fatalf("an index of a removed root: %+v", IndexStats())
	}
	if _, err := Grep(o, nil); err == nil {
		t.Fatal("grep of a removed root answered")
	}
}

func TestIndexDroppedWithTheCache(t *testing.T) {
	// InvalidateAll while the build waits: the build must stop.
	o := duringHeldBuild(t, func(string) { InvalidateAll() })
	if liveRoots() != 0 {
		t.Fatalf("an index survived InvalidateAll: %+v", IndexStats())
	}
	// Built again, then dropped with the cache.
	Grep(o, nil)
	Grep(o, nil)
	waitBuilder(t)
	if liveRoots() != 1 {
		t.Fatalf("not rebuilt: %+v", IndexStats())
	}
	InvalidateAll()
	if liveRoots() != 0 {
		t.Fatal("an index survived InvalidateAll")
	}
	compareIndexed2(t, o)
}

// TestIndexBuildNotStoppedByItsRescan: the uncached grep that queues a
// build rescans the root, which replaces the root's watched scan; the
// build must not listen on the watcher that rescan closes (it did, and
// stopped, once in a while under load).
func TestIndexBuildNotStoppedByItsRescan(t *testing.T) {
	_, o := indexedTree(t, 40)
	for i := range 30 {
		Grep(o, nil)
		Grep(o, nil)
		waitBuilder(t)
		if st := IndexStats(); st.Roots != 1 || st.BuildFailures != 0 {
			t.Fatalf("round %d: %+v", i, st)
		}
		InvalidateAll()
	}
}

// compareIndexed2 compares one grep with and without the indexes.
func compareIndexed2(t *testing.T, o GrepOptions) {
	t.Helper()
	gi := indexes
	with, errW := Grep(o, nil)
	set(nil)
	without, errWO := Grep(o, nil)
	indexes = gi
	with.read, without.read = 0, 0 // the index reads fewer files: that is its point
	if fmt.Sprint(errW) != fmt.Sprint(errWO) || !reflect.DeepEqual(with, without) {
		t.Fatalf("%+v:\nindexed   %+v (%v)\nunindexed %+v (%v)", o, with, errW, without, errWO)
	}
}

func TestIndexMemoryCap(t *testing.T) {
	// An index alone over the cap is not built, for good.
	p := indexPolicy{eager: true, capMem: 2 << 10}
	useIndex(t, &p)
	root := tree(t, 200)
	o := GrepOptions{Pattern: "alpha 7", Path: root}
	compareIndexed2(t, o)
	st := IndexStats()
	if st.Roots != 0 || st.FallbackRoots[root] != idxTooLarge {
		t.Fatalf("a root over the cap: %+v", st)
	}
	// Two roots that fit one at a time: the least recently used goes.
	a, b := tree(t, 50), tree(t, 50)
	p = indexPolicy{eager: true, capMem: 1 << 20}
	set(&p)
	Grep(GrepOptions{Pattern: "alpha 7", Path: a}, nil)
	one := IndexStats().IndexBytes
	p.capMem = one + one/2
	set(&p)
	Grep(GrepOptions{Pattern: "alpha 7", Path: a}, nil)
	Grep(GrepOptions{Pattern: "alpha 7", Path: b}, nil)
	st = IndexStats()
	if st.Roots != 1 || st.Fallbacks[idxEvicted] != 1 || st.IndexBytes > p.capMem {
		t.Fatalf("past the cap: %+v", st)
	}
	compareIndexed2(t, GrepOptions{Pattern: "alpha 7", Path: a})
	compareIndexed2(t, GrepOptions{Pattern: "alpha 7", Path: b})
}

func TestIndexBuilderYieldsToForegroundCalls(t *testing.T) {
	_, o := indexedTree(t, 100)
	Grep(o, nil)
	release := holdBuilder() // a foreground call in flight
	Grep(o, nil)             // queues the build
	for range 50 {
		time.Sleep(time.Millisecond) // every chance to run, were it not waiting
		if liveRoots() != 0 {
			release()
			t.Fatal("the builder built while a foreground call ran")
		}
	}
	compareIndexed2(t, o) // answered meanwhile, without the index
	release()
	waitBuilder(t)
	if liveRoots() != 1 {
		t.Fatalf("not built once the foreground was idle: %+v", IndexStats())
	}
}

// TestIndexConcurrentChurn greps from several goroutines while files change
// and the index is built and rebuilt in the background (for the race
// detector), then checks that the answers, once the writes stop, are those
// of an unindexed grep.
func TestIndexConcurrentChurn(t *testing.T) {
	p := indexPolicy{capMem: 64 << 20}
	useIndex(t, &p)
	root := tree(t, 120)
	o := GrepOptions{Pattern: "alpha 1|beta 2", Path: root}
	Grep(o, nil)
	Grep(o, nil)
	waitBuilder(t)
	if liveRoots() != 1 {
		t.Fatalf("not indexed after two greps: %+v", IndexStats())
	}
	before := IndexStats()
	done := make(chan struct{})
	var wg sync.WaitGroup
	for g := range 3 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-done:
					return
				default:
				}
				mode := []GrepMode{ModeContent, ModeCount, ModeFilesWithMatches}[(g+i)%3]
				if _, err := Grep(GrepOptions{Pattern: "alpha 1|beta 2", Path: root, Mode: mode}, nil); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	for i := range 200 {
		path := filepath.Join(root, fmt.Sprintf("d%d/f%03d.txt", i%5, (i*7)%120))
		mustDo(t, os.WriteFile(path, []byte(fmt.Sprintf("alpha %d\nbeta %d\n", i*3, i)), 0o644))
		if i%50 == 0 {
			mustDo(t, os.MkdirAll(filepath.Join(root, fmt.Sprintf("n%d", i)), 0o755))
			mustDo(t, os.WriteFile(filepath.Join(root, fmt.Sprintf("n%d/x.txt", i)), []byte("alpha 1\n"), 0o644))
		}
	}
	close(done)
	wg.Wait()
	waitBuilder(t)
	if st := IndexStats(); st.Queries == before.Queries || st.Reindexed == before.Reindexed {
		t.Fatalf("the index served no grep during the churn: %+v", st)
	}
	for _, o := range grepCases(root) {
		compareIndexed2(t, o)
	}
}

// TestIndexServesSubdirectories: a grep of a directory under an indexed
// root is served from the root's index, with the answers of an unindexed
// grep (paths relative to the directory, globs matched against them),
// also after edits in it; a directory the root's scan leaves out (hidden,
// ignored) is searched without the index and answers the same.
func TestIndexServesSubdirectories(t *testing.T) {
	root, o := indexedTree(t, 100)
	mustDo(t, os.MkdirAll(filepath.Join(root, ".hid/x"), 0o755))
	mustDo(t, os.WriteFile(filepath.Join(root, ".hid/x/h.txt"), []byte("alpha hidden\n"), 0o644))
	mustDo(t, os.MkdirAll(filepath.Join(root, "ign/y"), 0o755))
	mustDo(t, os.WriteFile(filepath.Join(root, "ign/y/i.txt"), []byte("alpha ignored\n"), 0o644))
	mustDo(t, os.WriteFile(filepath.Join(root, ".ignore"), []byte("ign/\n"), 0o644))
	mustDo(t, os.MkdirAll(filepath.Join(root, "d1/sub"), 0o755))
	mustDo(t, os.WriteFile(filepath.Join(root, "d1/sub/s.txt"), []byte("alpha 1 sub\n"), 0o644))
	o.Hidden = Bool(false)
	Grep(o, nil)
	Grep(o, nil)
	waitBuilder(t)
	if liveRoots() != 1 {
		t.Fatalf("root not indexed: %+v", IndexStats())
	}
	check := func(step, dir string, wantServed bool) {
		t.Helper()
		cases := grepCases(filepath.Join(root, dir))
		for i := range cases {
			cases[i].Hidden = Bool(false)
		}
		compareCases(t, step+" "+dir, cases, wantServed)
	}
	check("before edits", "d1", true)
	check("before edits", "d1/sub", true)
	check("hidden", ".hid", false)
	check("ignored", "ign", false)
	mustDo(t, os.WriteFile(filepath.Join(root, "d1/sub/s.txt"), []byte("omega now\nAlpha beta\n"), 0o644))
	mustDo(t, os.WriteFile(filepath.Join(root, "d1/new.txt"), []byte("gamma9 nowhere_token\n"), 0o644))
	mustDo(t, os.Remove(filepath.Join(root, "d1/f001.txt")))
	check("after edits", "d1", true)
}
