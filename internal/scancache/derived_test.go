package scancache

import (
	"sync"
	"testing"
	"time"

	"github.com/fscache/fscache/internal/walk"
)

// TestDerived checks that a derived value is built once per block and
// key, even by concurrent callers, and that DerivedIfBuilt reports it only
// once it is built, never building it.
func TestDerived(t *testing.T) {
	var s *Block
	for sp := range NewSnapshot([]walk.Entry{{Path: "a"}, {Path: "b"}}, time.Now()).Spans() {
		s = sp.Block
	}
	type key struct{}
	if _, ok := s.DerivedIfBuilt(key{}); ok {
		t.Fatal("DerivedIfBuilt reported a value never built")
	}
	builds := 0
	release := make(chan struct{})
	build := func(es []walk.Entry) any {
		builds++
		<-release
		return len(es)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			if v := s.Derived(key{}, build); v != 2 {
				t.Errorf("Derived = %v, want 2", v)
			}
		})
	}
	time.Sleep(20 * time.Millisecond)
	if _, ok := s.DerivedIfBuilt(key{}); ok {
		t.Error("DerivedIfBuilt reported a value still being built")
	}
	close(release)
	wg.Wait()
	if v, ok := s.DerivedIfBuilt(key{}); !ok || v != 2 {
		t.Errorf("DerivedIfBuilt = %v, %v after the build", v, ok)
	}
	if builds != 1 {
		t.Errorf("built %d times, want once", builds)
	}
	if _, ok := s.DerivedIfBuilt(struct{ other int }{}); ok {
		t.Error("DerivedIfBuilt reported a value for another key")
	}
}
