//go:build cgo

package main

import "testing"

// TestCThreadGoroutines: the parked goroutine Go keeps for a C thread (one
// frame, runtime.goexit) is told apart from goroutines at work.
func TestCThreadGoroutines(t *testing.T) {
	stacks := "goroutine 18 [running, locked to thread]:\nmain.fscache_debug_goroutine_stacks()\n\t/x/debug.go:37 +0x65\n\n" +
		"goroutine 17 [syscall, locked to thread]:\nruntime.goexit({})\n\t/go/src/runtime/asm_amd64.s:1771 +0x1\n\n" +
		"goroutine 35 [syscall, locked to thread]:\nruntime.goexit({})\n\t/go/src/runtime/asm_amd64.s:1771 +0x1\n\n" +
		"goroutine 40 [chan receive]:\nmain.spawn.func1()\n\t/x/main.go:90\nruntime.goexit({})\n\t/go/src/runtime/asm_amd64.s:1771 +0x1\n"
	if n := cThreadGoroutines([]byte(stacks)); n != 2 {
		t.Fatalf("counted %d C-thread goroutines, want 2", n)
	}
	if n := int(fscache_go_debug_goroutines()); n < 1 {
		t.Fatalf("fscache_go_debug_goroutines() = %d", n)
	}
}
