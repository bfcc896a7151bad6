//go:build amd64 && !purego

#include "textflag.h"

// func updateColsAVX2(dst, src, w []int16, add, sub []int32)
//
// dst = src + the columns at add - the columns at sub, 64 units at a time
// (four registers) and then 16 at a time.
TEXT ·updateColsAVX2(SB), NOSPLIT, $0-120
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), CX
	MOVQ src_base+24(FP), SI
	MOVQ w_base+48(FP), DX
	MOVQ add_base+72(FP), R8
	MOVQ add_len+80(FP), R9
	MOVQ sub_base+96(FP), R10
	MOVQ sub_len+104(FP), R11

wide:
	CMPQ CX, $64
	JB   narrow
	VMOVDQU 0(SI), Y0
	VMOVDQU 32(SI), Y1
	VMOVDQU 64(SI), Y2
	VMOVDQU 96(SI), Y3
	XORQ BX, BX

wideAdd:
	CMPQ BX, R9
	JAE  wideSubStart
	MOVLQSX (R8)(BX*4), AX
	LEAQ (DX)(AX*2), AX
	VPADDW 0(AX), Y0, Y0
	VPADDW 32(AX), Y1, Y1
	VPADDW 64(AX), Y2, Y2
	VPADDW 96(AX), Y3, Y3
	INCQ BX
	JMP  wideAdd

wideSubStart:
	XORQ BX, BX

wideSub:
	CMPQ BX, R11
	JAE  wideStore
	MOVLQSX (R10)(BX*4), AX
	LEAQ (DX)(AX*2), AX
	VPSUBW 0(AX), Y0, Y0
	VPSUBW 32(AX), Y1, Y1
	VPSUBW 64(AX), Y2, Y2
	VPSUBW 96(AX), Y3, Y3
	INCQ BX
	JMP  wideSub

wideStore:
	VMOVDQU Y0, 0(DI)
	VMOVDQU Y1, 32(DI)
	VMOVDQU Y2, 64(DI)
	VMOVDQU Y3, 96(DI)
	ADDQ $128, SI
	ADDQ $128, DI
	ADDQ $128, DX
	SUBQ $64, CX
	JMP  wide

narrow:
	CMPQ CX, $16
	JB   done
	VMOVDQU 0(SI), Y0
	XORQ BX, BX

narrowAdd:
	CMPQ BX, R9
	JAE  narrowSubStart
	MOVLQSX (R8)(BX*4), AX
	VPADDW (DX)(AX*2), Y0, Y0
	INCQ BX
	JMP  narrowAdd

narrowSubStart:
	XORQ BX, BX

narrowSub:
	CMPQ BX, R11
	JAE  narrowStore
	MOVLQSX (R10)(BX*4), AX
	VPSUBW (DX)(AX*2), Y0, Y0
	INCQ BX
	JMP  narrowSub

narrowStore:
	VMOVDQU Y0, 0(DI)
	ADDQ $32, SI
	ADDQ $32, DI
	ADDQ $32, DX
	SUBQ $16, CX
	JMP  narrow

done:
	VZEROUPPER
	RET

// func clipUnitsAVX2(dst []uint8, src []int16)
//
// Packing with unsigned saturation clips to [0, 255]; a byte minimum with
// 127 finishes the clip to [0, QA].
TEXT ·clipUnitsAVX2(SB), NOSPLIT, $0-48
	MOVQ dst_base+0(FP), DI
	MOVQ src_base+24(FP), SI
	MOVQ src_len+32(FP), CX
	MOVL $0x7f7f7f7f, AX
	MOVQ AX, X15
	VPBROADCASTD X15, Y15

clipWide:
	CMPQ CX, $32
	JB   clipNarrow
	VMOVDQU 0(SI), Y0
	VMOVDQU 32(SI), Y1
	VPACKUSWB Y1, Y0, Y2
	VPERMQ $0xd8, Y2, Y2
	VPMINUB Y15, Y2, Y2
	VMOVDQU Y2, 0(DI)
	ADDQ $64, SI
	ADDQ $32, DI
	SUBQ $32, CX
	JMP  clipWide

clipNarrow:
	CMPQ CX, $16
	JB   clipDone
	VMOVDQU 0(SI), Y0
	VEXTRACTI128 $1, Y0, X1
	VPACKUSWB X1, X0, X0
	VPMINUB X15, X0, X0
	VMOVDQU X0, 0(DI)
	ADDQ $32, SI
	ADDQ $16, DI
	SUBQ $16, CX
	JMP  clipNarrow

clipDone:
	VZEROUPPER
	RET

// func denseQuadsAVX2(dst, in []uint8, w []int8, b []int32, shift int)
//
// 32 outputs at a time, in four registers of eight int32 sums that start
// as the biases. For each four inputs (a quad), broadcast to every
// 32-bit lane, the weights of the 32 outputs for that quad (32·4 bytes,
// see quadLayout) are multiplied with them in pairs (VPMADDUBSW:
// |pair| <= 2·127·127, inside int16) and the pairs summed into the
// outputs' int32 sums (VPMADDWD by ones). Then the sums are shifted right
// by shift,
// packed with saturation to int16 and to unsigned bytes, put back in
// order and clipped to [0, 127].
TEXT ·denseQuadsAVX2(SB), NOSPLIT, $0-104
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), CX
	MOVQ in_base+24(FP), SI
	MOVQ in_len+32(FP), R9
	MOVQ w_base+48(FP), DX
	MOVQ b_base+72(FP), R10
	MOVQ shift+96(FP), AX
	ANDQ $31, AX
	MOVQ AX, X15
	LEAQ 0(CX*4), R11
	MOVL $0x00010001, AX
	MOVQ AX, X14
	VPBROADCASTD X14, Y14
	MOVL $0x7f7f7f7f, AX
	MOVQ AX, X12
	VPBROADCASTD X12, Y12
	VMOVDQU quadOrder<>(SB), Y13

quadBlock:
	CMPQ CX, $32
	JB   quadDone
	VMOVDQU 0(R10), Y0
	VMOVDQU 32(R10), Y1
	VMOVDQU 64(R10), Y2
	VMOVDQU 96(R10), Y3
	MOVQ DX, AX
	XORQ BX, BX

quadLoop:
	CMPQ BX, R9
	JAE  quadStore
	VPBROADCASTD (SI)(BX*1), Y8
	VPMADDUBSW 0(AX), Y8, Y9
	VPMADDWD Y14, Y9, Y9
	VPADDD Y9, Y0, Y0
	VPMADDUBSW 32(AX), Y8, Y10
	VPMADDWD Y14, Y10, Y10
	VPADDD Y10, Y1, Y1
	VPMADDUBSW 64(AX), Y8, Y9
	VPMADDWD Y14, Y9, Y9
	VPADDD Y9, Y2, Y2
	VPMADDUBSW 96(AX), Y8, Y10
	VPMADDWD Y14, Y10, Y10
	VPADDD Y10, Y3, Y3
	ADDQ R11, AX
	ADDQ $4, BX
	JMP  quadLoop

quadStore:
	VPSRAD X15, Y0, Y0
	VPSRAD X15, Y1, Y1
	VPSRAD X15, Y2, Y2
	VPSRAD X15, Y3, Y3
	VPACKSSDW Y1, Y0, Y0
	VPACKSSDW Y3, Y2, Y2
	VPACKUSWB Y2, Y0, Y0
	VPERMD Y0, Y13, Y0
	VPMINUB Y12, Y0, Y0
	VMOVDQU Y0, 0(DI)
	ADDQ $32, DI
	ADDQ $128, R10
	ADDQ $128, DX
	SUBQ $32, CX
	JMP  quadBlock

quadDone:
	VZEROUPPER
	RET

// quadOrder puts the outputs back in order after the packs, which
// interleave the 128-bit lanes: 32-bit group i of the result is group
// quadOrder[i] of the packed register.
DATA quadOrder<>+0(SB)/4, $0
DATA quadOrder<>+4(SB)/4, $4
DATA quadOrder<>+8(SB)/4, $1
DATA quadOrder<>+12(SB)/4, $5
DATA quadOrder<>+16(SB)/4, $2
DATA quadOrder<>+20(SB)/4, $6
DATA quadOrder<>+24(SB)/4, $3
DATA quadOrder<>+28(SB)/4, $7
GLOBL quadOrder<>(SB), RODATA|NOPTR, $32

// func dotRowAVX2(in []uint8, w []int8) int32
TEXT ·dotRowAVX2(SB), NOSPLIT, $0-52
	MOVQ in_base+0(FP), SI
	MOVQ in_len+8(FP), CX
	MOVQ w_base+24(FP), DX
	MOVL $0x00010001, AX
	MOVQ AX, X14
	VPBROADCASTD X14, Y14
	VPXOR Y0, Y0, Y0
	XORQ BX, BX

dotCol:
	CMPQ BX, CX
	JAE  dotReduce
	VMOVDQU (SI)(BX*1), Y8
	VPMADDUBSW (DX)(BX*1), Y8, Y9
	VPMADDWD Y14, Y9, Y9
	VPADDD Y9, Y0, Y0
	ADDQ $32, BX
	JMP  dotCol

dotReduce:
	VEXTRACTI128 $1, Y0, X1
	VPADDD X1, X0, X0
	VPSHUFD $0x4e, X0, X1
	VPADDD X1, X0, X0
	VPSHUFD $0xb1, X0, X1
	VPADDD X1, X0, X0
	MOVQ X0, AX
	MOVL AX, ret+48(FP)
	VZEROUPPER
	RET
