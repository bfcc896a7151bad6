package search

import (
	"slices"
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

// TestLowClockKeepsCushion plays 200 moves at 0.5 s + 0.05 s, each taking
// its hard limit and 15 ms more, as a process woken late on a loaded
// machine does: the clock never runs out. Spending 80% of the clock at
// each move, it fell below zero within a few moves of reaching its floor.
func TestLowClockKeepsCushion(t *testing.T) {
	const inc, late = 50 * time.Millisecond, 15 * time.Millisecond
	s := New(Options{HashMB: 1, MoveOverhead: 6 * time.Millisecond}, nil)
	s.rootSide = engine.Black
	clock, lowest := 500*time.Millisecond, time.Hour
	for k := 1; k <= 200; k++ {
		s.limits = Limits{BTime: clock, BInc: inc, WTime: clock, WInc: inc}
		s.planTime(7)
		clock -= s.hard + late
		lowest = min(lowest, clock)
		if clock < 0 {
			t.Fatalf("move %d: the clock ran out (%v) after a hard limit of %v", k, clock, s.hard)
		}
		clock += inc
	}
	t.Logf("lowest clock after a move: %v", lowest)
}

// TestTimeBudget checks the soft and hard budgets planned from the limits
// against the rules of planTime, without searching.
func TestTimeBudget(t *testing.T) {
	const overhead = 10 * time.Millisecond
	s := New(Options{HashMB: 1, MoveOverhead: overhead}, nil)
	plan := func(side engine.Color, l Limits, moves int) (soft, hard time.Duration, timed bool) {
		s.limits, s.rootSide = l, side
		s.planTime(moves)
		return s.soft, s.hard, s.timed
	}
	if _, _, timed := plan(engine.Black, Limits{Depth: 5}, 7); timed {
		t.Error("a depth-limited search has a time budget")
	}
	if soft, hard, timed := plan(engine.Black, Limits{MoveTime: 100 * time.Millisecond}, 7); !timed || soft != 90*time.Millisecond || hard != soft {
		t.Errorf("movetime 100 ms less 10 ms overhead: soft %v hard %v timed %v, want both 90ms", soft, hard, timed)
	}
	// One second on Black's clock, an hour on White's, no increment.
	clock := Limits{BTime: time.Second, WTime: time.Hour}
	avail := time.Second - overhead
	soft, hard, timed := plan(engine.Black, clock, 7)
	if !timed || soft <= 0 || soft > hard || hard > avail/2 {
		t.Errorf("1 s left: soft %v hard %v timed %v, want 0 < soft <= hard <= half of %v", soft, hard, timed, avail)
	}
	if _, whiteHard, _ := plan(engine.White, clock, 7); whiteHard <= hard {
		t.Errorf("White with an hour plans %v, no more than Black with a second (%v)", whiteHard, hard)
	}
	if forcedSoft, forcedHard, _ := plan(engine.Black, clock, 1); forcedSoft != 0 || forcedHard != hard {
		t.Errorf("a forced move: soft %v hard %v, want soft 0 (stop after one iteration) and hard %v", forcedSoft, forcedHard, hard)
	}
	// The last move before the time control may take more than half the
	// clock, but never more than 80% of it.
	last := clock
	last.MovesToGo = 1
	if _, lastHard, _ := plan(engine.Black, last, 7); lastHard <= avail/2 || lastHard > avail*8/10 {
		t.Errorf("one move to go with 1 s: hard %v, want between half and 80%% of %v", lastHard, avail)
	}
	// CheckerBoard's account as a clock: 100 ms a move, 150 ms saved. The
	// increment comes back after the move, so the plan spends more than
	// half the clock and more than the increment, never past 80% of it.
	acct := Limits{BTime: 250 * time.Millisecond, BInc: 100 * time.Millisecond, WTime: time.Hour}
	acctAvail := acct.BTime - overhead
	if s, h, _ := plan(engine.Black, acct, 7); h <= acctAvail/2 || h > acctAvail*8/10 || s < acct.BInc*6/10 || s > h {
		t.Errorf("250 ms + 100 ms a move: soft %v hard %v, want soft from 60%% of the increment, hard between half and 80%% of %v", s, h, acctAvail)
	}
	// A long clock with a small increment is still shared over many moves:
	// the saved time is not spent as fast as an account's.
	long := Limits{BTime: time.Minute, BInc: 10 * time.Millisecond, WTime: time.Hour}
	if _, h, _ := plan(engine.Black, long, 7); h > 3*((long.BTime-overhead)/defaultMovesToGo+long.BInc) {
		t.Errorf("a minute + 10 ms: hard %v, more than three shares of %d moves", h, defaultMovesToGo)
	}
	// With a movetime as well, the tighter of the two budgets holds.
	both := clock
	both.MoveTime = 20 * time.Millisecond
	if bothSoft, bothHard, _ := plan(engine.Black, both, 7); bothHard != 10*time.Millisecond || bothSoft > bothHard {
		t.Errorf("1 s clock and movetime 20 ms: soft %v hard %v, want hard 10ms and soft no later", bothSoft, bothHard)
	}
}

// TestClockTimeManagement searches with a clock: with one second left the
// search ends by itself with a move, and a forced move (a single capture) on
// a one-minute clock is answered after the first iteration.
func TestClockTimeManagement(t *testing.T) {
	s := New(Options{HashMB: 4, MoveOverhead: 10 * time.Millisecond}, nil)
	r, _ := searchOnItsOwn(t, s, engine.StartPosition(), Limits{BTime: time.Second, WTime: time.Hour}, nil)
	if !r.HasMove {
		t.Error("with 1 s on the clock the search gave no move")
	}
	pos := mustFEN(t, "W:W18,K30:B14,K1")
	if pos.CountMoves() != 1 {
		t.Fatalf("test position has %d moves, want 1", pos.CountMoves())
	}
	var depths []int
	r, _ = searchOnItsOwn(t, s, pos, Limits{WTime: time.Minute, BTime: time.Minute}, func(i Info) { depths = append(depths, i.Depth) })
	if !r.HasMove || r.Depth != 1 || !slices.Equal(depths, []int{1}) {
		t.Errorf("a forced move on a one-minute clock: move %v, depth %d, reported depths %v; want a move after depth 1 only", r.HasMove, r.Depth, depths)
	}
}
