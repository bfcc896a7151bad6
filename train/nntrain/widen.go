package nntrain

import "github.com/nechecb/nechecb/eval/nn"

// canStart reports whether a net of layout from can start a fit of layout
// to: the same layout, or one grown from it, with more first-layer units,
// with its heads split, or both, and otherwise the same.
func canStart(from, to nn.Layout) bool {
	grown := from
	grown.Hidden = to.Hidden
	grown.SplitHeads = to.SplitHeads
	return to.Hidden >= from.Hidden && (to.SplitHeads || !from.SplitHeads) && grown == to
}

// startFrom returns float weights of m's layout that compute what start
// computes, start's layout being one that can start m's (see canStart).
// Start's units keep their weights; the new units get seeded random
// first-layer weights, as a random net's do, and second-layer weights of
// 0, so that they change no output until the fit moves them. When m splits
// heads that start does not, both heads of a stage begin as start's head
// of that stage.
func (m *model) startFrom(start *nn.Net, seed uint64) []float32 {
	old := newModel(start.Layout)
	src := old.dequantise(start)
	th := m.randomInit(seed)
	for f := range m.lay.FirstLayers() {
		dst, from := th[m.first(f):][:m.firstSize], src[old.first(f):][:old.firstSize]
		for i := range nn.Inputs + 1 { // the inputs' columns, then the biases
			copy(dst[i*m.h:][:old.h], from[i*old.h:][:old.h])
		}
	}
	perHead := m.lay.Heads() / old.lay.Heads() // 2 when the heads are split here, else 1
	for s := range m.lay.Heads() {
		dst, from := th[m.head(s):][:m.headSize], src[old.head(s/perHead):][:old.headSize]
		clear(dst[:m.b2])
		for k := range 2 { // the side to move's units, then the opponent's
			copy(dst[k*m.h*m.l2:][:old.h*m.l2], from[k*old.h*old.l2:][:old.h*old.l2])
		}
		copy(dst[m.b2:], from[old.b2:])
	}
	return th
}
