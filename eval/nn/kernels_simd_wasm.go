//go:build goexperiment.simd && go1.27 && !purego

package nn

import "simd/archsimd"

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

// denseQuadsSIMD is denseQuadsGo eight units at a time (len(dst) is a
// multiple of 32, the weights in quadLayout's order). For each unit it
// keeps four int32 sums, one per place in a group of four inputs, added
// together at the end. The products of two groups are first added as
// int16: a clipped input times a weight is at most 127·128 in magnitude,
// so two such products fit.
func denseQuadsSIMD(dst, in []uint8, w []int8, b []int32, shift int) {
	n := len(dst)
	var quads [512]quad
	list := quads[:quadList(in, &quads)]
	var sums [256]int32
	s := sums[:n]
	b = b[:n]
	for o := 0; o+8 <= n; o += 8 {
		var a0, a1, a2, a3, a4, a5, a6, a7 archsimd.Int32x4
		i := 0
		for ; i+2 <= len(list); i += 2 {
			qa, qb := list[i], list[i+1]
			xa := archsimd.BroadcastUint32x4(qa.x).ReshapeToUint8s().BitsToInt8()
			xb := archsimd.BroadcastUint32x4(qb.x).ReshapeToUint8s().BitsToInt8()
			ra := w[int(qa.pos)*n+4*o:][:32]
			rb := w[int(qb.pos)*n+4*o:][:32]
			wa0, wa1 := archsimd.LoadInt8x16(ra[0:16]), archsimd.LoadInt8x16(ra[16:32])
			wb0, wb1 := archsimd.LoadInt8x16(rb[0:16]), archsimd.LoadInt8x16(rb[16:32])
			p0 := wa0.MulWidenLo(xa).Add(wb0.MulWidenLo(xb))
			p1 := wa0.MulWidenHi(xa).Add(wb0.MulWidenHi(xb))
			p2 := wa1.MulWidenLo(xa).Add(wb1.MulWidenLo(xb))
			p3 := wa1.MulWidenHi(xa).Add(wb1.MulWidenHi(xb))
			a0, a1 = a0.Add(p0.ExtendLo4ToInt32()), a1.Add(p0.ExtendHi4ToInt32())
			a2, a3 = a2.Add(p1.ExtendLo4ToInt32()), a3.Add(p1.ExtendHi4ToInt32())
			a4, a5 = a4.Add(p2.ExtendLo4ToInt32()), a5.Add(p2.ExtendHi4ToInt32())
			a6, a7 = a6.Add(p3.ExtendLo4ToInt32()), a7.Add(p3.ExtendHi4ToInt32())
		}
		if i < len(list) {
			q := list[i]
			x := archsimd.BroadcastUint32x4(q.x).ReshapeToUint8s().BitsToInt8()
			r := w[int(q.pos)*n+4*o:][:32]
			w0, w1 := archsimd.LoadInt8x16(r[0:16]), archsimd.LoadInt8x16(r[16:32])
			p0, p1 := w0.MulWidenLo(x), w0.MulWidenHi(x)
			p2, p3 := w1.MulWidenLo(x), w1.MulWidenHi(x)
			a0, a1 = a0.Add(p0.ExtendLo4ToInt32()), a1.Add(p0.ExtendHi4ToInt32())
			a2, a3 = a2.Add(p1.ExtendLo4ToInt32()), a3.Add(p1.ExtendHi4ToInt32())
			a4, a5 = a4.Add(p2.ExtendLo4ToInt32()), a5.Add(p2.ExtendHi4ToInt32())
			a6, a7 = a6.Add(p3.ExtendLo4ToInt32()), a7.Add(p3.ExtendHi4ToInt32())
		}
		u := s[o:][:8]
		bo := b[o:][:8]
		u[0], u[1] = bo[0]+lanes(a0), bo[1]+lanes(a1)
		u[2], u[3] = bo[2]+lanes(a2), bo[3]+lanes(a3)
		u[4], u[5] = bo[4]+lanes(a4), bo[5]+lanes(a5)
		u[6], u[7] = bo[6]+lanes(a6), bo[7]+lanes(a7)
	}
	finish(dst, s, shift)
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
