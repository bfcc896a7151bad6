package review

import (
	"math"
	"testing"

	"github.com/nechecb/nechecb/engine/search"
)

func TestExpected(t *testing.T) {
	for _, c := range []struct {
		s    search.Score
		want float64
	}{
		{0, 0.5}, {100, 1 / (1 + math.Exp(-K))}, {-100, 1 / (1 + math.Exp(K))},
		{search.WinIn(9), 1}, {search.LossIn(4), 0},
		{search.KnownWinScore, 1}, {-search.KnownWinScore, 0},
	} {
		if got := Expected(c.s); math.Abs(got-c.want) > 1e-12 {
			t.Errorf("Expected(%v) = %v, want %v", c.s, got, c.want)
		}
	}
	if e := ExpectedOf(100); e < 0.74 || e > 0.76 {
		t.Errorf("a man up is worth %.3f, want about 0.75", e)
	}
}

func TestMark(t *testing.T) {
	for _, c := range []struct {
		loss float64
		want string
	}{{0, ""}, {0.049, ""}, {0.05, "?!"}, {0.099, "?!"}, {0.1, "?"}, {0.199, "?"}, {0.2, "??"}, {1, "??"}} {
		if got := Mark(c.loss); got != c.want {
			t.Errorf("Mark(%v) = %q, want %q", c.loss, got, c.want)
		}
	}
	if Loss(0.4, 0.6) != 0 || Loss(0.6, 0.4) < 0.2-1e-12 {
		t.Errorf("Loss(0.4, 0.6) = %v, Loss(0.6, 0.4) = %v", Loss(0.4, 0.6), Loss(0.6, 0.4))
	}
}
