//go:build !fscache_faultinject

package fence

// Injectable reports whether this build can inject faults (Arm): only a
// build with the tag fscache_faultinject can.
const Injectable = false

// Point marks a place in a goroutine of kind k where a test build panics
// when armed (Arm); here it does nothing.
func Point(k Kind) {}
