//go:build unix

package engine

import (
	"math/rand"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkCancelLatency measures how long a call takes to return once its
// abort flag is raised, in three long calls: a glob walking 120k files, a
// grep of one 4 MiB line against "a[ab]{100}c" (the lazy DFA gives up: the
// NFA simulation runs) and a backtracking match, `(\w+)\1x` over a 4 MiB
// line. Each iteration starts the call, raises the flag after a random
// 5-25 ms of work and times the return; the metrics are the median and the
// 99th percentile of those latencies (p50-ms, p99-ms) and how many calls
// ended otherwise than aborted (missed: finished first). The goal is a p99
// of 50 ms at most, idle or beside CPU hogs (make bench-cancel runs both).
// Run it with a fixed count, say -benchtime 100x.
func BenchmarkCancelLatency(b *testing.B) {
	tree := tree120k(b)
	b.Run("glob-120k", func(b *testing.B) {
		root := tree
		benchCancel(b, func(c Cancel) error {
			_, err := Glob(GlobOptions{Pattern: "**/f*9", Path: root, Cancel: c}, nil)
			return err
		})
	})
	b.Run("grep-nfa-4MiB-line", func(b *testing.B) {
		root := abLineEnding(b, "", maxFileSize)
		benchCancel(b, func(c Cancel) error {
			_, err := Grep(GrepOptions{Pattern: "a[ab]{100}c", Path: root, Cancel: c}, nil)
			return err
		})
	})
	b.Run("grep-backtrack-4MiB-line", func(b *testing.B) {
		root := abLineEnding(b, "x", maxFileSize)
		benchCancel(b, func(c Cancel) error {
			_, err := Grep(GrepOptions{Pattern: `(\w+)\1x`, Path: root, Cancel: c}, nil)
			return err
		})
	})
}

// benchCancel runs op b.N times, raising its flag after a random 5-25 ms,
// and reports the latencies from the flag to the return.
func benchCancel(b *testing.B, op call) {
	r := rand.New(rand.NewSource(1))
	base := runtime.NumGoroutine()
	var lat []time.Duration
	missed := 0
	for b.Loop() {
		var flag atomic.Bool
		done := make(chan error, 1)
		go func() { done <- op(Cancel{Aborted: flag.Load}) }()
		time.Sleep(time.Duration(5+r.Intn(21)) * time.Millisecond)
		raised := time.Now()
		flag.Store(true)
		err := <-done
		d := time.Since(raised)
		if e, ok := err.(*Error); !ok || e.Code != CodeAborted {
			missed++
			continue
		}
		lat = append(lat, d)
		// A backtracking run abandoned by its call ends within its line
		// budget: wait for it, so that it does not load the next sample.
		for end := time.Now().Add(5 * time.Second); runtime.NumGoroutine() > base && time.Now().Before(end); {
			time.Sleep(time.Millisecond)
		}
	}
	b.StopTimer()
	if len(lat) == 0 {
		b.Fatalf("no call was aborted (%d finished first)", missed)
	}
	slices.Sort(lat)
	pct := func(p float64) float64 {
		return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))]) / float64(time.Millisecond)
	}
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
	b.ReportMetric(float64(lat[len(lat)-1])/float64(time.Millisecond), "max-ms")
	b.ReportMetric(float64(missed), "missed")
	b.ReportMetric(0, "ns/op")
}
