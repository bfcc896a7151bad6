//go:build goexperiment.simd && go1.27 && !purego

package nn

import (
	"simd/archsimd"
	"unsafe"
)

// The clip and the dense layers in WebAssembly's SIMD128, through
// simd/archsimd (see kernels_simd.go).

// kernelName names the SIMD kernels of this build.
const kernelName = "wasm SIMD"

// evenThenOdd picks a vector's even bytes, then its odd ones.
var evenThenOdd = [16]int8{0, 2, 4, 6, 8, 10, 12, 14, 1, 3, 5, 7, 9, 11, 13, 15}

// clipUnitsSIMD is clipUnitsGo sixteen units at a time: len(src) is a
// multiple of 16. The clipped values fit a byte, so two vectors of them
// are packed, one in each byte of the 16-bit lanes, and shuffled into
// order.
func clipUnitsSIMD(dst []uint8, src []int16) {
	zero, qa := archsimd.BroadcastInt16x8(0), archsimd.BroadcastInt16x8(QA)
	order := archsimd.LoadInt8x16Array(&evenThenOdd)
	dst = dst[:len(src)]
	for j := 0; j+16 <= len(src); j += 16 {
		s := src[j:][:16]
		a := archsimd.LoadInt16x8(s[0:8]).Max(zero).Min(qa)
		b := archsimd.LoadInt16x8(s[8:16]).Max(zero).Min(qa)
		packed := a.Or(b.ShiftAllLeft(8)).ToBits().ReshapeToUint8s().BitsToInt8()
		packed.LookupOrZero(order).ToBits().Store(dst[j:][:16])
	}
}

// denseQuadsSIMD is denseQuadsGo sixteen units at a time (len(dst) is a
// multiple of 32, the weights in quadLayout's order). For each unit it
// keeps four int32 sums, one per place in a group of four inputs, added
// together at the end. The products of two groups are first added as
// int16: a clipped input times a weight is at most 127·128 in magnitude,
// so two such products fit. The weights are read through a pointer, the
// bounds checked once, before the loops: in Go's wasm, a bounds check
// costs more than the arithmetic it guards.
func denseQuadsSIMD(dst, in []uint8, w []int8, b []int32, shift int) {
	n := len(dst)
	if len(in)%4 != 0 || n%16 != 0 || len(w) < n*len(in) || len(b) < n {
		panic("nn: denseQuadsSIMD: the shapes do not fit")
	}
	var quads [512]quad
	list := quads[:quadList(in, &quads)]
	if len(list)%2 != 0 {
		// Pair the last group with one of zeros (any offset will do).
		list = append(list, quad{0, 0})
	}
	for i := range list {
		list[i].pos *= int32(n) // the offset in w of the group's weights
	}
	var sums [256]int32
	s := sums[:n]
	w0 := unsafe.Pointer(unsafe.SliceData(w))
	for o := 0; o+16 <= n; o += 16 {
		var a0, a1, a2, a3, a4, a5, a6, a7 archsimd.Int32x4
		var c0, c1, c2, c3, c4, c5, c6, c7 archsimd.Int32x4
		wo := unsafe.Add(w0, 4*o)
		for i := 0; i+2 <= len(list); i += 2 {
			qa, qb := list[i], list[i+1]
			xa := archsimd.BroadcastUint32x4(qa.x).ReshapeToUint8s().BitsToInt8()
			xb := archsimd.BroadcastUint32x4(qb.x).ReshapeToUint8s().BitsToInt8()
			ra, rb := unsafe.Add(wo, qa.pos), unsafe.Add(wo, qb.pos)
			// Units o to o+7.
			wa0, wa1 := load16(ra, 0), load16(ra, 16)
			wb0, wb1 := load16(rb, 0), load16(rb, 16)
			p0 := wa0.MulWidenLo(xa).Add(wb0.MulWidenLo(xb))
			p1 := wa0.MulWidenHi(xa).Add(wb0.MulWidenHi(xb))
			p2 := wa1.MulWidenLo(xa).Add(wb1.MulWidenLo(xb))
			p3 := wa1.MulWidenHi(xa).Add(wb1.MulWidenHi(xb))
			a0, a1 = a0.Add(p0.ExtendLo4ToInt32()), a1.Add(p0.ExtendHi4ToInt32())
			a2, a3 = a2.Add(p1.ExtendLo4ToInt32()), a3.Add(p1.ExtendHi4ToInt32())
			a4, a5 = a4.Add(p2.ExtendLo4ToInt32()), a5.Add(p2.ExtendHi4ToInt32())
			a6, a7 = a6.Add(p3.ExtendLo4ToInt32()), a7.Add(p3.ExtendHi4ToInt32())
			// Units o+8 to o+15.
			wa0, wa1 = load16(ra, 32), load16(ra, 48)
			wb0, wb1 = load16(rb, 32), load16(rb, 48)
			p0 = wa0.MulWidenLo(xa).Add(wb0.MulWidenLo(xb))
			p1 = wa0.MulWidenHi(xa).Add(wb0.MulWidenHi(xb))
			p2 = wa1.MulWidenLo(xa).Add(wb1.MulWidenLo(xb))
			p3 = wa1.MulWidenHi(xa).Add(wb1.MulWidenHi(xb))
			c0, c1 = c0.Add(p0.ExtendLo4ToInt32()), c1.Add(p0.ExtendHi4ToInt32())
			c2, c3 = c2.Add(p1.ExtendLo4ToInt32()), c3.Add(p1.ExtendHi4ToInt32())
			c4, c5 = c4.Add(p2.ExtendLo4ToInt32()), c5.Add(p2.ExtendHi4ToInt32())
			c6, c7 = c6.Add(p3.ExtendLo4ToInt32()), c7.Add(p3.ExtendHi4ToInt32())
		}
		u, bo := s[o:][:16], b[o:][:16]
		u[0], u[1], u[2], u[3] = bo[0]+lanes(a0), bo[1]+lanes(a1), bo[2]+lanes(a2), bo[3]+lanes(a3)
		u[4], u[5], u[6], u[7] = bo[4]+lanes(a4), bo[5]+lanes(a5), bo[6]+lanes(a6), bo[7]+lanes(a7)
		u[8], u[9], u[10], u[11] = bo[8]+lanes(c0), bo[9]+lanes(c1), bo[10]+lanes(c2), bo[11]+lanes(c3)
		u[12], u[13], u[14], u[15] = bo[12]+lanes(c4), bo[13]+lanes(c5), bo[14]+lanes(c6), bo[15]+lanes(c7)
	}
	finish(dst, s, shift)
}

// load16 loads the sixteen weights at off bytes past p.
func load16(p unsafe.Pointer, off uintptr) archsimd.Int8x16 {
	return archsimd.LoadInt8x16Array((*[16]int8)(unsafe.Add(p, off)))
}

// lanes returns the sum of v's four lanes.
func lanes(v archsimd.Int32x4) int32 {
	var t [4]int32
	v.StoreArray(&t)
	return t[0] + t[1] + t[2] + t[3]
}

// dotRowSIMD is dotRowGo sixteen inputs at a time: len(in) is a multiple
// of 32. Two products of a clipped input and a weight fit an int16.
func dotRowSIMD(in []uint8, w []int8) int32 {
	w = w[:len(in)]
	var a0, a1 archsimd.Int32x4
	for i := 0; i+16 <= len(in); i += 16 {
		x := archsimd.LoadUint8x16(in[i:][:16]).BitsToInt8()
		v := archsimd.LoadInt8x16(w[i:][:16])
		p := v.MulWidenLo(x).Add(v.MulWidenHi(x))
		a0, a1 = a0.Add(p.ExtendLo4ToInt32()), a1.Add(p.ExtendHi4ToInt32())
	}
	return lanes(a0.Add(a1))
}
