package gui

import (
	"math"
	"net/http"
	"strings"
	"testing"

	"github.com/nechecb/nechecb/internal/review"
)

// TestMarkMovesBySide checks that a drop counts for the side that moved:
// Black's scores falling is Black's loss, White's gain, each measured in
// the mover's expected score.
func TestMarkMovesBySide(t *testing.T) {
	moves := []moveView{{Side: "black"}, {Side: "white"}, {Side: "black"}}
	markMoves(moves, []scorePoint{{Ply: 0, Score: 0}, {Ply: 1, Score: -120}, {Ply: 2, Score: -60}, {Ply: 3, Score: -90}})
	for i, w := range []struct {
		mark          string
		before, after int // for the mover
	}{{"??", 0, -120}, {"?", 120, 60}, {"?!", -60, -90}} {
		drop := review.ExpectedOf(w.before) - review.ExpectedOf(w.after)
		if moves[i].Mark != w.mark || math.Abs(moves[i].Drop-drop) > 1e-9 {
			t.Errorf("move %d (%s): mark %q drop %.4f, want %q %.4f", i+1, moves[i].Side, moves[i].Mark, moves[i].Drop, w.mark, drop)
		}
	}
}

// TestReviewAnalysesEveryPosition analyses a short game at 20 ms a
// position: every position gets a score, the review ends at the last one,
// and the marks agree with the scores.
func TestReviewAnalysesEveryPosition(t *testing.T) {
	s := newTestServer(t)
	s.humanOnly()
	s.mustPost("/api/play", playRequest{Moves: []string{"11-15", "23-19", "8-11", "22-17"}})
	st := s.mustPost("/api/review", reviewRequest{MoveTimeMs: 20})
	if st.Searching != "review" || st.Cursor != 0 {
		t.Fatalf("review started: searching %q, cursor %d", st.Searching, st.Cursor)
	}
	st = s.waitFor("the end of the game analysis", func(v stateView) bool { return v.Searching == "" })
	if len(st.Scores) != 5 || st.Cursor != 4 {
		t.Fatalf("after the review: %d scores, cursor %d; want 5 (plies 0..4), 4", len(st.Scores), st.Cursor)
	}
	for i, m := range st.Moves {
		if m.Mark != review.Mark(m.Drop) {
			t.Errorf("move %d: mark %q for a drop of %.4f", i+1, m.Mark, m.Drop)
		}
	}
	if status, msg := s.post("/api/review", reviewRequest{MoveTimeMs: 5}, nil); status != http.StatusBadRequest || !strings.Contains(msg, "moveTimeMs 5") {
		t.Errorf("review at 5 ms: %d %q", status, msg)
	}
	// A move stops the review.
	s.mustPost("/api/review", reviewRequest{MoveTimeMs: 60_000})
	if st = s.mustPost("/api/goto", gotoRequest{Ply: 2}); st.Searching != "" {
		t.Errorf("after a goto the review still runs: searching %q", st.Searching)
	}
}
