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

// func denseRowsAVX2(dst, in []uint8, w []int8, b []int32)
//
// Eight rows at a time: each 32 inputs are multiplied by each row's 32
// weights in pairs (VPMADDUBSW: |pair| <= 2·127·127, inside int16), the
// pairs summed to int32 (VPMADDWD by ones) and kept in one register a
// row; then the eight registers are summed across into one register of
// eight sums, the biases added, shifted right, clipped to [0, 127] and
// packed to eight bytes.
TEXT ·denseRowsAVX2(SB), NOSPLIT, $0-96
	MOVQ dst_base+0(FP), DI
	MOVQ dst_len+8(FP), R8
	MOVQ in_base+24(FP), SI
	MOVQ in_len+32(FP), R9
	MOVQ w_base+48(FP), DX
	MOVQ b_base+72(FP), R10
	LEAQ (R9)(R9*2), R12
	MOVL $0x00010001, AX
	MOVQ AX, X14
	VPBROADCASTD X14, Y14
	MOVL $127, AX
	MOVQ AX, X12
	VPBROADCASTD X12, Y12
	VPXOR Y13, Y13, Y13

denseRow8:
	CMPQ R8, $8
	JB   denseDone
	VPXOR Y0, Y0, Y0
	VPXOR Y1, Y1, Y1
	VPXOR Y2, Y2, Y2
	VPXOR Y3, Y3, Y3
	VPXOR Y4, Y4, Y4
	VPXOR Y5, Y5, Y5
	VPXOR Y6, Y6, Y6
	VPXOR Y7, Y7, Y7
	XORQ BX, BX

denseCol:
	CMPQ BX, R9
	JAE  denseReduce
	VMOVDQU (SI)(BX*1), Y8
	LEAQ (DX)(BX*1), AX
	LEAQ (AX)(R9*4), R13
	VPMADDUBSW (AX), Y8, Y9
	VPMADDWD Y14, Y9, Y9
	VPADDD Y9, Y0, Y0
	VPMADDUBSW (AX)(R9*1), Y8, Y9
	VPMADDWD Y14, Y9, Y9
	VPADDD Y9, Y1, Y1
	VPMADDUBSW (AX)(R9*2), Y8, Y9
	VPMADDWD Y14, Y9, Y9
	VPADDD Y9, Y2, Y2
	VPMADDUBSW (AX)(R12*1), Y8, Y9
	VPMADDWD Y14, Y9, Y9
	VPADDD Y9, Y3, Y3
	VPMADDUBSW (R13), Y8, Y9
	VPMADDWD Y14, Y9, Y9
	VPADDD Y9, Y4, Y4
	VPMADDUBSW (R13)(R9*1), Y8, Y9
	VPMADDWD Y14, Y9, Y9
	VPADDD Y9, Y5, Y5
	VPMADDUBSW (R13)(R9*2), Y8, Y9
	VPMADDWD Y14, Y9, Y9
	VPADDD Y9, Y6, Y6
	VPMADDUBSW (R13)(R12*1), Y8, Y9
	VPMADDWD Y14, Y9, Y9
	VPADDD Y9, Y7, Y7
	ADDQ $32, BX
	JMP  denseCol

denseReduce:
	VPHADDD Y1, Y0, Y0
	VPHADDD Y3, Y2, Y2
	VPHADDD Y5, Y4, Y4
	VPHADDD Y7, Y6, Y6
	VPHADDD Y2, Y0, Y0
	VPHADDD Y6, Y4, Y4
	VPERM2I128 $0x20, Y4, Y0, Y1
	VPERM2I128 $0x31, Y4, Y0, Y2
	VPADDD Y2, Y1, Y0
	VPADDD (R10), Y0, Y0
	VPSRAD $6, Y0, Y0
	VPMAXSD Y13, Y0, Y0
	VPMINSD Y12, Y0, Y0
	VEXTRACTI128 $1, Y0, X1
	VPACKSSDW X1, X0, X0
	VPACKUSWB X0, X0, X0
	MOVQ X0, (DI)
	ADDQ $8, DI
	ADDQ $32, R10
	LEAQ (DX)(R9*8), DX
	SUBQ $8, R8
	JMP  denseRow8

denseDone:
	VZEROUPPER
	RET

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
