//go:build goexperiment.simd && go1.27 && !purego

package nn

import "simd/archsimd"

// The clip and the dense layers in arm64's NEON, through simd/archsimd
// (see kernels_simd.go).

// kernelName names the SIMD kernels of this build.
const kernelName = "NEON"

// simdLayout is the order of the weights that denseQuadsSIMD reads:
// quadLayout's.
func simdLayout(w []int8, n, m int) []int8 { return quadLayout(w, n, m) }

// clipUnitsSIMD is clipUnitsGo sixteen units at a time: len(src) is a
// multiple of 16. The clipped values fit a byte: the low bytes of two
// vectors of them are the result.
func clipUnitsSIMD(dst []uint8, src []int16) {
	zero, qa := archsimd.BroadcastInt16x8(0), archsimd.BroadcastInt16x8(QA)
	dst = dst[:len(src)]
	for j := 0; j+16 <= len(src); j += 16 {
		s := src[j:][:16]
		a := archsimd.LoadInt16x8(s[0:8]).Max(zero).Min(qa).ToBits().ReshapeToUint8s()
		b := archsimd.LoadInt16x8(s[8:16]).Max(zero).Min(qa).ToBits().ReshapeToUint8s()
		a.ConcatEven(b).Store(dst[j:][:16])
	}
}

// denseQuadsSIMD is denseQuadsGo eight units at a time (len(dst) is a
// multiple of 32, the weights in quadLayout's order). The products of a
// group of four inputs and a unit's four weights are added in pairs as
// int16 (a clipped input times a weight is at most 127·128 in magnitude,
// so two such products fit), the pairs are summed as int32 over the
// groups, and each unit's two sums are added at the end.
func denseQuadsSIMD(dst, in []uint8, w []int8, b []int32, shift int) {
	n := len(dst)
	var quads [512]quad
	list := quads[:quadList(in, &quads)]
	var sums [256]int32
	s := sums[:n]
	b = b[:n]
	for o := 0; o+8 <= n; o += 8 {
		var a0, a1, a2, a3 archsimd.Int32x4
		for _, q := range list {
			x := archsimd.BroadcastUint32x4(q.x).ReshapeToUint8s().BitsToInt8()
			r := w[int(q.pos)*n+4*o:][:32]
			w0, w1 := archsimd.LoadInt8x16(r[0:16]), archsimd.LoadInt8x16(r[16:32])
			p0 := w0.MulWidenLo(x).ConcatAddPairs(w0.HiToLo().MulWidenLo(x))
			p1 := w1.MulWidenLo(x).ConcatAddPairs(w1.HiToLo().MulWidenLo(x))
			a0, a1 = a0.Add(p0.ExtendLo4ToInt32()), a1.Add(p0.HiToLo().ExtendLo4ToInt32())
			a2, a3 = a2.Add(p1.ExtendLo4ToInt32()), a3.Add(p1.HiToLo().ExtendLo4ToInt32())
		}
		u, bo := s[o:][:8], b[o:][:8]
		a0.ConcatAddPairs(a1).Add(archsimd.LoadInt32x4(bo[0:4])).Store(u[0:4])
		a2.ConcatAddPairs(a3).Add(archsimd.LoadInt32x4(bo[4:8])).Store(u[4:8])
	}
	finish(dst, s, shift)
}

// dotRowSIMD is dotRowGo sixteen inputs at a time: len(in) is a multiple
// of 32. Two products of a clipped input and a weight fit an int16.
func dotRowSIMD(in []uint8, w []int8) int32 {
	w = w[:len(in)]
	var a0, a1 archsimd.Int32x4
	for i := 0; i+16 <= len(in); i += 16 {
		x := archsimd.LoadUint8x16(in[i:][:16]).BitsToInt8()
		v := archsimd.LoadInt8x16(w[i:][:16])
		p := v.MulWidenLo(x).Add(v.HiToLo().MulWidenLo(x.HiToLo()))
		a0, a1 = a0.Add(p.ExtendLo4ToInt32()), a1.Add(p.HiToLo().ExtendLo4ToInt32())
	}
	return a0.Add(a1).ReduceSum()
}

// quadList writes into quads the nonzero groups of four inputs of in (a
// multiple of 4 long, at most 4·len(quads)), each as its four values in
// a little-endian uint32 and its index, and returns how many: the dense
// kernels skip the groups that are all zero, as the twin does.
func quadList(in []uint8, quads *[512]quad) int {
	k := 0
	for q := 0; q+4 <= len(in) && k < len(quads); q += 4 {
		x := uint32(in[q]) | uint32(in[q+1])<<8 | uint32(in[q+2])<<16 | uint32(in[q+3])<<24
		if x != 0 {
			quads[k] = quad{x, int32(q)}
			k++
		}
	}
	return k
}

// quad is a group of four inputs: their values, one a byte, and the index
// of the first.
type quad struct {
	x   uint32
	pos int32
}
