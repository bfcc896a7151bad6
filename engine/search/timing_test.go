package search

import (
	"testing"
	"time"

	"github.com/nechecb/nechecb/engine"
)

// TestAccountIsSpent plays 60 moves on CheckerBoard's account given as a
// clock (100 ms a move, starting with one), every third move forced. Each
// move with a choice takes its soft time and a quarter of the way on to
// its hard limit, as an iteration started just before the soft time would.
// The time saved on the forced moves must be spent, not banked: the clock
// ends below five increments, and the moves use at least 90% of the time
// given. The clock never runs out.
func TestAccountIsSpent(t *testing.T) {
	const inc = 100 * time.Millisecond
	s := New(Options{HashMB: 1, MoveOverhead: 10 * time.Millisecond}, nil)
	s.rootSide = engine.Black
	clock, used, given := inc, time.Duration(0), inc
	for k := 1; k <= 60; k++ {
		s.limits = Limits{BTime: clock, BInc: inc, WTime: clock, WInc: inc}
		moves := 7
		if k%3 == 0 {
			moves = 1
		}
		s.planTime(moves)
		took := time.Millisecond
		if moves > 1 {
			took = s.soft + (s.hard-s.soft)/4
		}
		if took > clock {
			t.Fatalf("move %d: planned %v (soft %v, hard %v) with %v on the clock", k, took, s.soft, s.hard, clock)
		}
		clock += inc - took
		used += took
		given += inc
	}
	if clock > 5*inc || used < given*9/10 {
		t.Errorf("after 60 moves: %v left on the clock, %v of %v used; want under %v left and at least 90%% used", clock, used, given, 5*inc)
	}
}
