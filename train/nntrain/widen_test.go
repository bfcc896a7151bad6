package nntrain

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/nechecb/nechecb/eval/nn"
)

// TestGrow: a net grown to more first-layer units, to split heads or to
// both computes what it did, a fit from it starts at the small net's
// held-out loss, what was added learns, and a layout that is not grown
// from the small one is refused.
func TestGrow(t *testing.T) {
	ctx := context.Background()
	recs := labelled(800, 12)
	cfg := tinyConfig()
	cfg.Epochs = 1
	res, err := Train(ctx, recs, nil, cfg, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	small := res.Net
	same, err := Train(ctx, recs, small, cfg, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	wide := tiny
	wide.Hidden = 2 * tiny.Hidden
	split := tiny
	split.SplitHeads = true
	both := wide
	both.SplitHeads = true
	for _, lay := range []nn.Layout{wide, split, both} {
		old, m := newModel(tiny), newModel(lay)
		thS, thG := old.dequantise(small), m.startFrom(small, 3)
		scS, scG := old.newScratch(), m.newScratch()
		for i := range recs {
			p := recs[i].Board()
			if a, b := old.forward(thS, &p, scS), m.forward(thG, &p, scG); math.Abs(float64(a-b)) > 1e-4 {
				t.Fatalf("%s, position %d: the small net gives %v, the grown one %v", lay, i, a, b)
			}
		}
		cfg.Layout = lay
		grown, err := Train(ctx, recs, small, cfg, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if d := math.Abs(grown.StartValid - same.StartValid); d > 1e-6 {
			t.Errorf("%s: the grown fit starts at held-out loss %v, the small net's is %v", lay, grown.StartValid, same.StartValid)
		}
		if lay.Hidden > tiny.Hidden && !newUnitsMoved(grown.Net, tiny.Hidden) {
			t.Errorf("%s: after an epoch, every second-layer weight of the new units is still 0", lay)
		}
		if lay.SplitHeads && !splitHeadsDiffer(grown.Net) {
			t.Errorf("%s: after an epoch, the two heads of every stage are still equal", lay)
		}
	}

	cfg.Layout = tiny
	cfg.Layout.L2 = 2 * tiny.L2
	if _, err := Train(ctx, recs, small, cfg, nil, nil); err == nil || !strings.Contains(err.Error(), "only widen") {
		t.Errorf("a starting net with another second layer: error %v, want one saying a layout can only widen", err)
	}
	cfg.Layout = split
	res, err = Train(ctx, recs, nil, cfg, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Layout = tiny
	if _, err := Train(ctx, recs, res.Net, cfg, nil, nil); err == nil || !strings.Contains(err.Error(), "split the heads") {
		t.Errorf("a split starting net for unsplit heads: error %v, want a refusal", err)
	}
}

// newUnitsMoved reports whether some second-layer weight from a unit at
// index oldHidden or above has left 0.
func newUnitsMoved(net *nn.Net, oldHidden int) bool {
	l := net.Layout
	in := 2 * l.Hidden
	for _, hd := range net.Heads {
		for o := range l.L2 {
			for _, i := range []int{oldHidden, l.Hidden - 1, l.Hidden + oldHidden, in - 1} {
				if hd.W2[o*in+i] != 0 { // W2 is output-major
					return true
				}
			}
		}
	}
	return false
}

// splitHeadsDiffer reports whether some stage's two heads have come apart.
func splitHeadsDiffer(net *nn.Net) bool {
	for s := 0; s+1 < len(net.Heads); s += 2 {
		a, b := &net.Heads[s], &net.Heads[s+1]
		if !slices.Equal(a.W2, b.W2) || !slices.Equal(a.W3, b.W3) || a.B4 != b.B4 {
			return true
		}
	}
	return false
}
