package fit

import (
	"math"
	"strings"
	"testing"
)

func TestBuckets(t *testing.T) {
	for n, want := range map[int]int{0: 0, 2: 0, 6: 0, 7: 1, 10: 1, 11: 2, 14: 2, 15: 3, 19: 3, 20: 4, 24: 4} {
		if got := BucketOf(n); got != want {
			t.Errorf("%d pieces: bucket %d, want %d", n, got, want)
		}
	}
	var names []string
	for b := range NumBuckets {
		names = append(names, BucketName(b))
	}
	if got := strings.Join(names, " "); got != "2-6 7-10 11-14 15-19 20-24" {
		t.Errorf("bucket names %q", got)
	}
}

// TestCurveKeepsTheBest: the kept epoch is the lowest held-out loss, the
// start when no epoch beats it, and the latest when nothing is held out.
func TestCurveKeepsTheBest(t *testing.T) {
	c := Curve{ValidN: 10, StartValid: 0.5}
	for i, v := range []float64{0.6, 0.45, 0.47} {
		c.Add(Epoch{Epoch: i + 1, Valid: v})
	}
	if c.Best != 2 || c.BestValid() != 0.45 {
		t.Errorf("kept epoch %d (%v), want 2", c.Best, c.BestValid())
	}
	c = Curve{ValidN: 10, StartValid: 0.4}
	if c.Add(Epoch{Epoch: 1, Valid: 0.45}) || c.Best != 0 {
		t.Errorf("a worse epoch than the start was kept")
	}
	c = Curve{StartValid: math.NaN()}
	for i := range 3 {
		c.Add(Epoch{Epoch: i + 1, Valid: math.NaN()})
	}
	if c.Best != 3 {
		t.Errorf("nothing held out: kept epoch %d, want the last", c.Best)
	}
	if svg := string(c.SVG("t")); !strings.HasPrefix(svg, "<svg") || strings.Contains(svg, "NaN") {
		t.Errorf("plot %q", svg)
	}
}

func TestParallelRunsEveryShardOnce(t *testing.T) {
	for _, workers := range []int{1, 3, 16} {
		var hits [7]int
		Parallel(workers, 7, func(s int) { hits[s]++ })
		for s, h := range hits {
			if h != 1 {
				t.Errorf("workers %d: shard %d ran %d times", workers, s, h)
			}
		}
	}
	n, prev := 10, 0
	for s := range 3 {
		lo, hi := ShardRange(s, 3, n)
		if lo != prev || hi < lo {
			t.Errorf("shard %d: %d..%d", s, lo, hi)
		}
		prev = hi
	}
	if prev != n {
		t.Errorf("the shards end at %d of %d", prev, n)
	}
}

func TestSumBuckets(t *testing.T) {
	losses := [][NumBuckets]float64{{1, 2, 0, 0, 0.5}, {3, 0, 0, 1, 0.25}}
	counts := [][NumBuckets]int{{2, 1, 0, 0, 1}, {4, 0, 0, 3, 1}}
	sum, n := SumBuckets(losses, counts)
	if sum != [NumBuckets]float64{4, 2, 0, 1, 0.75} || n != [NumBuckets]int{6, 1, 0, 3, 2} {
		t.Errorf("SumBuckets gives %v and %v", sum, n)
	}
}
