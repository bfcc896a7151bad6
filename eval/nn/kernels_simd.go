//go:build goexperiment.simd && go1.27 && (wasm || arm64) && !purego

package nn

import (
	"simd/archsimd"
	"unsafe"
)

// With GOEXPERIMENT=simd under Go 1.27, the kernels on wasm (SIMD128) and
// arm64 (NEON) are written with simd/archsimd: the column updates here,
// the clip and the dense layers in kernels_simd_wasm.go and
// kernels_simd_arm64.go. Every arm64 CPU has these instructions, and a
// wasm engine without SIMD128 refuses the whole module (such a build is
// for engines that have it), so no feature test is needed; useSIMD is a
// variable only so that a test can run the plain Go instead.
// Their callers guarantee the shapes that kernels_amd64.go states.

// useSIMD reports whether the SIMD kernels run.
var useSIMD = true

// updateCols sets dst to src plus the columns of w at the offsets in add,
// minus those at the offsets in sub (see updateColsGo). The columns are
// read through pointers, each checked once to lie inside w.
func updateCols(dst, src, w []int16, add, sub []int32) {
	if !useSIMD {
		updateColsGo(dst, src, w, add, sub)
		return
	}
	n := len(dst)
	src = src[:n]
	for _, o := range add {
		_ = w[int(o):][:n]
	}
	for _, o := range sub {
		_ = w[int(o):][:n]
	}
	w0 := unsafe.Pointer(unsafe.SliceData(w))
	j := 0
	// Thirty-two units at a time in four vectors, then a last sixteen.
	for ; j+32 <= n; j += 32 {
		s := src[j:][:32]
		a0, a1 := archsimd.LoadInt16x8(s[0:8]), archsimd.LoadInt16x8(s[8:16])
		a2, a3 := archsimd.LoadInt16x8(s[16:24]), archsimd.LoadInt16x8(s[24:32])
		wj := unsafe.Add(w0, 2*j)
		for _, o := range add {
			c := unsafe.Add(wj, 2*int(o))
			a0, a1 = a0.Add(load8(c, 0)), a1.Add(load8(c, 16))
			a2, a3 = a2.Add(load8(c, 32)), a3.Add(load8(c, 48))
		}
		for _, o := range sub {
			c := unsafe.Add(wj, 2*int(o))
			a0, a1 = a0.Sub(load8(c, 0)), a1.Sub(load8(c, 16))
			a2, a3 = a2.Sub(load8(c, 32)), a3.Sub(load8(c, 48))
		}
		d := dst[j:][:32]
		a0.Store(d[0:8])
		a1.Store(d[8:16])
		a2.Store(d[16:24])
		a3.Store(d[24:32])
	}
	for ; j+16 <= n; j += 16 {
		s := src[j:][:16]
		a0, a1 := archsimd.LoadInt16x8(s[0:8]), archsimd.LoadInt16x8(s[8:16])
		wj := unsafe.Add(w0, 2*j)
		for _, o := range add {
			c := unsafe.Add(wj, 2*int(o))
			a0, a1 = a0.Add(load8(c, 0)), a1.Add(load8(c, 16))
		}
		for _, o := range sub {
			c := unsafe.Add(wj, 2*int(o))
			a0, a1 = a0.Sub(load8(c, 0)), a1.Sub(load8(c, 16))
		}
		d := dst[j:][:16]
		a0.Store(d[0:8])
		a1.Store(d[8:16])
	}
}

// load8 loads the eight int16 weights at off bytes past p.
func load8(p unsafe.Pointer, off uintptr) archsimd.Int16x8 {
	return archsimd.LoadInt16x8Array((*[8]int16)(unsafe.Add(p, off)))
}

// clipUnits sets dst[i] to src[i] clipped to [0, QA].
func clipUnits(dst []uint8, src []int16) {
	if !useSIMD {
		clipUnitsGo(dst, src)
		return
	}
	clipUnitsSIMD(dst, src)
}

// denseLayout returns the weights w of n units over m inputs (unit o's
// weights at w[o·m:][:m], as a Head holds them) in the order denseQuads
// reads: simdLayout's, or pairLayout's for the plain Go. A model built
// while useSIMD is false suits only the plain Go.
func denseLayout(w []int8, n, m int) []int8 {
	if !useSIMD {
		return pairLayout(w, n, m)
	}
	return simdLayout(w, n, m)
}

// denseQuads is one clipped-ReLU layer (see denseQuadsGo), its weights in
// denseLayout's order.
func denseQuads(dst, in []uint8, w []int8, b []int32, shift int) {
	if !useSIMD {
		densePairsGo(dst, in, w, b, shift)
		return
	}
	denseQuadsSIMD(dst, in, w, b, shift)
}

// dotRow returns the dot product of in and w[:len(in)].
func dotRow(in []uint8, w []int8) int32 {
	if !useSIMD {
		return dotRowGo(in, w)
	}
	return dotRowSIMD(in, w)
}

// finish sets dst[o] to sums[o] shifted right by shift and clipped to
// [0, QA].
func finish(dst []uint8, sums []int32, shift int) {
	dst = dst[:len(sums)]
	for o, x := range sums {
		dst[o] = uint8(max(0, min(QA, x>>(shift&31))))
	}
}
