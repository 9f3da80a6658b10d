//go:build fscache_faultinject

package fence

import "testing"

func TestFaultPointPanicsOnceAfterSkip(t *testing.T) {
	Arm(GrepFed, 2)
	defer Disarm()
	hits := 0
	for i := range 6 {
		Point(GrepSearch) // another kind: never
		if err := Run(GrepFed, func() { Point(GrepFed) }); err != nil {
			if i != 2 {
				t.Fatalf("panicked at point %d, want 2", i)
			}
			if v, ok := err.Value.(Injected); !ok || v.Kind != GrepFed {
				t.Fatalf("panic value %#v", err.Value)
			}
			hits++
		}
	}
	if hits != 1 || Armed() {
		t.Fatalf("%d panics (want 1), still armed: %v", hits, Armed())
	}
}
