package main

/*
#cgo CFLAGS: -I${SRCDIR}/../include
#include "signals.h"
*/
import "C"

// The C ABI's functions are C wrappers (exports.c) around the Go exports
// named fscache_go_*, so that the library can keep the host's signal
// handlers as the host installed them: signals.c has the argument.

// init puts back, once more, the host's signal handlers that the Go
// runtime changed while the library loaded. The constructor that runs
// after Go's already did it; this makes the outcome independent of the
// constructors' order. It is idempotent: only a handler still exactly as
// Go left it is restored.
func init() { C.fscache_signals_restore() }
