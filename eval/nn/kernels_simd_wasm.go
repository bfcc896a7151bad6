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

// simdLayout is the order of the weights that denseQuadsSIMD reads:
// columnLayout's.
func simdLayout(w []int8, n, m int) []int8 { return columnLayout(w, n, m) }

// columnLayout returns the weights w of n units over m inputs (unit o's
// weights at w[o·m:][:m], as a Head holds them) input by input: input i's
// weights to the n units at out[i·n:][:n].
func columnLayout(w []int8, n, m int) []int8 {
	out := make([]int8, len(w))
	for o := range n {
		for i := range m {
			out[i*n+o] = w[o*m+i]
		}
	}
	return out
}

// denseQuadsSIMD is denseQuadsGo with the weights in columnLayout's order,
// thirty-two units at a time (len(dst) is a multiple of 32, len(in) at
// most 2048). It skips each zero input (a quarter to a third of the clipped
// units are zero), and takes the others two by two: a clipped input times a
// weight is at most 127·128 in magnitude, so the products of two inputs
// are added as int16 before they are widened to int32. The weights are
// read through a pointer, the bounds checked once, before the loops: in
// Go's wasm, a bounds check costs more than the SIMD work it guards.
func denseQuadsSIMD(dst, in []uint8, w []int8, b []int32, shift int) {
	n := len(dst)
	if len(in) > 2048 || n%32 != 0 || len(w) < n*len(in) || len(b) < n {
		panic("nn: denseQuadsSIMD: the shapes do not fit")
	}
	// The list of nonzero inputs on the stack, sized to the inputs: Go
	// clears a local array on every call.
	if len(in) <= 256 {
		var list [256 + 1]uint32
		denseColumns(dst, in, w, b, shift, list[:])
		return
	}
	var list [2048 + 1]uint32
	denseColumns(dst, in, w, b, shift, list[:])
}

// denseColumns is denseQuadsSIMD with list, len(in)+1 long, to note the
// nonzero inputs in: each as the offset of its weights in w, times 256,
// plus its value.
func denseColumns(dst, in []uint8, w []int8, b []int32, shift int, list []uint32) {
	n := len(dst)
	k := 0
	for i, x := range in {
		if x != 0 {
			list[k] = uint32(i*n)<<8 | uint32(x)
			k++
		}
	}
	if k%2 != 0 {
		list[k] = 0 // an input of zero pairs the last one
		k++
	}
	list = list[:k]
	w0 := unsafe.Pointer(unsafe.SliceData(w))
	for o := 0; o+32 <= n; o += 32 {
		var a0, a1, a2, a3, a4, a5, a6, a7 archsimd.Int32x4
		wo := unsafe.Add(w0, o)
		for i := 0; i+2 <= len(list); i += 2 {
			ea, eb := list[i], list[i+1]
			xa, xb := archsimd.BroadcastInt8x16(int8(ea&0xff)), archsimd.BroadcastInt8x16(int8(eb&0xff))
			ra, rb := unsafe.Add(wo, ea>>8), unsafe.Add(wo, eb>>8)
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
		}
		var t [32]int32
		bo := b[o:][:32]
		a0.Add(archsimd.LoadInt32x4(bo[0:4])).StoreArray((*[4]int32)(t[0:4]))
		a1.Add(archsimd.LoadInt32x4(bo[4:8])).StoreArray((*[4]int32)(t[4:8]))
		a2.Add(archsimd.LoadInt32x4(bo[8:12])).StoreArray((*[4]int32)(t[8:12]))
		a3.Add(archsimd.LoadInt32x4(bo[12:16])).StoreArray((*[4]int32)(t[12:16]))
		a4.Add(archsimd.LoadInt32x4(bo[16:20])).StoreArray((*[4]int32)(t[16:20]))
		a5.Add(archsimd.LoadInt32x4(bo[20:24])).StoreArray((*[4]int32)(t[20:24]))
		a6.Add(archsimd.LoadInt32x4(bo[24:28])).StoreArray((*[4]int32)(t[24:28]))
		a7.Add(archsimd.LoadInt32x4(bo[28:32])).StoreArray((*[4]int32)(t[28:32]))
		finish(dst[o:][:32], t[:], shift)
	}
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
