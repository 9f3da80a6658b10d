// Package gcpace gives the library's Go runtime a minimum heap goal.
//
// libfscache runs its own Go runtime inside the host process. Without a
// scan cache its live heap is a megabyte or two, so with the default GOGC
// of 100 the collector runs at every 4 MB allocated: two or three times
// during one uncached glob of a 12k-file tree, each cycle stopping the
// world and running mark workers on the host's cores (on 2 cores that was
// 15% of the find tool's glob). Start raises GOGC while the live heap is
// small so that the heap goal is about minGoal, and lets it fall back to
// 100 as the live heap grows past minGoal/2: the library then holds at most
// minGoal of heap that the default would have collected sooner, and a
// process with a large cache gets exactly the default behaviour.
//
// The runtime offers no minimum heap setting. Its own floor is
// 4 MB * GOGC/100, so GOGC is capped at minGoal/4 MB * 100 to keep the
// goal near minGoal rather than above it.
package gcpace

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"

	"github.com/fscache/fscache/internal/fence"
)

// runtimeFloor is the runtime's minimum heap goal at GOGC=100
// (defaultHeapMinimum in runtime/mgcpacer.go).
const runtimeFloor = 4 << 20

// Percent returns the GOGC that puts the heap goal of a live heap of live
// bytes at about minGoal, never below 100 (the default) nor above what
// makes the runtime's own floor exceed minGoal.
func Percent(live, minGoal uint64) int {
	ceiling := int(minGoal * 100 / runtimeFloor)
	if ceiling <= 100 {
		return 100
	}
	if live == 0 {
		return ceiling
	}
	if 2*live >= minGoal {
		return 100
	}
	p := int((minGoal - live) * 100 / live)
	return max(100, min(p, ceiling))
}

// Start keeps the heap goal near minGoal bytes, adjusting GOGC after every
// collection. It does nothing when the GOGC environment variable is set:
// the user's choice stands. Call it once, at start-up.
func Start(minGoal uint64) {
	if os.Getenv("GOGC") != "" {
		return
	}
	start(minGoal)
}

func start(minGoal uint64) *pacer {
	p := &pacer{minGoal: minGoal, sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
	p.percent.Store(int32(Percent(0, minGoal)))
	debug.SetGCPercent(int(p.percent.Load()))
	p.arm()
	return p
}

// pacer is the state of the finalizer chain: each collection frees the
// sentinel armed before it and runs adjust.
type pacer struct {
	minGoal uint64
	percent atomic.Int32 // the GOGC set last
	sample  []metrics.Sample
	stopped atomic.Bool // ends the chain (tests)
}

// sentinel is collected at the next cycle; it holds a pointer so that it
// is never a tiny allocation sharing a block with something live.
type sentinel struct{ p *pacer }

func (p *pacer) arm() {
	runtime.SetFinalizer(&sentinel{p: p}, func(s *sentinel) {
		if s.p.stopped.Load() {
			return
		}
		// On the runtime's finalizer goroutine: a panic is recorded,
		// that cycle's adjustment dropped, and the chain goes on.
		if err := fence.Run(fence.Finalizer, func() {
			fence.Point(fence.Finalizer)
			s.p.adjust()
		}); err != nil {
			fence.Drop(fence.Finalizer, err)
		}
		s.p.arm()
	})
}

// adjust sets GOGC for the live heap the last collection found. It runs
// on the runtime's finalizer goroutine, one call at a time.
func (p *pacer) adjust() {
	metrics.Read(p.sample)
	if p.sample[0].Value.Kind() != metrics.KindUint64 {
		return
	}
	want := Percent(p.sample[0].Value.Uint64(), p.minGoal)
	// Small changes are not worth the pacer's recomputation.
	cur := int(p.percent.Load())
	if d := want - cur; d > cur/8 || -d > cur/8 {
		p.percent.Store(int32(want))
		debug.SetGCPercent(want)
	}
}
