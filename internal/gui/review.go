package gui

import (
	"fmt"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/internal/review"
)

// markMoves marks each move of the game whose positions before and after
// both have a score, by the expected score its mover lost (internal/review,
// as nechecb analyse marks moves). Scores are from Black's side; moves[i]
// is ply i+1.
func markMoves(moves []moveView, points []scorePoint) {
	score := make(map[int]int, len(points))
	for _, p := range points {
		score[p.Ply] = p.Score
	}
	for i := range moves {
		before, ok1 := score[i]
		after, ok2 := score[i+1]
		if !ok1 || !ok2 {
			continue
		}
		if moves[i].Side == "white" {
			before, after = -before, -after
		}
		if loss := review.Loss(review.ExpectedOf(before), review.ExpectedOf(after)); loss > 0 {
			moves[i].Drop, moves[i].Mark = loss, review.Mark(loss)
		}
	}
}

// reviewRequest starts the analysis of the whole game at MoveTimeMs a
// position.
type reviewRequest struct {
	MoveTimeMs int `json:"moveTimeMs"`
}

// review starts the analysis of the whole game from its start, one
// position after another at the time asked, the position under analysis
// shown; the engine then plays neither side. Any change of the game or a
// setting stops it.
func (s *app) review(req reviewRequest) error {
	if req.MoveTimeMs < 10 || req.MoveTimeMs > 600_000 {
		return fmt.Errorf("game analysis moveTimeMs %d is outside 10..600000", req.MoveTimeMs)
	}
	st := &s.st
	if st.game.Ply() == 0 {
		return fmt.Errorf("the game has no move to analyse")
	}
	st.engineSide, st.analysing = [2]bool{}, false
	st.reviewMs, st.cursor = req.MoveTimeMs, 0
	st.version++
	s.startLocked("review")
	return nil
}

// reviewNextLocked goes on with a game analysis after a position: it
// analyses the next one, until the end of the game or a position that the
// rules have ended.
func (s *app) reviewNextLocked() {
	st := &s.st
	if st.cursor >= st.game.Ply() {
		return
	}
	st.cursor++
	st.version++
	if engine.ResultOf(st.game.Positions()[:st.cursor+1]).Outcome != engine.Ongoing {
		return
	}
	s.startLocked("review")
}
