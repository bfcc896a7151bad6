package search

import (
	"testing"

	"github.com/nechecb/nechecb/engine"
)

// forcedWins are positions with a forced win of a known length. The search
// found them; the independent exhaustive solver (solver_test.go) confirms
// that plies is the shortest win, and the test replays the line to the end.
var forcedWins = []struct {
	name  string
	fen   string
	depth int // the search must report the win at this depth
	plies int // the shortest win, in plies
	// deeper is how many plies more the playing search may need than the
	// full-width one (without eval-distance truncation, Tuning.NoTrunc).
	deeper int
}{
	// Shots: give a piece to take two.
	{"king shot 7-2", "W:WK7,10:B3,K14", 5, 5, 0},
	{"man shot 10-14", "B:W22,28:B3,10,K23,24", 5, 5, 0},
	{"two-for-one 7-11", "B:W16,20:B1,2,7", 5, 5, 0},
	{"exchange and shot 18-14", "W:W18,21,24,30:B5,10", 5, 5, 0},
	{"long shot 31-26", "B:W15,22,24,32:B2,K4,27,K31", 15, 15, 0},
	// Breakthroughs: a sacrifice opens the way to the crowning row.
	{"breakthrough 10-7", "W:W5,10,11,26:B3,4", 9, 9, 3},
	{"breakthrough 6-2", "W:W6,7,20,32:B3,9", 11, 11, 0},
	// Two kings against one, the lone king starting in its double corner.
	{"2 kings v 1 from 23,27", "B:WK1:BK23,K27", 32, 23, 0},
	{"2 kings v 1 from 31,32", "B:WK1:BK31,K32", 40, 33, 0},
}

func TestForcedWins(t *testing.T) {
	t.Run("full width", func(t *testing.T) { forcedWinsAt(t, Tuning{NoTrunc: true}, false) })
	t.Run("playing", func(t *testing.T) { forcedWinsAt(t, Tuning{}, true) })
}

// forcedWinsAt searches each of forcedWins with tune to its depth (plus its
// deeper plies when deeper is set) and checks the win and its line.
func forcedWinsAt(t *testing.T, tune Tuning, deeper bool) {
	s := New(Options{HashMB: 16, Tuning: tune}, nil)
	for _, c := range forcedWins {
		t.Run(c.name, func(t *testing.T) {
			pos := mustFEN(t, c.fen)
			if !deeper && (!testing.Short() || c.plies <= 15) {
				if n := newSolver().shortestWin(&pos, c.plies); n != c.plies {
					t.Fatalf("solver: shortest win %d plies, the table says %d", n, c.plies)
				}
			}
			s.Clear()
			depth := c.depth
			if deeper {
				depth += c.deeper
			}
			r := depthSearch(t, s, pos, depth)
			if !r.Score.IsWin() || r.Score.Plies() != c.plies {
				t.Fatalf("depth %d: score %v, want win %d", depth, r.Score, c.plies)
			}
			// The line must be the win: legal, and the loser has no move at its end.
			checkLine(t, pos, r.PV)
			end := pos
			for _, m := range r.PV {
				end = end.Play(m)
			}
			if len(r.PV) != c.plies || end.CountMoves() != 0 {
				t.Errorf("line %v (%d plies) ends in %s with %d moves, want the loser without a move after %d plies",
					r.PV, len(r.PV), end.FEN(), end.CountMoves(), c.plies)
			}
			if end.Side == pos.Side {
				t.Errorf("the line ends with the winner to move")
			}
		})
	}
}

// TestLossIsDelayed checks that the losing side takes the slowest loss: the
// lone king's best defence lasts as long as the solver says.
func TestLossIsDelayed(t *testing.T) {
	pos := mustFEN(t, "B:WK1:BK23,K27")
	var l engine.MoveList
	pos.Generate(&l)
	s := New(Options{HashMB: 16}, nil)
	r := depthSearch(t, s, pos.Play(l.Moves[0]), 32)
	sol := newSolver()
	after := pos.Play(l.Moves[0])
	// The side to move loses; its loss distance is one less than the
	// winner's shortest win from each of its replies, maximised.
	var replies engine.MoveList
	after.Generate(&replies)
	longest := 0
	for _, m := range replies.Slice() {
		q := after.Play(m)
		longest = max(longest, 1+sol.shortestWin(&q, 31))
	}
	if !r.Score.IsLoss() || r.Score.Plies() != longest {
		t.Errorf("after %v: score %v, want loss %d", l.Moves[0], r.Score, longest)
	}
}
