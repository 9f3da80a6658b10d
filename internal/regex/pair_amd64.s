#include "textflag.h"

// func indexPair(p *byte, n, off1, off2, m1, o1, m2, o2 int) int
//
// Returns the first i in [0, n) (n a multiple of 16) such that
// p[i+off1]|o1 == m1 and p[i+off2]|o2 == m2, or -1: 32 bytes at a time
// with AVX2 (useAVX2), then 16 at a time with SSE2.
TEXT ·indexPair(SB), NOSPLIT, $0-72
	MOVQ p+0(FP), SI
	MOVQ n+8(FP), CX
	MOVQ off1+16(FP), R8
	MOVQ off2+24(FP), R9
	MOVQ m1+32(FP), AX
	MOVQ AX, X1
	PUNPCKLBW X1, X1
	PSHUFLW $0, X1, X1
	PUNPCKLQDQ X1, X1
	MOVQ o1+40(FP), AX
	MOVQ AX, X2
	PUNPCKLBW X2, X2
	PSHUFLW $0, X2, X2
	PUNPCKLQDQ X2, X2
	MOVQ m2+48(FP), AX
	MOVQ AX, X3
	PUNPCKLBW X3, X3
	PSHUFLW $0, X3, X3
	PUNPCKLQDQ X3, X3
	MOVQ o2+56(FP), AX
	MOVQ AX, X4
	PUNPCKLBW X4, X4
	PSHUFLW $0, X4, X4
	PUNPCKLQDQ X4, X4
	XORQ AX, AX
	LEAQ (SI)(R8*1), R8
	LEAQ (SI)(R9*1), R9
	CMPB ·useAVX2(SB), $0
	JEQ  loop
	VPBROADCASTB X1, Y1
	VPBROADCASTB X2, Y2
	VPBROADCASTB X3, Y3
	VPBROADCASTB X4, Y4

wide:
	LEAQ 32(AX), DX
	CMPQ DX, CX
	JA   narrow
	VMOVDQU (R8)(AX*1), Y5
	VMOVDQU (R9)(AX*1), Y6
	VPOR     Y2, Y5, Y5
	VPCMPEQB Y1, Y5, Y5
	VPOR     Y4, Y6, Y6
	VPCMPEQB Y3, Y6, Y6
	VPAND    Y6, Y5, Y5
	VPMOVMSKB Y5, BX
	TESTL BX, BX
	JNZ   widefound
	MOVQ  DX, AX
	JMP   wide

widefound:
	VZEROUPPER
	JMP found

narrow:
	VZEROUPPER

loop:
	CMPQ AX, CX
	JAE  none
	MOVOU (R8)(AX*1), X5
	MOVOU (R9)(AX*1), X6
	POR     X2, X5
	PCMPEQB X1, X5
	POR     X4, X6
	PCMPEQB X3, X6
	PAND    X6, X5
	PMOVMSKB X5, BX
	TESTL BX, BX
	JNZ   found
	ADDQ  $16, AX
	JMP   loop

found:
	BSFL BX, BX
	ADDQ BX, AX
	MOVQ AX, ret+64(FP)
	RET

none:
	MOVQ $-1, ret+64(FP)
	RET

// func cpuid(leaf, sub uint32) (eax, ebx, ecx, edx uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL leaf+0(FP), AX
	MOVL sub+4(FP), CX
	CPUID
	MOVL AX, eax+8(FP)
	MOVL BX, ebx+12(FP)
	MOVL CX, ecx+16(FP)
	MOVL DX, edx+20(FP)
	RET

// func xcr0() uint32
TEXT ·xcr0(SB), NOSPLIT, $0-4
	MOVL $0, CX
	XGETBV
	MOVL AX, ret+0(FP)
	RET
