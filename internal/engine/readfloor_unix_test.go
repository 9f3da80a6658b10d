//go:build unix

package engine

import (
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/fscache/fscache/internal/walk"
)

// BenchmarkReadFloor is what a grep of FSCACHE_BENCH_REPO can not go below
// with one open, one read and one close per file: the files a grep searches
// (glob's "**/*" files, hidden included), read on GOMAXPROCS goroutines by
// absolute path with bare system calls, searching nothing. Compare it with
// BenchmarkGrepRepo/nowhere-cached in the same run.
func BenchmarkReadFloor(b *testing.B) {
	root := os.Getenv("FSCACHE_BENCH_REPO")
	if root == "" {
		b.Skip("FSCACHE_BENCH_REPO names no repository")
	}
	res, err := Glob(GlobOptions{Pattern: "**/*", Path: root, FileType: walk.File, Hidden: true}, nil)
	if err != nil {
		b.Fatal(err)
	}
	paths := make([][]byte, len(res.Matches))
	for i, m := range res.Matches {
		paths[i] = append([]byte(root+"/"+m.Path), 0)
	}
	for b.Loop() {
		var next atomic.Int64
		var wg sync.WaitGroup
		for range runtime.GOMAXPROCS(0) {
			wg.Go(func() {
				buf := make([]byte, 256<<10)
				for {
					i := int(next.Add(1)) - 1
					if i >= len(paths) {
						return
					}
					fd, err := openat(cwdDir, paths[i])
					if err != nil {
						continue
					}
					syscall.Read(fd, buf)
					syscall.Close(fd)
				}
			})
		}
		wg.Wait()
	}
	b.ReportMetric(float64(len(paths)), "files")
}
