//go:build fscache_faultinject

package main

/*
#include <stdint.h>
*/
import "C"

import fencing "github.com/fscache/fscache/internal/fence"

// The fault-injection hook of a test build of the library (-tags
// fscache_faultinject; make test-faults): no option reaches it, and the
// library of every other build has neither function.

// fscache_faultinject_arm makes the injection point of the goroutine kind
// named kind (internal/fence's Kind names: "walkList", "grepSearch", ...)
// reached after skip others of that kind panic, once. It returns 0, or -1
// for an unknown kind.
//
//export fscache_faultinject_arm
func fscache_faultinject_arm(kind *C.char, skip C.int32_t) C.int32_t {
	if kind == nil {
		return -1
	}
	k, ok := fencing.ParseKind(C.GoString(kind))
	if !ok {
		return -1
	}
	fencing.Arm(k, int(skip))
	return 0
}

// fscache_faultinject_armed returns 1 while an armed point has yet to
// fire, else 0 (and disarms what did not fire when disarm is not 0).
//
//export fscache_faultinject_armed
func fscache_faultinject_armed(disarm C.int32_t) C.int32_t {
	armed := fencing.Armed()
	if disarm != 0 {
		fencing.Disarm()
	}
	if armed {
		return 1
	}
	return 0
}
