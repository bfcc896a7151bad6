package patterntrain

import (
	"fmt"
	"math"
	"math/bits"
	"strings"

	"github.com/nechecb/nechecb/eval/pattern"
	"github.com/nechecb/nechecb/train/fit"
)

// layout says where a model's terms lie among the trained parameters.
// Each term has a slot per knot and, when the knots are tied, one more
// for a base shared by all knots: a knot's weight is then its slot plus
// the base, so that every position trains the base and a knot's own slot
// learns only how that knot differs.
type layout struct {
	knots    int
	slots    int // per term: the knots, and the base when tied
	ending   bool
	kingsOff int
	// upper and share give, for each piece count, the upper of the two
	// knots that blend and its share.
	upper [pattern.MaxPieces + 1]int32
	share [pattern.MaxPieces + 1]float32
}

func newLayout(m pattern.Model, tie bool) layout {
	l := layout{knots: len(m.Knots), slots: len(m.Knots), ending: m.Ending, kingsOff: m.KingsOffset()}
	if tie {
		l.slots++
	}
	for n := range l.upper {
		k, s := m.Blend(n)
		l.upper[n], l.share[n] = int32(k), float32(s)
	}
	return l
}

// maxActive bounds the terms a position uses: the windows, the global and
// ending terms and a king per piece.
const maxActive = pattern.NumWindows + pattern.NumGlobals + pattern.NumEnding + pattern.MaxPieces

// active lists the parameters a position uses: for each term, the index
// of its slot at the upper knot (the lower knot's is the next, the base's,
// if tied, base further on) and the term's count, with the upper knot's
// share.
type active struct {
	n     int
	j     [maxActive]int32
	x     [maxActive]float32
	share float32
	base  int32 // 0: not tied
}

// gather lists the terms of f in a.
func (l *layout) gather(f *pattern.Features, a *active) {
	n := min(f.Pieces, pattern.MaxPieces)
	up, K := l.upper[n], int32(l.slots)
	a.share, a.n, a.base = l.share[n], 0, 0
	if l.slots > l.knots {
		a.base = int32(l.knots) - up
	}
	add := func(off int, x float32) {
		a.j[a.n], a.x[a.n] = int32(off)*K+up, x
		a.n++
	}
	for w, idx := range f.Windows {
		add(w*pattern.WindowStates+int(idx), 1)
	}
	for g, x := range f.Globals {
		if x != 0 {
			add(pattern.GlobalsOffset+g, float32(x))
		}
	}
	if l.ending {
		for g, x := range f.Ending {
			if x != 0 {
				add(pattern.GlobalsOffset+pattern.NumGlobals+g, float32(x))
			}
		}
	}
	for b := f.OwnKings; b != 0; b &= b - 1 {
		add(l.kingsOff+bits.TrailingZeros32(b), 1)
	}
	for b := f.OppKings; b != 0; b &= b - 1 {
		add(l.kingsOff+32+bits.TrailingZeros32(b), 1)
	}
}

// value returns the value of the listed terms with the weights th, in
// centipawns.
func (a *active) value(th []float32) float32 {
	var s0, s1, sb float32
	for i, j := range a.j[:a.n] {
		x := a.x[i]
		s0 += x * th[j]
		s1 += x * th[j+1]
		if a.base != 0 {
			sb += x * th[j+a.base]
		}
	}
	return a.share*s0 + (1-a.share)*s1 + sb
}

// addGradient adds g times the gradient of the value to grad.
func (a *active) addGradient(g float32, grad []float32) {
	g0, g1 := g*a.share, g*(1-a.share)
	for i, j := range a.j[:a.n] {
		x := a.x[i]
		grad[j] += x * g0
		grad[j+1] += x * g1
		if a.base != 0 {
			grad[j+a.base] += x * g
		}
	}
}

// fold returns the model's weights (laid out by Model.Param) of the
// parameters theta: a knot's slot plus the base when tied.
func (l *layout) fold(theta []float32) []float32 {
	if l.slots == l.knots {
		return theta
	}
	out := make([]float32, len(theta)/l.slots*l.knots)
	for t := range len(theta) / l.slots {
		base := theta[t*l.slots+l.knots]
		for k := range l.knots {
			out[t*l.knots+k] = theta[t*l.slots+k] + base
		}
	}
	return out
}

// dropped returns the term offsets (within a knot) of the global and
// ending terms named, which m must have.
func dropped(m pattern.Model, names []string) ([]int, error) {
	var offs []int
	for _, name := range names {
		off := -1
		for g, n := range pattern.GlobalNames {
			if n == name {
				off = pattern.GlobalsOffset + g
			}
		}
		for g, n := range pattern.EndingNames {
			if n == name && m.Ending {
				off = pattern.GlobalsOffset + pattern.NumGlobals + g
			}
		}
		if off < 0 {
			all := append(pattern.GlobalNames[:], pattern.EndingNames[:]...)
			if !m.Ending {
				all = pattern.GlobalNames[:]
			}
			return nil, fmt.Errorf("no term %q to drop in this model (terms: %s)", name, strings.Join(all, ", "))
		}
		offs = append(offs, off)
	}
	return offs, nil
}

// initWeights sets the weights from start, or to material, and marks the
// weights that decay and those held at zero.
func (t *trainer) initWeights(start *pattern.Weights) {
	m := t.cfg.Model
	slots := t.lay.slots
	np := m.Terms() * slots
	// slot returns the index of term off's slot k (k = knots: the base).
	slot := func(off, k int) int { return off*slots + k }
	t.opt = fit.NewAdam(make([]float32, np), shards, t.cfg.Workers)
	theta, frozen, decayed := t.opt.Theta, make([]bool, np), make([]bool, np)
	t.opt.Frozen, t.opt.Decayed, t.opt.Decay = frozen, decayed, float32(t.cfg.Decay)
	for off := range m.Terms() {
		isGlobal := off >= pattern.GlobalsOffset && off < m.KingsOffset()
		for k := range slots {
			decayed[slot(off, k)] = !isGlobal
		}
	}
	w := make([]float32, m.Params()) // the knots' weights, base 0
	if start == nil {
		for k := range m.Knots {
			w[m.Param(pattern.GlobalsOffset+pattern.GlobalMen, k)] = 100
			w[m.Param(pattern.GlobalsOffset+pattern.GlobalKings, k)] = 130
		}
	} else {
		carryOver(start, m, w)
	}
	for off := range m.Terms() {
		for k := range m.Knots {
			theta[slot(off, k)] = w[m.Param(off, k)]
		}
	}
	offs, _ := dropped(m, t.cfg.Drop) // checked by checkConfig
	for _, off := range offs {
		for k := range slots {
			theta[slot(off, k)], frozen[slot(off, k)] = 0, true
		}
	}
}

// carryOver sets theta, weights of the model m in centipawns, to the
// values start gives: each knot of m takes start's blend at the knot's
// piece count, term by term, and terms start lacks are 0. When start's
// knots are among m's (version 1 into version 2), every position keeps
// its value.
func carryOver(start *pattern.Weights, m pattern.Model, theta []float32) {
	from := start.Model
	scale := float32(start.Scale)
	for k, pieces := range m.Knots {
		fk, share := from.Blend(pieces)
		for off := range m.Terms() {
			src := off
			switch {
			case off >= m.KingsOffset():
				src = off - m.KingsOffset() + from.KingsOffset()
			case off >= from.KingsOffset():
				continue // an ending term start does not have
			}
			hi, lo := float32(start.W[from.Param(src, fk)]), float32(start.W[from.Param(src, fk+1)])
			theta[m.Param(off, k)] = (float32(share)*hi + float32(1-share)*lo) / scale
		}
	}
}

// Quantise rounds weights of the model m in centipawns to the file's
// integers at scale units per centipawn, and counts those clipped to the
// int16 range.
func Quantise(m pattern.Model, theta []float32, scale int) (*pattern.Weights, int) {
	w := &pattern.Weights{Model: m, Scale: scale, W: make([]int16, len(theta))}
	clipped := 0
	for i, x := range theta {
		q := math.Round(float64(x) * float64(scale))
		if q > math.MaxInt16 || q < -math.MaxInt16 {
			clipped++
			q = math.Max(-math.MaxInt16, math.Min(math.MaxInt16, q))
		}
		w.W[i] = int16(q)
	}
	return w, clipped
}
