package protocol

import (
	"fmt"

	"github.com/nechecb/nechecb/engine"
)

// record is the game the client set up: the start position and every
// position after it, the current one last. Unlike engine.Game it accepts
// moves after a draw by the rules, since the GUI, not the engine, decides
// when a game ends.
type record struct {
	positions []engine.Position
}

// reset starts the record again from p.
func (r *record) reset(p engine.Position) { r.positions = []engine.Position{p} }

// current returns the position to move from.
func (r *record) current() engine.Position { return r.positions[len(r.positions)-1] }

// history returns the earlier positions, oldest first, current excluded.
func (r *record) history() []engine.Position { return r.positions[:len(r.positions)-1] }

// newRecord plays moves from start, reading each with parse. On the first
// move that does not fit it returns an error naming the move's number.
func newRecord(start engine.Position, moves []string, parse func(*engine.Position, string) (engine.Move, error)) (record, error) {
	r := record{positions: make([]engine.Position, 1, len(moves)+1)}
	r.positions[0] = start
	for i, text := range moves {
		cur := r.current()
		m, err := parse(&cur, text)
		if err != nil {
			return record{}, fmt.Errorf("move %d: %w", i+1, err)
		}
		r.positions = append(r.positions, cur.Play(m))
	}
	return r, nil
}

// result judges the current position under the rules.
func (r *record) result() engine.Result { return resultOf(r.positions) }

// resultAfter judges the position after m is played.
func (r *record) resultAfter(m engine.Move) engine.Result {
	cur := r.current()
	return resultOf(append(r.positions[:len(r.positions):len(r.positions)], cur.Play(m)))
}

// resultOf judges the last of positions: no legal move loses; the third
// occurrence of a position and the 40-move rule draw.
func resultOf(positions []engine.Position) engine.Result {
	last := len(positions) - 1
	cur := positions[last]
	var l engine.MoveList
	cur.Generate(&l)
	if l.N == 0 {
		return engine.Result{Outcome: engine.WinFor(cur.Side.Opponent()), Reason: "no legal move"}
	}
	seen := 0
	// Only positions since the last capture or man move can repeat it.
	for i := last; i >= 0 && i >= last-int(cur.Reversible); i-- {
		if positions[i].Hash == cur.Hash && positions[i].SameBoard(&cur) {
			seen++
		}
	}
	switch {
	case seen >= 3:
		return engine.Result{Outcome: engine.Draw, Reason: "threefold repetition"}
	case int(cur.Reversible) >= engine.DrawPlies:
		return engine.Result{Outcome: engine.Draw, Reason: "40-move rule"}
	}
	return engine.Result{Outcome: engine.Ongoing}
}
