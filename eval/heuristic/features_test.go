package heuristic

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nechecb/nechecb/engine"
)

// want builds a feature count array from name/value pairs; unnamed features
// are 0.
func want(t *testing.T, pairs map[int]int) [NumFeatures]int {
	t.Helper()
	var out [NumFeatures]int
	for f, v := range pairs {
		out[f] = v
	}
	return out
}

func mustFEN(t testing.TB, fen string) engine.Position {
	t.Helper()
	p, err := engine.ParseFEN(fen)
	if err != nil {
		t.Fatalf("ParseFEN(%q): %v", fen, err)
	}
	return p
}

// The expected counts below were worked out by hand from the feature
// definitions; the comments give the squares that count.
func TestSideFeatures(t *testing.T) {
	start := engine.StartPosition()
	startCounts := want(t, map[int]int{
		Men:               12,
		SafeMen:           6,  // 1, 2, 3, 4, 5, 12
		Defenders:         8,  // 1-8
		PromotionDistance: 72, // 4×7 + 4×6 + 4×5
		Mobility:          7,  // 9-13, 9-14, 10-14, 10-15, 11-15, 11-16, 12-16
		BackRank:          4,
		Bridge:            1,
		CentreMen:         2, // 10, 11
	})
	// Black kings 1 and 15, men 27 and 28; White king 32 (hemmed in by 27
	// and 28), man 11.
	kings := mustFEN(t, "B:WK32,11:BK1,K15,27,28")
	// Black man 14 and White man 18 face each other and can both jump.
	duel := mustFEN(t, "W:W18:B14")
	for _, tc := range []struct {
		name string
		p    engine.Position
		side engine.Color
		want [NumFeatures]int
	}{
		{"start black", start, engine.Black, startCounts},
		{"start white", start, engine.White, startCounts},
		{"kings black", kings, engine.Black, want(t, map[int]int{
			Men: 2, Kings: 2,
			SafeMen:           1, // 28
			SafeKings:         1, // 1
			Defenders:         1, // K1
			Attackers:         2, // 27, 28
			PromotionDistance: 2,
			OpenPromotion:     3, // 29, 30, 31
			Mobility:          6, // 27-31, K1-5, K1-6, K15-18, K15-19, K15-10
			Jumps:             1, // K15x8 over 11
			CentreKings:       1, // K15
			DoubleCornerKings: 1, // K1
		})},
		{"kings white", kings, engine.White, want(t, map[int]int{
			Men: 1, Kings: 1,
			SafeKings:         1, // 32
			Defenders:         1, // K32
			Attackers:         1, // 11
			PromotionDistance: 2, // 11 is two rows from 1-4
			OpenPromotion:     3, // 2, 3, 4
			Mobility:          2, // 11-7, 11-8
			Jumps:             1, // K32x23 over 27
			CentreMen:         1, // 11
			Runaways:          1, // 11: nothing of Black's on 7, 8, 2, 3, 4
			TrappedKings:      1, // K32
			DoubleCornerKings: 1, // K32
		})},
		{"duel black", duel, engine.Black, want(t, map[int]int{
			Men: 1, PromotionDistance: 4, OpenPromotion: 4, Mobility: 1, Jumps: 1, CentreMen: 1,
		})},
		{"duel white", duel, engine.White, want(t, map[int]int{
			Men: 1, PromotionDistance: 4, OpenPromotion: 4, Mobility: 1, Jumps: 1, CentreMen: 1,
		})},
		{"king against men", mustFEN(t, "B:W25:BK10"), engine.Black, want(t, map[int]int{
			Kings: 1, Mobility: 4, OpenPromotion: 4, CentreKings: 1, KingsVsMen: 1,
		})},
		// 22's cone (25, 26, 29, 30, 31) is free; 23's holds White's 27.
		{"runaway", mustFEN(t, "B:W5,20,27:B22,23"), engine.Black, want(t, map[int]int{
			Men: 2, Attackers: 2, PromotionDistance: 4, OpenPromotion: 4,
			Mobility:  3, // 22-25, 22-26, 23-26
			Jumps:     1, // 23x32
			CentreMen: 2,
			Runaways:  1,
		})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := SideFeatures(&tc.p, tc.side)
			if diff := cmp.Diff(namedCounts(tc.want), namedCounts(got)); diff != "" {
				t.Errorf("%s: SideFeatures(%s) (-want +got):\n%s", tc.p.FEN(), tc.side, diff)
			}
		})
	}
}

// namedCounts keys counts by feature name so that diffs read well.
func namedCounts(c [NumFeatures]int) map[string]int {
	out := map[string]int{}
	for i, v := range c {
		out[FeatureNames[i]] = v
	}
	return out
}
