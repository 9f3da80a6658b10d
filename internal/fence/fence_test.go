package fence

import (
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestRunRecoversAPanicIntoAnError(t *testing.T) {
	if err := Run(GrepSearch, func() {}); err != nil {
		t.Fatalf("Run of a function that returns: %v", err)
	}
	err := Run(GrepSearch, func() { panic("boom") })
	if err == nil || err.Kind != GrepSearch || err.Value != "boom" {
		t.Fatalf("Run of a panicking function: %#v", err)
	}
	if msg := err.Error(); !strings.HasPrefix(msg, "internal error: panic in fscache's grepSearch goroutine: boom\n") ||
		!strings.Contains(msg, "fence_test.go") {
		t.Fatalf("message does not name the kind, the value and the stack:\n%s", msg)
	}
	// A panic passed on from a goroutine below keeps its kind.
	again := Run(Call, func() { panic(err) })
	if again != err {
		t.Fatalf("an *Error re-panicked became %#v", again)
	}
}

func TestGoPassesThePanicToOnPanic(t *testing.T) {
	got := make(chan *Error, 1)
	Go(Matcher, func() { panic(errors.New("bad")) }, func(e *Error) { got <- e })
	select {
	case e := <-got:
		if e.Kind != Matcher || e.Value.(error).Error() != "bad" {
			t.Fatalf("onPanic got %#v", e)
		}
	case <-time.After(time.Minute):
		t.Fatal("onPanic not called in a minute")
	}
	// A panic in onPanic ends nothing but its goroutine.
	done := make(chan struct{})
	Go(Matcher, func() { panic(1) }, func(*Error) { defer close(done); panic(2) })
	<-done
}

func TestGroupWaitsReturnsTheFirstPanicAndStopsTheOthers(t *testing.T) {
	var stop atomic.Int32
	var quit atomic.Int32
	g := Group{Stop: func(e *Error) { stop.Add(1) }}
	for i := range 8 {
		g.Go(WalkList, func() {
			if i%2 == 0 {
				panic(i)
			}
			for stop.Load() == 0 {
				time.Sleep(time.Millisecond)
			}
			quit.Add(1)
		})
	}
	err := g.Wait()
	var fe *Error
	if !errors.As(err, &fe) || fe.Kind != WalkList {
		t.Fatalf("Wait: %v", err)
	}
	if stop.Load() != 1 || quit.Load() != 4 {
		t.Fatalf("Stop called %d times (want 1), %d of 4 others stopped", stop.Load(), quit.Load())
	}
	var ok Group
	ok.Go(WalkList, func() {})
	if err := ok.Wait(); err != nil {
		t.Fatalf("Wait with no panic: %v", err)
	}
}

func TestBackgroundRecordsTheDrop(t *testing.T) {
	before := Dropped()[HeapRelease.String()].Count
	done := make(chan struct{})
	Background(HeapRelease, func() { defer close(done); panic("gone") })
	<-done
	for i := 0; Dropped()[HeapRelease.String()].Count == before; i++ {
		if i > 60000 {
			t.Fatal("the drop was not recorded in a minute")
		}
		time.Sleep(time.Millisecond)
	}
	d := Dropped()[HeapRelease.String()]
	if d.Count != before+1 || d.Reason != "panic in heapRelease: gone" {
		t.Fatalf("Dropped: %+v", d)
	}
}

func TestUnwindCleansUpOnAPanicOnly(t *testing.T) {
	cleaned := 0
	func() {
		defer Unwind(func() { cleaned++ })
	}()
	if cleaned != 0 {
		t.Fatal("Unwind cleaned up after a return")
	}
	err := Run(IndexBuild, func() {
		defer Unwind(func() { cleaned++ })
		panic("mid-build")
	})
	if cleaned != 1 || err == nil || err.Value != "mid-build" {
		t.Fatalf("cleaned %d times, error %v", cleaned, err)
	}
}

func TestKindNames(t *testing.T) {
	for _, k := range Kinds() {
		if got, ok := ParseKind(k.String()); !ok || got != k || strings.HasPrefix(k.String(), "kind(") {
			t.Errorf("kind %d: name %q parses to %v, %v", k, k.String(), got, ok)
		}
	}
	if _, ok := ParseKind("nope"); ok {
		t.Error("an unknown name parsed")
	}
}
