package regex

import (
	"testing"

	"golang.org/x/sys/cpu"
)

// TestHasAVX2 checks the library's own CPU detection against
// golang.org/x/sys/cpu's, which the library no longer loads.
func TestHasAVX2(t *testing.T) {
	if got, want := hasAVX2(), cpu.X86.HasAVX2; got != want {
		t.Fatalf("hasAVX2() = %v, golang.org/x/sys/cpu says %v", got, want)
	}
	detectCPU()
	if useAVX2 != cpu.X86.HasAVX2 {
		t.Fatalf("after detectCPU, useAVX2 = %v, want %v", useAVX2, cpu.X86.HasAVX2)
	}
}
