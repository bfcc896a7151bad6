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
func (r *record) result() engine.Result { return engine.ResultOf(r.positions) }

// resultAfter judges the position after m is played.
func (r *record) resultAfter(m engine.Move) engine.Result {
	cur := r.current()
	return engine.ResultOf(append(r.positions[:len(r.positions):len(r.positions)], cur.Play(m)))
}
