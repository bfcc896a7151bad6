package nn

// The kernels of the integer inference, in plain Go. On amd64 with AVX2
// (and without the purego tag) kernels_amd64.s does the same work; these
// are its twins, used on other platforms, on CPUs without AVX2 and under
// -tags purego, and the reference the assembly is tested against. Both
// give exactly the values of (*Net).Output: int16 sums wrap alike, and the
// int32 sums of the dense layers never overflow.

// updateColsGo sets dst to src plus the columns of w that start at the
// offsets in add, minus those at the offsets in sub; each column has
// len(dst) weights. dst and src may be the same slice.
func updateColsGo(dst, src, w []int16, add, sub []int32) {
	n := len(dst)
	copy(dst, src[:n])
	for _, a := range add {
		col := w[a:][:n]
		for j := range dst {
			dst[j] += col[j]
		}
	}
	for _, s := range sub {
		col := w[s:][:n]
		for j := range dst {
			dst[j] -= col[j]
		}
	}
}

// clipUnitsGo sets dst[i] to src[i] clipped to [0, QA].
func clipUnitsGo(dst []uint8, src []int16) {
	dst = dst[:len(src)]
	for i, a := range src {
		dst[i] = uint8(max(0, min(QA, a)))
	}
}

// denseQuadsGo is one clipped-ReLU layer of len(dst) units (at most
// 256) over the inputs in: dst[o] is b[o] plus the dot product of in with
// unit o's weights, shifted right by shift (0..31) and clipped to [0, QA].
// The weights are in quadLayout's order.
func denseQuadsGo(dst, in []uint8, w []int8, b []int32, shift int) {
	n := len(dst)
	var sums [256]int32
	s := sums[:n]
	copy(s, b)
	for q := 0; q+4 <= len(in); q += 4 {
		x0, x1, x2, x3 := int32(in[q]), int32(in[q+1]), int32(in[q+2]), int32(in[q+3])
		if x0|x1|x2|x3 == 0 {
			continue
		}
		row := w[q*n:][:4*n]
		for o := range s {
			r := row[4*o:][:4]
			s[o] += x0*int32(r[0]) + x1*int32(r[1]) + x2*int32(r[2]) + x3*int32(r[3])
		}
	}
	for o, x := range s {
		dst[o] = uint8(max(0, min(QA, x>>(shift&31))))
	}
}

// quadLayout returns the weights w of n units over m inputs (unit o's
// weights at w[o·m:][:m], as a Head holds them) in the order the dense
// kernels read them: for each four inputs, each unit's four weights.
func quadLayout(w []int8, n, m int) []int8 {
	out := make([]int8, len(w))
	for q := 0; q < m; q += 4 {
		for o := range n {
			copy(out[(q*n + 4*o):][:4], w[o*m+q:][:4])
		}
	}
	return out
}

// dotRowGo returns the dot product of in and w[:len(in)].
func dotRowGo(in []uint8, w []int8) int32 {
	w = w[:len(in)]
	var sum int32
	for i, x := range in {
		sum += int32(x) * int32(w[i])
	}
	return sum
}
