package regex

import "sync"

// hasIndexPair reports whether indexPair is implemented (in assembly).
const hasIndexPair = true

// useAVX2 selects indexPair's 32-byte loop (AVX2); SSE2, 16 bytes at a
// time, otherwise and for a last 16 bytes. detectCPU sets it, before the
// first finder that uses indexPair is made (a test turns it off to check
// the SSE2 loop alone).
var useAVX2 bool

// detectCPU sets useAVX2 once, at the first literal search that needs it
// rather than at package initialisation: golang.org/x/sys/cpu's
// initialisation ran six CPUIDs and an XGETBV in every process that loads
// the library, CPUID a trap to the hypervisor on a virtual machine (0.037
// ms of GODEBUG=inittrace=1 here). This runs three and the XGETBV, once.
var detectCPU = sync.OnceFunc(func() { useAVX2 = hasAVX2() })

// hasAVX2 reports whether the CPU has AVX2 and the OS saves the YMM
// registers: CPUID leaf 1 ECX's OSXSAVE (27) and AVX (28), XCR0's SSE and
// AVX state (bits 1 and 2), and CPUID leaf 7 EBX's AVX2 (5).
func hasAVX2() bool {
	maxLeaf, _, _, _ := cpuid(0, 0)
	if maxLeaf < 7 {
		return false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	if ecx1&(1<<27) == 0 || ecx1&(1<<28) == 0 || xcr0()&6 != 6 {
		return false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	return ebx7&(1<<5) != 0
}

// cpuid executes CPUID with EAX=leaf and ECX=sub.
func cpuid(leaf, sub uint32) (eax, ebx, ecx, edx uint32)

// xcr0 returns the low half of XCR0 (XGETBV with ECX=0); only valid when
// CPUID reports OSXSAVE.
func xcr0() uint32

// indexPair returns the first i in [0, n), n a multiple of 16, such that
// p[i+off1]|o1 == m1 and p[i+off2]|o2 == m2, or -1. The bytes up to
// p[n-1+max(off1, off2)] must be readable.
//
//go:noescape
func indexPair(p *byte, n, off1, off2, m1, o1, m2, o2 int) int
