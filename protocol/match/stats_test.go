package match

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
	// 60 wins, 40 losses: score 0.6, se = sqrt(0.24/100).
	elo, lo, hi := Tally{W: 60, L: 40}.Elo()
	near(t, "elo 60-40", elo, 70.4365, 1e-3)
	near(t, "lo 60-40", lo, 2.7669, 1e-3)
	near(t, "hi 60-40", hi, 143.9092, 1e-3)
	// Draws narrow the interval: 30-10-60 has the same score.
	_, lo, hi = Tally{W: 30, L: 10, D: 60}.Elo()
	near(t, "lo 30-10-60", lo, 28.6945, 1e-3)
	near(t, "hi 30-10-60", hi, 114.2970, 1e-3)
	// LOS: 20 more wins in 100 decisive games is two standard deviations.
	near(t, "LOS 60-40", Tally{W: 60, L: 40, D: 77}.LOS(), 0.9772499, 1e-6)
	near(t, "LOS even", Tally{W: 5, L: 5}.LOS(), 0.5, 1e-12)
	near(t, "draw rate", Tally{W: 1, L: 1, D: 2}.DrawRate(), 0.5, 1e-12)
	rev := Tally{W: 3, L: 1, D: 2, Penta: [5]int{1, 2, 3, 4, 5}}.Reversed()
	if rev != (Tally{W: 1, L: 3, D: 2, Penta: [5]int{5, 4, 3, 2, 1}}) {
		t.Errorf("Reversed = %+v", rev)
	}
}

func TestSPRT(t *testing.T) {
	s := SPRT{Elo0: 0, Elo1: 5, Alpha: 0.05, Beta: 0.05}
	lower, upper := s.Bounds()
	near(t, "lower", lower, -2.944439, 1e-6)
	near(t, "upper", upper, 2.944439, 1e-6)
	// 10 pairs with one draw and one win-draw (per-game 0.5 and 0.75):
	// mean 0.625, variance 0.015625, s1 = 0.5071945.
	penta := [5]int{0, 0, 10, 10, 0}
	near(t, "LLR", s.LLR(penta), 1.1180808, 1e-6)
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
