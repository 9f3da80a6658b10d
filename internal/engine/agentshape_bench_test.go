package engine

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/fscache/fscache/internal/scancache"
)

// agentRoot is the tree of the agent-shape benchmarks: FSCACHE_BENCH_REPO,
// else Go's src.
func agentRoot(b *testing.B) string {
	if r := os.Getenv("FSCACHE_BENCH_REPO"); r != "" {
		return r
	}
	r := filepath.Join(runtime.GOROOT(), "src")
	if _, err := os.Stat(r); err != nil {
		b.Skip("no GOROOT/src")
	}
	return r
}

// BenchmarkAgentShapes: the agent's uncached calls (oh-my-pi v18.0.0's
// glob tool, discovery glob and listWorkspace shapes), repeated, as they
// are served once the root is watched (the third call on).
func BenchmarkAgentShapes(b *testing.B) {
	root := agentRoot(b)
	b.Run("globtool", func(b *testing.B) {
		o := GlobOptions{Pattern: "**/*.go", Path: root, MaxResults: Int(200), SortByMtime: true, Gitignore: Bool(true), Recursive: Bool(false)}
		benchGlob(b, o, func(GlobMatch) error { return nil })
	})
	b.Run("discovery", func(b *testing.B) {
		o := GlobOptions{Pattern: "**/*.{ts,js}", Path: root, Gitignore: Bool(true), FileType: 1, Recursive: Bool(true)}
		benchGlob(b, o, nil)
	})
	for _, l := range []ListWorkspaceOptions{
		{Path: root, MaxDepth: 2, Hidden: true, Gitignore: Bool(false)},
		{Path: root, MaxDepth: 3, Gitignore: Bool(true), CollectAgentsMd: true},
	} {
		b.Run("listWorkspace", func(b *testing.B) {
			for i := 0; i < 3+b.N; i++ {
				if i == 3 {
					b.ResetTimer()
				}
				if _, err := ListWorkspace(l); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func benchGlob(b *testing.B, o GlobOptions, onMatch func(GlobMatch) error) {
	for i := 0; i < 3+b.N; i++ {
		if i == 3 {
			b.ResetTimer()
		}
		if _, err := Glob(o, onMatch); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAgentGrep: the agent's grep tool shape, repeated with the root
// indexed (built before the timing), for a literal found in few files and
// one found in most, which reaches maxCount.
func BenchmarkAgentGrep(b *testing.B) {
	root := agentRoot(b)
	for _, pat := range []string{"ErrUnexpectedEOF", "err != nil"} {
		b.Run(pat, func(b *testing.B) {
			o := GrepOptions{Pattern: pat, Path: root, Hidden: Bool(true), Gitignore: Bool(true), MaxCount: Int(2000),
				MaxCountPerFile: Int(21), ContextBefore: Int(1), ContextAfter: Int(3), MaxColumns: Int(512)}
			benchIndexedGrep(b, o)
		})
	}
}

// benchIndexedGrep times o repeated, after three calls and the index
// build they start.
func benchIndexedGrep(b *testing.B, o GrepOptions) {
	for range 3 {
		if _, err := Grep(o, nil); err != nil {
			b.Fatal(err)
		}
	}
	if gi := grepIndex(); gi != nil {
		waitIndexed(b, gi)
	}
	b.ResetTimer()
	for range b.N {
		if _, err := Grep(o, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// waitIndexed waits (at most a minute) until gi's builder has ended.
func waitIndexed(b *testing.B, gi *grepIndexes) {
	for i := 0; i < 60000; i++ {
		gi.mu.Lock()
		busy := gi.building
		gi.mu.Unlock()
		if !busy {
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// BenchmarkPiGrep: pi's grep tool shape (bindings/pi-fscache: no cache, the
// default limit of 100 matches, the line text read by the tool), repeated
// with the root indexed, for a common identifier (the limit is reached in
// the first files), the same with a limit of 1, and a rare one.
func BenchmarkPiGrep(b *testing.B) {
	root := agentRoot(b)
	for _, c := range []struct {
		name, pattern string
		max           int
	}{{"err", "err", 100}, {"err-max1", "err", 1}, {"NewReplacer", "NewReplacer", 100}} {
		b.Run(c.name, func(b *testing.B) {
			o := GrepOptions{Pattern: c.pattern, Path: root, Hidden: Bool(true), Gitignore: Bool(true), MaxCount: Int(c.max),
				MaxColumns: Int(4)}
			benchIndexedGrep(b, o)
		})
	}
}

// BenchmarkFirstAgentGrep: the agent's grep tool shape for a pattern that
// reaches maxCount, as the first call of a process: every iteration starts
// with a fresh scan cache (the environment's policy) and fresh grep indexes
// whose directory is empty, or FSCACHE_BENCH_INDEX_DIR when set (an index
// directory holding the root's published index: a fresh process's first
// grep with it).
func BenchmarkFirstAgentGrep(b *testing.B) {
	root := agentRoot(b)
	scanCache()
	grepIndex()
	oldCache, oldIdx := cache, indexes
	b.Cleanup(func() { cache, indexes = oldCache, oldIdx })
	dir := os.Getenv("FSCACHE_BENCH_INDEX_DIR")
	if dir == "" {
		dir = b.TempDir()
	}
	o := GrepOptions{Pattern: "err != nil", Path: root, Hidden: Bool(true), Gitignore: Bool(true), MaxCount: Int(2000),
		MaxCountPerFile: Int(21), ContextBefore: Int(1), ContextAfter: Int(3), MaxColumns: Int(512)}
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		if indexes != nil {
			indexes.dropAll()
		}
		cache = scancache.New(scancache.PolicyFromEnv(), nil)
		p := indexPolicyFromEnv()
		p.dir = dir
		indexes = &grepIndexes{policy: p, roots: map[scancache.Key]*indexedRoot{}}
		b.StartTimer()
		if _, err := Grep(o, nil); err != nil {
			b.Fatal(err)
		}
	}
}
