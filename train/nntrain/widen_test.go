package nntrain

import (
	"context"
	"math"
	"strings"
	"testing"
)

// TestWiden: a net widened to more first-layer units computes what it
// did, a fit from it starts at the narrow net's held-out loss, its new
// units learn, and a layout that is not a widening is refused.
func TestWiden(t *testing.T) {
	ctx := context.Background()
	recs := labelled(800, 12)
	cfg := tinyConfig()
	cfg.Epochs = 1
	res, err := Train(ctx, recs, nil, cfg, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	narrow := res.Net
	wide := tiny
	wide.Hidden = 2 * tiny.Hidden
	old, m := newModel(tiny), newModel(wide)
	thN, thW := old.dequantise(narrow), m.startFrom(narrow, 3)
	scN, scW := old.newScratch(), m.newScratch()
	for i := range recs {
		p := recs[i].Board()
		if a, b := old.forward(thN, &p, scN), m.forward(thW, &p, scW); math.Abs(float64(a-b)) > 1e-4 {
			t.Fatalf("position %d: the narrow net gives %v, the widened one %v", i, a, b)
		}
	}

	same, err := Train(ctx, recs, narrow, cfg, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Layout = wide
	grown, err := Train(ctx, recs, narrow, cfg, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if d := math.Abs(grown.StartValid - same.StartValid); d > 1e-6 {
		t.Errorf("the widened fit starts at held-out loss %v, the narrow net's is %v", grown.StartValid, same.StartValid)
	}
	moved := false
	in := 2 * wide.Hidden
	for _, hd := range grown.Net.Heads {
		for o := range wide.L2 {
			for _, i := range []int{tiny.Hidden, wide.Hidden - 1, wide.Hidden + tiny.Hidden, in - 1} {
				moved = moved || hd.W2[o*in+i] != 0 // W2 is output-major
			}
		}
	}
	if !moved {
		t.Error("after an epoch, every second-layer weight of the new units is still 0")
	}

	cfg.Layout = tiny
	cfg.Layout.L2 = 2 * tiny.L2
	if _, err := Train(ctx, recs, narrow, cfg, nil, nil); err == nil || !strings.Contains(err.Error(), "only widen") {
		t.Errorf("a starting net with another second layer: error %v, want one saying a layout can only widen", err)
	}
}
