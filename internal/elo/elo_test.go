package elo

import (
	"math"
	"testing"
)

func near(t *testing.T, what string, got, want, tol float64) {
	t.Helper()
	if math.Abs(got-want) > tol || math.IsNaN(got) {
		t.Errorf("%s = %v, want %v", what, got, want)
	}
}

func TestEloAndLOS(t *testing.T) {
	// A 75% score is 190.85 Elo, 64% about 100, 50% zero.
	near(t, "EloFromScore(0.75)", EloFromScore(0.75), 190.8485, 1e-3)
	near(t, "EloFromScore(0.64)", EloFromScore(0.64), 99.9510, 1e-3)
	near(t, "EloFromScore(0.5)", EloFromScore(0.5), 0, 1e-12)
	near(t, "ScoreFromElo(190.8485)", ScoreFromElo(190.8485), 0.75, 1e-6)
	if !math.IsInf(EloFromScore(1), 1) || !math.IsInf(EloFromScore(0), -1) {
		t.Error("EloFromScore is not infinite at 0 and 1")
	}
	// 60 wins, 40 losses: score 0.6; the variance counts a third of a game
	// more in each outcome (60⅓ wins, ⅓ draw, 40⅓ losses: 0.239372), so
	// se = sqrt(0.239372/100).
	elo, lo, hi := Tally{W: 60, L: 40}.Elo()
	near(t, "elo 60-40", elo, 70.4365, 1e-3)
	near(t, "lo 60-40", lo, 2.8542, 1e-3)
	near(t, "hi 60-40", hi, 143.8060, 1e-3)
	// Draws narrow the interval: 30-10-60 has the same score.
	_, lo, hi = Tally{W: 30, L: 10, D: 60}.Elo()
	near(t, "lo 30-10-60", lo, 28.4991, 1e-3)
	near(t, "hi 30-10-60", hi, 114.5129, 1e-3)
	// With game pairs the interval comes from the pairs: 10 pairs drawn
	// twice and 10 pairs of a win and a draw (W 10, D 30, score 0.625) have
	// a pair variance, with a fifth of a pair more in each of the five
	// outcomes, of 0.022865 and a standard error of sqrt(2 * 0.022865 /
	// 40); the same games unpaired give a wider trinomial interval,
	// [38.79, 142.59].
	paired := Tally{W: 10, D: 30, Penta: [5]int{0, 0, 10, 10, 0}}
	elo, lo, hi = paired.Elo()
	near(t, "elo paired", elo, 88.7395, 1e-3)
	near(t, "lo paired", lo, 42.3705, 1e-3)
	near(t, "hi paired", hi, 138.4466, 1e-3)
	_, lo, hi = Tally{W: 10, D: 30}.Elo()
	near(t, "lo unpaired", lo, 38.7869, 1e-3)
	near(t, "hi unpaired", hi, 142.5923, 1e-3)
	// A game outside any complete pair counts in the score and the count.
	paired.Add(2)
	elo, lo, hi = paired.Elo()
	near(t, "elo paired+1", elo, 95.5528, 1e-3)
	near(t, "lo paired+1", lo, 49.3959, 1e-3)
	near(t, "hi paired+1", hi, 145.2769, 1e-3)
	// LOS: 20 more wins in 100 decisive games is two standard deviations.
	near(t, "LOS 60-40", Tally{W: 60, L: 40, D: 77}.LOS(), 0.9772499, 1e-6)
	near(t, "LOS even", Tally{W: 5, L: 5}.LOS(), 0.5, 1e-12)
	near(t, "draw rate", Tally{W: 1, L: 1, D: 2}.DrawRate(), 0.5, 1e-12)
	rev := Tally{W: 3, L: 1, D: 2, Penta: [5]int{1, 2, 3, 4, 5}}.Reversed()
	if rev != (Tally{W: 1, L: 3, D: 2, Penta: [5]int{5, 4, 3, 2, 1}}) {
		t.Errorf("Reversed = %+v", rev)
	}
}

func TestAddAndString(t *testing.T) {
	var tl Tally
	for _, half := range []int{2, 2, 1, 0} {
		tl.Add(half)
	}
	tl.AddPair(4)
	tl.AddPair(1)
	if tl != (Tally{W: 2, D: 1, L: 1, Penta: [5]int{0, 1, 0, 0, 1}}) {
		t.Errorf("tally %+v", tl)
	}
	if tl.Points() != 2.5 || tl.String() != "+2 =1 -1 (2.5/4, 62.5%)" {
		t.Errorf("Points %v, String %q", tl.Points(), tl.String())
	}
	if e, _, _ := (Tally{D: 3}).Elo(); e != 0 {
		t.Errorf("Elo of all draws = %v", e)
	}
}

func TestSPRT(t *testing.T) {
	s := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	lower, upper := s.Bounds()
	near(t, "lower", lower, -2.944439, 1e-6)
	near(t, "upper", upper, 2.944439, 1e-6)
	// 10 pairs with one draw and one win-draw (per-game 0.5 and 0.75):
	// mean 0.625, variance 0.015625, with the prior (20·0.015625 + 1/16)/21,
	// s1 = 0.50719508: LLR = 20·(s1-0.5)·(1.25-0.5-s1)/(2·0.0178571).
	penta := [5]int{0, 0, 10, 10, 0}
	near(t, "LLR", s.LLR(penta), 0.9783207, 1e-6)
	if d, _ := s.Decide(penta); d != Continue {
		t.Errorf("decision %v, want continue", d)
	}
	if d, _ := s.Decide([5]int{0, 0, 30, 30, 0}); d != AcceptH1 {
		t.Errorf("60 pairs at 62.5%%: decision %v, want H1", d)
	}
	if d, _ := s.Decide([5]int{0, 30, 30, 0, 0}); d != AcceptH0 {
		t.Errorf("60 pairs at 37.5%%: decision %v, want H0", d)
	}
	if s.LLR([5]int{}) != 0 {
		t.Error("LLR with no pairs is not 0")
	}
	// Pairs that all ended alike have no variance of their own: a few of
	// them decide nothing, many do.
	s15 := SPRT{Elo0: 0, Elo1: 15, Alpha: 0.05, Beta: 0.05}
	if d, llr := s15.Decide([5]int{0, 0, 13, 0, 0}); d != Continue {
		t.Errorf("13 even pairs: %v (LLR %.2f), want continue", d, llr)
	}
	if d, llr := s15.Decide([5]int{0, 0, 60, 0, 0}); d != AcceptH0 {
		t.Errorf("60 even pairs: %v (LLR %.2f), want H0", d, llr)
	}
	// Below MinPairs pairs nothing is decided, however one-sided they are;
	// at MinPairs they are.
	if d, _ := s15.Decide([5]int{0, 1, 0, 0, 0}); d != Continue {
		t.Errorf("one pair: %v, want continue", d)
	}
	if d, _ := s.Decide([5]int{MinPairs - 1, 0, 0, 0, 0}); d != Continue {
		t.Errorf("%d lost pairs: %v, want continue", MinPairs-1, d)
	}
	if d, _ := s.Decide([5]int{MinPairs, 0, 0, 0, 0}); d != AcceptH0 {
		t.Errorf("%d lost pairs: %v, want H0", MinPairs, d)
	}
	if (SPRT{Elo0: 5, Elo1: 0, Alpha: 0.05, Beta: 0.05}).Validate() == nil || (SPRT{Elo1: 5, Alpha: 1, Beta: 0.05}).Validate() == nil || s.Validate() != nil {
		t.Error("Validate does not check its bounds")
	}
}

func TestFormatElo(t *testing.T) {
	for e, want := range map[float64]string{math.Copysign(0, -1): "+0.0", -0.01: "+0.0", 5.56: "+5.6", -12.34: "-12.3", math.Inf(1): "+inf", math.Inf(-1): "-inf"} {
		if got := FormatElo(e); got != want {
			t.Errorf("FormatElo(%v) = %q, want %q", e, got, want)
		}
	}
}

// TestIntervalNeverMisleads: below MinIntervalPairs pairs the interval is
// unknown (after one game it read [+inf, +inf], after two pairs won and
// drawn [+190.8, +190.8]); beyond it, pairs that all scored the same still
// give an interval of some width.
func TestIntervalNeverMisleads(t *testing.T) {
	for _, tl := range []Tally{{W: 1}, {W: 2, D: 2, Penta: [5]int{0, 0, 0, 2, 0}}, {W: 9}, {W: 4, D: 4, Penta: [5]int{0, 0, 0, 4, 0}}} {
		e, lo, hi := tl.Elo()
		if got := FormatInterval(lo, hi); got != "[unknown]" {
			t.Errorf("%+v: Elo %s %s, want the interval unknown", tl, FormatElo(e), got)
		}
	}
	// Ten pairs each won and drawn: score 0.75, +190.8. The pair variance
	// with a fifth of a pair added to each outcome is 6/11 - (8/11)² =
	// 0.016529 (not 0), so se = sqrt(2*0.016529/20) = 0.040656 and the
	// interval is [Elo(0.67032), Elo(0.82968)].
	e, lo, hi := Tally{W: 10, D: 10, Penta: [5]int{0, 0, 0, 10, 0}}.Elo()
	near(t, "elo of ten identical pairs", e, 190.8485, 1e-3)
	near(t, "lo of ten identical pairs", lo, EloFromScore(0.67032), 0.1)
	near(t, "hi of ten identical pairs", hi, EloFromScore(0.82968), 0.1)
	if !(hi-lo > 100) {
		t.Errorf("ten identical pairs: interval [%v, %v], want a width over 100 Elo", lo, hi)
	}
	// Every game won: the upper bound is infinite, the lower one finite.
	_, lo, hi = Tally{W: 20, Penta: [5]int{0, 0, 0, 0, 10}}.Elo()
	if !math.IsInf(hi, 1) || math.IsInf(lo, 0) || lo < 100 {
		t.Errorf("twenty wins: interval [%v, %v], want a finite lower bound above +100 and +inf", lo, hi)
	}
	if got := FormatInterval(-3.04, math.Inf(1)); got != "[-3.0, +inf]" {
		t.Errorf("FormatInterval = %q", got)
	}
}
