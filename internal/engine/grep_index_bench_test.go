//go:build linux

package engine

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fscache/fscache/internal/scancache"
)

// TestIndexBenchGoroot measures indexed grep over $GOROOT/src against the
// same greps without an index, alternating the two, and prints a table
// (make bench-index). It asserts nothing and runs only with
// FSCACHE_BENCH_INDEX=1. FSCACHE_BENCH_INDEX_OUT names a file for the
// table as well.
func TestIndexBenchGoroot(t *testing.T) {
	if os.Getenv("FSCACHE_BENCH_INDEX") == "" {
		t.Skip("FSCACHE_BENCH_INDEX=1 runs the indexed grep benchmark")
	}
	rounds := 15
	p := indexPolicy{capMem: defaultIndexMB << 20}
	useIndex(t, &p)
	// A copy of $GOROOT/src, so that the edit measure below writes into
	// a tree of ours.
	root, _ := filepath.EvalSymlinks(t.TempDir())
	root = filepath.Join(root, "src")
	if out, err := exec.Command("cp", "-a", filepath.Join(goroot(t), "src"), root).CombinedOutput(); err != nil {
		t.Fatalf("copying GOROOT/src: %v %s", err, out)
	}
	gi := indexes
	var out strings.Builder
	say := func(format string, args ...any) {
		fmt.Fprintf(&out, format, args...)
		t.Logf(format, args...)
	}
	unindexed := func(o GrepOptions) (GrepResult, time.Duration) {
		set(nil)
		defer func() { indexes = gi }()
		t0 := time.Now()
		res, err := Grep(o, nil)
		if err != nil {
			t.Fatal(err)
		}
		return res, time.Since(t0)
	}
	// One full grep, then the build alone, as the background builder runs
	// it (without yielding: nothing else runs).
	literal := GrepOptions{Pattern: "ErrUnexpectedEOF", Path: root}
	_, full := unindexed(literal)
	var fulls []time.Duration
	for range 5 {
		_, d := unindexed(literal)
		fulls = append(fulls, d)
	}
	full = median(fulls)
	key := scancache.Key{Root: root, Hidden: true, Gitignore: true, SkipNodeModules: true}
	r, _ := gi.note(key, time.Now())
	var builds, buildCPU []time.Duration
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	for i := range 3 {
		if i > 0 {
			gi.mu.Lock()
			gi.forget(r)
			gi.mu.Unlock()
			r, _ = gi.note(key, time.Now())
		}
		c0 := cpuTime(rusageThread)
		t0 := time.Now()
		if err := gi.build(r, nil, false); err != nil {
			t.Fatal(err)
		}
		builds = append(builds, time.Since(t0))
		buildCPU = append(buildCPU, cpuTime(rusageThread)-c0)
	}
	var fullCPU []time.Duration
	for range 5 {
		c0 := cpuTime(rusageSelf)
		unindexed(literal)
		fullCPU = append(fullCPU, cpuTime(rusageSelf)-c0)
	}
	st := IndexStats()
	say("## Indexed grep over a copy of $GOROOT/src (%d files, %.1f MB of text indexed)\n\n", st.Files, float64(st.Bytes)/1e6)
	say("| measure | value |\n| --- | --- |\n")
	say("| one full grep (unindexed literal, median of 5) | %.1f ms |\n", ms(full))
	say("| one full grep, CPU time (all threads) | %.1f ms |\n", ms(median(fullCPU)))
	say("| index build (median of 3, one goroutine), wall | %.1f ms (%.2fx one full grep) |\n", ms(median(builds)), float64(median(builds))/float64(full))
	say("| index build, CPU time of its thread | %.1f ms (%.2fx one full grep's CPU time) |\n", ms(median(buildCPU)), float64(median(buildCPU))/float64(median(fullCPU)))
	say("| index memory | %.1f MB: %.3f bytes per indexed byte, %.0f bytes per file |\n", float64(st.IndexBytes)/1e6,
		float64(st.IndexBytes)/float64(st.Bytes), float64(st.IndexBytes)/float64(st.Files))
	say("\n| grep (median of %d, alternated) | indexed ms | FS_GREP_INDEX=0 ms | ratio | files searched by the indexed grep |\n| --- | --- | --- | --- | --- |\n", rounds)
	cases := []struct {
		name string
		o    GrepOptions
	}{
		{"literal", literal},
		{"literal phrase", GrepOptions{Pattern: "unexpected end of JSON input", Path: root}},
		{"regex with a literal", GrepOptions{Pattern: `func \w+Marshal\w*\(`, Path: root}},
		{"ignoreCase", GrepOptions{Pattern: "errunexpectedeof", IgnoreCase: true, Path: root}},
		{"alternation", GrepOptions{Pattern: "ErrShortWrite|ErrShortBuffer|ErrNoProgress", Path: root}},
		{"a token that occurs nowhere", GrepOptions{Pattern: "zzqxjv_nowhere_token", Path: root}},
		{"filesWithMatches", GrepOptions{Pattern: "ErrUnexpectedEOF", Path: root, Mode: ModeFilesWithMatches}},
		{"glob-filtered", GrepOptions{Pattern: "ErrUnexpectedEOF", Path: root, Glob: "*_test.go"}},
		{"count", GrepOptions{Pattern: "ErrUnexpectedEOF", Path: root, Mode: ModeCount}},
		{"no literal", GrepOptions{Pattern: `\w+_\w+\(`, Path: root}},
	}
	for _, c := range cases {
		var with, without []time.Duration
		var cands int64
		for range rounds {
			before := IndexStats()
			t0 := time.Now()
			a, err := Grep(c.o, nil)
			if err != nil {
				t.Fatal(err)
			}
			with = append(with, time.Since(t0))
			after := IndexStats()
			cands = after.Candidates - before.Candidates
			if after.Queries == before.Queries {
				cands = -1
			}
			b, d := unindexed(c.o)
			without = append(without, d)
			if a.TotalMatches != b.TotalMatches || a.FilesSearched != b.FilesSearched || len(a.Matches) != len(b.Matches) {
				t.Fatalf("%s: indexed and unindexed answers differ", c.name)
			}
		}
		searched := fmt.Sprint(cands)
		if cands < 0 {
			searched = "(not served: no trigram)"
		}
		say("| %s | %.2f | %.2f | %.3f | %s |\n", c.name, ms(median(with)), ms(median(without)),
			float64(median(with))/float64(median(without)), searched)
	}
	// From an edit to the first correct answer.
	edit := filepath.Join(root, "zz_fscache_index_bench_edit.go")
	var edits []time.Duration
	for i := range 5 {
		token := fmt.Sprintf("fscacheEditToken%d", i)
		if err := os.WriteFile(edit, []byte("package src\n// "+token+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		t0 := time.Now()
		res, err := Grep(GrepOptions{Pattern: token, Path: root}, nil)
		edits = append(edits, time.Since(t0))
		if err != nil || res.TotalMatches != 1 {
			t.Fatalf("edit %d: %+v %v", i, res, err)
		}
	}
	os.Remove(edit)
	say("\n| from an edit (a new file with a new token) to the first correct answer, median of 5 | %.2f ms |\n", ms(median(edits)))
	st = IndexStats()
	say("\nstats: queries %d, candidates %d, skipped %d, reindexed %d, fallbacks %v\n", st.Queries, st.Candidates, st.Skipped, st.Reindexed, st.Fallbacks)
	if f := os.Getenv("FSCACHE_BENCH_INDEX_OUT"); f != "" {
		os.MkdirAll(filepath.Dir(f), 0o755)
		if err := os.WriteFile(f, []byte(out.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func median(ds []time.Duration) time.Duration {
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[len(s)/2]
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

const (
	rusageSelf   = 0
	rusageThread = 1 // Linux RUSAGE_THREAD
)

// cpuTime is the user plus system time of the process or of the calling
// thread.
func cpuTime(who int) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
