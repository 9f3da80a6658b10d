// Package fence starts and runs the library's goroutines so that a panic in
// one never ends the host process: Go exits the whole process on a panic
// no goroutine recovers, and fscache runs inside the agent's. A panic in a
// goroutine that works for a call becomes the call's error (*Error, code
// internal once it reaches the engine's caller), and the goroutine's
// siblings are told to stop; one with no call to report to (a background
// build, fill or release) drops its work, and the drop is recorded
// (Dropped, in cacheStats()).
//
// Point marks where a test build (-tags fscache_faultinject, Arm) panics in
// each kind of goroutine; in every other build it does nothing.
package fence

import (
	"fmt"
	"runtime/debug"
	"sync"
)

// Kind is a kind of goroutine the library starts: what Point and Arm are
// keyed by, and what Error and Dropped name.
type Kind uint8

// The kinds of goroutine.
const (
	// WalkList lists directories for a scan (internal/walk's listers).
	WalkList Kind = iota
	// WalkFinish orders and stats a scan's listed directories.
	WalkFinish
	// WalkVisit is fastwalk's callback (internal/walk's WalkSub, and Scan
	// where it lists with fastwalk).
	WalkVisit
	// Call runs a C call's work off the calling thread (capi).
	Call
	// GrepSearch searches files for a grep with its list complete.
	GrepSearch
	// GrepFed searches files for a grep fed as its list is formed.
	GrepFed
	// Matcher runs a backtracking search of one file.
	Matcher
	// Timer watches a call's deadline and abort flag (internal/cancel).
	Timer
	// IndexBuild builds grep's content indexes in the background.
	IndexBuild
	// HeapRelease returns the heap to the system once calls pause.
	HeapRelease
	// WatchedFill fills a watched scan in the background.
	WatchedFill
	// WatchClose closes a watcher off the caller's path.
	WatchClose
	// GlobJSON encodes cached blocks' glob JSON after a call returned.
	GlobJSON
	// Finalizer is a finalizer or cleanup the runtime runs (the GC pacer,
	// an index's mapping).
	Finalizer
	numKinds
)

var kindNames = [numKinds]string{
	WalkList: "walkList", WalkFinish: "walkFinish", WalkVisit: "walkVisit", Call: "call",
	GrepSearch: "grepSearch", GrepFed: "grepFed", Matcher: "matcher", Timer: "timer",
	IndexBuild: "indexBuild", HeapRelease: "heapRelease", WatchedFill: "watchedFill",
	WatchClose: "watchClose", GlobJSON: "globJSON", Finalizer: "finalizer",
}

func (k Kind) String() string {
	if k < numKinds {
		return kindNames[k]
	}
	return fmt.Sprintf("kind(%d)", k)
}

// Kinds returns every kind, in order.
func Kinds() []Kind {
	ks := make([]Kind, numKinds)
	for i := range ks {
		ks[i] = Kind(i)
	}
	return ks
}

// ParseKind returns the kind named name (as Kind.String spells it).
func ParseKind(name string) (Kind, bool) {
	for i, n := range kindNames {
		if n == name {
			return Kind(i), true
		}
	}
	return 0, false
}

// Error is a panic recovered in a goroutine of kind Kind.
type Error struct {
	Kind  Kind
	Value any    // what was passed to panic
	Stack string // the panicking goroutine's stack
}

func (e *Error) Error() string {
	return fmt.Sprintf("internal error: panic in fscache's %s goroutine: %v\n%s", e.Kind, e.Value, e.Stack)
}

// Recovered makes the Error of r, recovered in a goroutine of kind k by a
// deferred function of the caller's (where Run's closure would cost an
// allocation per call): an *Error passed on from below is kept as it is.
func Recovered(k Kind, r any) *Error {
	if e, ok := r.(*Error); ok {
		return e
	}
	return &Error{Kind: k, Value: r, Stack: string(debug.Stack())}
}

// Run calls f on this goroutine and returns a panic in it as an *Error (nil
// when f returns).
func Run(k Kind, f func()) (err *Error) {
	defer func() {
		if r := recover(); r != nil {
			err = Recovered(k, r)
		}
	}()
	f()
	return nil
}

// Go runs f on a new goroutine of kind k. A panic in f ends the goroutine
// and is passed to onPanic (when not nil), on that goroutine, which tells
// the call it works for.
func Go(k Kind, f func(), onPanic func(*Error)) {
	go func() {
		if err := Run(k, f); err != nil && onPanic != nil {
			_ = Run(k, func() { onPanic(err) }) // (a panic here is dropped: the process lives)
		}
	}()
}

// Background runs f on a new goroutine of kind k that no call waits for:
// a panic in f drops f's work and is recorded (Dropped).
func Background(k Kind, f func()) {
	go func() {
		if err := Run(k, f); err != nil {
			Drop(k, err)
		}
	}()
}

// Group runs goroutines for one call and waits for them, like a
// sync.WaitGroup: Wait returns the first panic among them as an *Error.
// Stop, when not nil, is called once, at the first panic, from the
// panicking goroutine, to make the others stop early.
type Group struct {
	Stop func(*Error)

	wg   sync.WaitGroup
	mu   sync.Mutex
	err  *Error
	once sync.Once
}

// Go runs f on a new goroutine of kind k in g.
func (g *Group) Go(k Kind, f func()) {
	g.wg.Go(func() {
		if err := Run(k, f); err != nil {
			g.fail(err)
		}
	})
}

// fail records err, the first panic only, and tells the others to stop.
func (g *Group) fail(err *Error) {
	g.mu.Lock()
	first := g.err == nil
	if first {
		g.err = err
	}
	g.mu.Unlock()
	if first && g.Stop != nil {
		g.once.Do(func() { _ = Run(err.Kind, func() { g.Stop(err) }) })
	}
}

// Wait waits for every goroutine of g and returns the first panic, or nil
// (an error interface holding no *Error when none panicked).
func (g *Group) Wait() error {
	g.wg.Wait()
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.err == nil {
		return nil
	}
	return g.err
}

// Unwind, deferred, runs cleanup when the function is being left by a
// panic (and not otherwise), then goes on panicking: what the function
// held is released before a fence further up recovers.
func Unwind(cleanup func()) {
	if r := recover(); r != nil {
		cleanup()
		panic(r)
	}
}
