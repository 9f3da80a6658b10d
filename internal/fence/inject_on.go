//go:build fscache_faultinject

package fence

import "sync/atomic"

// Injectable reports whether this build can inject faults (Arm): this one,
// built with the tag fscache_faultinject, can. No option reaches it; the
// tests arm it (and the C library of this build exports
// fscache_faultinject_arm).
const Injectable = true

// armed is the kind armed plus one (0: none), left the points of that kind
// to pass before the one that panics.
var (
	armed atomic.Int32
	left  atomic.Int64
)

// Injected is the value an armed Point panics with.
type Injected struct{ Kind Kind }

func (i Injected) String() string { return "fault injected in " + i.Kind.String() }

// Arm makes the point of kind k reached after skip others of that kind
// panic, once; it replaces what was armed before.
func Arm(k Kind, skip int) {
	armed.Store(0)
	left.Store(int64(skip))
	armed.Store(int32(k) + 1)
}

// Disarm cancels what Arm armed, if it has not fired.
func Disarm() { armed.Store(0) }

// Armed reports whether an armed point has yet to fire.
func Armed() bool { return armed.Load() != 0 }

// Point marks a place in a goroutine of kind k; armed for k (Arm), it
// panics there.
func Point(k Kind) {
	a := int32(k) + 1
	if armed.Load() != a || left.Add(-1) >= 0 {
		return
	}
	if armed.CompareAndSwap(a, 0) {
		panic(Injected{k})
	}
}
