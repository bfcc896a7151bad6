//go:build amd64 && !purego

package nn

import "golang.org/x/sys/cpu"

// useSIMD reports whether the assembly kernels of kernels_amd64.s run:
// when the CPU and the operating system support AVX2. Otherwise the
// plain-Go twins of kernels.go do.
var useSIMD = cpu.X86.HasAVX2

// kernelName names the assembly kernels.
const kernelName = "AVX2"

// The assembly kernels. Their callers guarantee the shapes: len(dst) of
// updateColsAVX2 and len(src) of clipUnitsAVX2 are multiples of 16, every
// offset leaves a whole column inside w; len(dst) of denseQuadsAVX2 is a
// multiple of 32 and its w holds len(dst)·len(in) weights in quadLayout's
// order; len(in) of denseQuadsAVX2 and dotRowAVX2 is a multiple of 32.

//go:noescape
func updateColsAVX2(dst, src, w []int16, add, sub []int32)

//go:noescape
func clipUnitsAVX2(dst []uint8, src []int16)

//go:noescape
func denseQuadsAVX2(dst, in []uint8, w []int8, b []int32, shift int)

//go:noescape
func dotRowAVX2(in []uint8, w []int8) int32

// updateCols sets dst to src plus the columns of w at the offsets in add,
// minus those at the offsets in sub (see updateColsGo).
func updateCols(dst, src, w []int16, add, sub []int32) {
	if useSIMD {
		updateColsAVX2(dst, src, w, add, sub)
		return
	}
	updateColsGo(dst, src, w, add, sub)
}

// clipUnits sets dst[i] to src[i] clipped to [0, QA].
func clipUnits(dst []uint8, src []int16) {
	if useSIMD {
		clipUnitsAVX2(dst, src)
		return
	}
	clipUnitsGo(dst, src)
}

// denseLayout returns the weights w of n units over m inputs (as a Head
// holds them) in the order denseQuads reads: quadLayout's for the
// assembly, pairLayout's for the plain Go. A model built while useSIMD is
// false suits only the plain Go.
func denseLayout(w []int8, n, m int) []int8 {
	if useSIMD {
		return quadLayout(w, n, m)
	}
	return pairLayout(w, n, m)
}

// denseQuads is one clipped-ReLU layer (see denseQuadsGo).
func denseQuads(dst, in []uint8, w []int8, b []int32, shift int) {
	if useSIMD {
		denseQuadsAVX2(dst, in, w, b, shift)
		return
	}
	densePairsGo(dst, in, w, b, shift)
}

// dotRow returns the dot product of in and w[:len(in)].
func dotRow(in []uint8, w []int8) int32 {
	if useSIMD {
		return dotRowAVX2(in, w)
	}
	return dotRowGo(in, w)
}
