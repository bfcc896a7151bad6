package nntrain

import (
	"math"
	"math/rand/v2"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval/nn"
)

// model says where a layout's weights lie in the flat parameter slice.
// Each first layer is W1 (input f's column of Hidden weights at f·Hidden)
// then b1; each head is W2 (input-major: input i's row of L2
// weights at i·L2, the side to move's units first), b2, W3 (input-major,
// L2 rows of L3), b3, W4 (L3) and b4.
type model struct {
	lay            nn.Layout
	h, l2, l3      int
	firstSize      int
	headSize       int
	n              int
	b1             int // offset of b1 within a first layer
	b2, w3, b3, w4 int // offsets within a head
	b4             int
}

func newModel(l nn.Layout) model {
	m := model{lay: l, h: l.Hidden, l2: l.L2, l3: l.L3}
	m.b1 = nn.Inputs * m.h
	m.firstSize = m.b1 + m.h
	m.b2 = 2 * m.h * m.l2
	m.w3 = m.b2 + m.l2
	m.b3 = m.w3 + m.l2*m.l3
	m.w4 = m.b3 + m.l3
	m.b4 = m.w4 + m.l3
	m.headSize = m.b4 + 1
	m.n = l.FirstLayers()*m.firstSize + l.Heads()*m.headSize
	return m
}

// first and head return the offsets of first layer f and of head s.
func (m *model) first(f int) int { return f * m.firstSize }
func (m *model) head(s int) int  { return m.lay.FirstLayers()*m.firstSize + s*m.headSize }

// Bounds on the float weights, so that quantisation cannot overflow: a
// head weight times 1<<WeightShift (1<<FineShift in the second layer)
// fits an int8 weight, and 24 columns of first-layer weights plus the
// bias, times QA, fit an int16 accumulator.
const (
	maxHead   = float32(nn.MaxWeight) / (1 << nn.WeightShift)
	maxSecond = float32(nn.MaxWeight) / (1 << nn.FineShift)
	maxFirst  = float32(math.MaxInt16/(nn.MaxActive+1)) / nn.QA
	maxBias   = 1000
)

// limits returns the bound of every parameter's magnitude.
func (m *model) limits() []float32 {
	lim := make([]float32, m.n)
	for f := range m.lay.FirstLayers() {
		fill(lim[m.first(f):][:m.firstSize], maxFirst)
	}
	for s := range m.lay.Heads() {
		h := lim[m.head(s):][:m.headSize]
		fill(h, maxHead)
		fill(h[:m.b2], maxSecond)
		fill(h[m.b2:m.w3], maxBias)
		fill(h[m.b3:m.w4], maxBias)
		h[m.b4] = maxBias
	}
	return lim
}

func fill(v []float32, x float32) {
	for i := range v {
		v[i] = x
	}
}

// randomInit returns seeded random weights: first-layer units start near
// the middle of their clip, the later layers scaled by their inputs.
func (m *model) randomInit(seed uint64) []float32 {
	rng := rand.New(rand.NewPCG(seed, 0x6e6e))
	th := make([]float32, m.n)
	normal := func(v []float32, sd float64) {
		for i := range v {
			v[i] = float32(rng.NormFloat64() * sd)
		}
	}
	for f := range m.lay.FirstLayers() {
		w := th[m.first(f):][:m.firstSize]
		normal(w[:m.b1], 0.1)
		fill(w[m.b1:], 0.5)
	}
	for s := range m.lay.Heads() {
		h := th[m.head(s):][:m.headSize]
		normal(h[:m.b2], 0.8/math.Sqrt(float64(2*m.h)))
		fill(h[m.b2:m.w3], 0.5)
		normal(h[m.w3:m.b3], 0.8/math.Sqrt(float64(m.l2)))
		fill(h[m.b3:m.w4], 0.5)
		normal(h[m.w4:m.b4], 1/math.Sqrt(float64(m.l3)))
	}
	clampTo(th, m.limits())
	return th
}

func clampTo(th, lim []float32) {
	lim = lim[:len(th)]
	for i, x := range th {
		th[i] = max(-lim[i], min(lim[i], x))
	}
}

// Scales from a float weight to the file's integer.
const (
	firstScale  = nn.QA
	weightScale = 1 << nn.WeightShift
	biasScale   = nn.OutputOne
)

// layerScales returns, for a later layer whose sums shift right by shift,
// the scales of its weights and biases, and half a step of its sums:
// added to the quantised biases (and taken off by dequantise), it makes
// the shift, which rounds down, round to the nearest step, as the float
// layer's value is.
func layerScales(shift int) (w, b float64, half int32) {
	return float64(int(1) << shift), float64(int(nn.QA) << shift), 1 << (shift - 1)
}

// dequantise returns the float weights of net, whose layout is m's.
func (m *model) dequantise(net *nn.Net) []float32 {
	th := make([]float32, m.n)
	for f, fl := range net.First {
		w := th[m.first(f):][:m.firstSize]
		for i, x := range fl.W {
			w[i] = float32(x) / firstScale
		}
		for j, x := range fl.B {
			w[m.b1+j] = float32(x) / firstScale
		}
	}
	w2, b2, half2 := layerScales(net.SecondShift)
	w3, b3, half3 := layerScales(nn.WeightShift)
	for s := range net.Heads {
		hd := &net.Heads[s]
		h := th[m.head(s):][:m.headSize]
		in := 2 * m.h
		for o := range m.l2 {
			for i := range in {
				h[i*m.l2+o] = float32(float64(hd.W2[o*in+i]) / w2)
			}
			h[m.b2+o] = float32(float64(hd.B2[o]-half2) / b2)
		}
		for o := range m.l3 {
			for i := range m.l2 {
				h[m.w3+i*m.l3+o] = float32(float64(hd.W3[o*m.l2+i]) / w3)
			}
			h[m.b3+o] = float32(float64(hd.B3[o]-half3) / b3)
			h[m.w4+o] = float32(hd.W4[o]) / weightScale
		}
		h[m.b4] = float32(hd.B4) / biasScale
	}
	return th
}

// quantise rounds the float weights th to a net with cpPerUnit and the
// second layer's shift FineShift, clamping each to its integer's range,
// and counts the weights clamped.
func (m *model) quantise(th []float32, cpPerUnit float32) (*nn.Net, int) {
	net := nn.NewNet(m.lay, cpPerUnit)
	clamped := 0
	q := func(x float32, scale float64, lim int64) int64 {
		v := int64(math.Round(float64(x) * scale))
		if v > lim || v < -lim {
			clamped++
			v = max(-lim, min(lim, v))
		}
		return v
	}
	for f := range net.First {
		w := th[m.first(f):][:m.firstSize]
		fl := &net.First[f]
		for i := range fl.W {
			fl.W[i] = int16(q(w[i], firstScale, math.MaxInt16))
		}
		for j := range fl.B {
			fl.B[j] = int16(q(w[m.b1+j], firstScale, math.MaxInt16))
		}
	}
	w2, b2, half2 := layerScales(net.SecondShift)
	w3, b3, half3 := layerScales(nn.WeightShift)
	for s := range net.Heads {
		hd := &net.Heads[s]
		h := th[m.head(s):][:m.headSize]
		in := 2 * m.h
		for o := range m.l2 {
			for i := range in {
				hd.W2[o*in+i] = int8(q(h[i*m.l2+o], w2, nn.MaxWeight))
			}
			hd.B2[o] = int32(q(h[m.b2+o], b2, math.MaxInt32-int64(half2))) + half2
		}
		for o := range m.l3 {
			for i := range m.l2 {
				hd.W3[o*m.l2+i] = int8(q(h[m.w3+i*m.l3+o], w3, nn.MaxWeight))
			}
			hd.B3[o] = int32(q(h[m.b3+o], b3, math.MaxInt32-int64(half3))) + half3
			hd.W4[o] = int8(q(h[m.w4+o], weightScale, nn.MaxWeight))
		}
		hd.B4 = int32(q(h[m.b4], biasScale, math.MaxInt32))
	}
	return net, clamped
}

// scratch holds one position's forward pass and the backward pass's
// deltas, reused from position to position.
type scratch struct {
	act    [2][nn.MaxActive]int16
	nact   [2]int
	first  int // the first layer and the head of the last forward pass
	head   int
	acc, a []float32 // 2·Hidden: before and after the clip
	z2, h2 []float32 // L2
	z3, h3 []float32 // L3
	d2, d3 []float32
	da     []float32 // 2·Hidden
	y      float32
}

func (m *model) newScratch() *scratch {
	return &scratch{
		acc: make([]float32, 2*m.h), a: make([]float32, 2*m.h), da: make([]float32, 2*m.h),
		z2: make([]float32, m.l2), h2: make([]float32, m.l2), d2: make([]float32, m.l2),
		z3: make([]float32, m.l3), h3: make([]float32, m.l3), d3: make([]float32, m.l3),
	}
}

func clip(x float32) float32 { return max(0, min(1, x)) }

// forward computes the output for p (a logit of the side to move's win
// probability) with the weights th, leaving the layers in sc for backward.
func (m *model) forward(th []float32, p *engine.Position, sc *scratch) float32 {
	sc.first, sc.head = m.lay.Select(p)
	fw := th[m.first(sc.first):][:m.firstSize]
	b1 := fw[m.b1:][:m.h]
	for k, persp := range [2]engine.Color{p.Side, p.Side ^ 1} {
		n := nn.Active(p, persp, &sc.act[k])
		sc.nact[k] = n
		acc := sc.acc[k*m.h:][:m.h]
		copy(acc, b1)
		for _, f := range sc.act[k][:n] {
			add(acc, fw[int(f)*m.h:])
		}
		a := sc.a[k*m.h:][:len(acc)]
		for j, x := range acc {
			a[j] = clip(x)
		}
	}
	hw := th[m.head(sc.head):][:m.headSize]
	layer(sc.a, hw[:m.b2], hw[m.b2:m.w3], sc.z2, sc.h2)
	layer(sc.h2, hw[m.w3:m.b3], hw[m.b3:m.w4], sc.z3, sc.h3)
	y := hw[m.b4]
	w4 := hw[m.w4:m.b4]
	for i, x := range sc.h3[:len(w4)] {
		y += x * w4[i]
	}
	sc.y = y
	return y
}

// layer computes z = b + W·in (W input-major) and h = clip(z), skipping
// inputs that are 0.
func layer(in, w, b, z, h []float32) {
	n := len(b)
	copy(z, b)
	z = z[:n]
	for i, x := range in {
		if x == 0 {
			continue
		}
		axpy(z, w[i*n:], x)
	}
	for o, v := range z {
		h[o] = clip(v)
	}
}

// backward adds g (the loss's derivative by the output) times the
// gradient of the output of the last forward pass to grad. The first
// layer's gradient touches only the columns of the active inputs.
func (m *model) backward(th, grad []float32, g float32, sc *scratch) {
	hw := th[m.head(sc.head):][:m.headSize]
	hg := grad[m.head(sc.head):][:m.headSize]
	// Output layer.
	hg[m.b4] += g
	w4, gw4 := hw[m.w4:m.b4], hg[m.w4:m.b4]
	d3 := sc.d3[:len(w4)]
	z3, h3 := sc.z3[:len(w4)], sc.h3[:len(w4)]
	live := false
	for j, w := range w4 {
		gw4[j] += g * h3[j]
		d3[j] = 0
		if z3[j] > 0 && z3[j] < 1 {
			d3[j] = g * w
			live = true
		}
	}
	if !live {
		return
	}
	// Third layer: its weights, and the deltas of the second.
	anyD2 := backLayer(sc.h2, sc.z2, hw[m.w3:m.b3], hg[m.w3:m.b3], hg[m.b3:m.w4], d3, sc.d2)
	if !anyD2 {
		return
	}
	// Second layer: its weights, and the deltas of the first layer's
	// units.
	if !backLayer(sc.a, sc.acc, hw[:m.b2], hg[:m.b2], hg[m.b2:m.w3], sc.d2, sc.da) {
		return
	}
	// First layer: the bias, and the active columns of each perspective.
	fo := m.first(sc.first)
	fg := grad[fo:][:m.firstSize]
	gb1 := fg[m.b1:][:m.h]
	for k := range 2 {
		da := sc.da[k*m.h:][:len(gb1)]
		add(gb1, da)
		for _, f := range sc.act[k][:sc.nact[k]] {
			add(fg[int(f)*m.h:][:len(da)], da)
		}
	}
}

// backLayer handles a layer out = b + W·in (W input-major) given the
// deltas d of its outputs: it adds in⊗d to gw and d to gb, and sets din,
// the deltas of the inputs, where zin (an input before its clip) lies
// inside the clip. It reports whether any input delta is not 0.
func backLayer(in, zin, w, gw, gb, d, din []float32) bool {
	n := len(d)
	gb = gb[:n]
	for o, x := range d {
		gb[o] += x
	}
	zin = zin[:len(in)]
	din = din[:len(in)]
	live := false
	for i, x := range in {
		row := w[i*n:][:n]
		grow := gw[i*n:][:n]
		if x != 0 {
			axpy(grow, d, x)
		}
		din[i] = 0
		if z := zin[i]; z > 0 && z < 1 {
			var s float32
			for o, wt := range row {
				s += wt * d[o]
			}
			din[i] = s
			live = true
		}
	}
	return live
}

// axpy adds a·src to dst (len(src) ≥ len(dst)), eight at a time: Go does
// not vectorise, and the unrolled loop runs about 1.5 times as fast.
func axpy(dst, src []float32, a float32) {
	src = src[:len(dst)]
	for len(dst) >= 8 {
		d, s := dst[:8:8], src[:8:8]
		d[0] += a * s[0]
		d[1] += a * s[1]
		d[2] += a * s[2]
		d[3] += a * s[3]
		d[4] += a * s[4]
		d[5] += a * s[5]
		d[6] += a * s[6]
		d[7] += a * s[7]
		dst, src = dst[8:], src[8:]
	}
	for i := range dst {
		dst[i] += a * src[i]
	}
}

// add adds src to dst (len(src) ≥ len(dst)), eight at a time.
func add(dst, src []float32) {
	src = src[:len(dst)]
	for len(dst) >= 8 {
		d, s := dst[:8:8], src[:8:8]
		d[0] += s[0]
		d[1] += s[1]
		d[2] += s[2]
		d[3] += s[3]
		d[4] += s[4]
		d[5] += s[5]
		d[6] += s[6]
		d[7] += s[7]
		dst, src = dst[8:], src[8:]
	}
	for i := range dst {
		dst[i] += src[i]
	}
}
