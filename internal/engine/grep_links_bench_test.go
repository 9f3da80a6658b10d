//go:build linux

package engine

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestIndexBenchLinked measures a repeated rare grep (pi's: limit 100)
// over a `cp -al` copy of $GOROOT/src, every file of which has a second
// name (issue 45), once the index is built, with the live index (memory)
// and with the published one in a watching process, and over a plain copy
// (`cp -a`) for comparison. It asserts nothing
// and runs only with FSCACHE_BENCH_LINKS=1.
func TestIndexBenchLinked(t *testing.T) {
	if os.Getenv("FSCACHE_BENCH_LINKS") == "" {
		t.Skip("FSCACHE_BENCH_LINKS=1 runs the hard-linked tree benchmark")
	}
	for _, c := range []struct {
		cp   string
		disk bool
	}{{"-al", false}, {"-al", true}, {"-a", false}} {
		disk := c.disk
		if disk {
			useDiskIndex(t, t.TempDir(), true, false)
		} else {
			useIndex(t, &indexPolicy{capMem: defaultIndexMB << 20})
		}
		tmp, _ := filepath.EvalSymlinks(t.TempDir())
		root := filepath.Join(tmp, "src")
		if out, err := exec.Command("cp", c.cp, filepath.Join(goroot(t), "src"), root).CombinedOutput(); err != nil {
			t.Fatalf("cp -al: %v %s", err, out)
		}
		o := GrepOptions{Pattern: "NewReplacer", Path: root, MaxCount: Int(100)}
		for range 2 {
			if _, err := Grep(o, nil); err != nil {
				t.Fatal(err)
			}
		}
		waitNoBuilder(t, indexes)
		time.Sleep(100 * time.Millisecond)
		var ds []time.Duration
		var res GrepResult
		s0 := IndexStats()
		for range 21 {
			t0 := time.Now()
			var err error
			if res, err = Grep(o, nil); err != nil {
				t.Fatal(err)
			}
			ds = append(ds, time.Since(t0))
		}
		s := IndexStats()
		t.Logf("cp %s, disk=%t: %d matches, first %v, median %v (min %v), per grep: %d candidates, %d skipped, index %d files %d bytes",
			c.cp, disk, len(res.Matches), ds[0], median(ds), minOf(ds), (s.Candidates-s0.Candidates)/21, (s.Skipped-s0.Skipped)/21, s.Files, s.Bytes)
	}
}

func minOf(ds []time.Duration) time.Duration {
	m := ds[0]
	for _, d := range ds {
		m = min(m, d)
	}
	return m
}
