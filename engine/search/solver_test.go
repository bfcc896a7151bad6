package search

import "github.com/nechecb/nechecb/engine"

// solver decides by exhaustive search whether the side to move can force a
// win (the opponent left without a move) within n plies. It shares nothing
// with the search (no pruning, no table but its own memo) and checks the
// win distances the search reports. It is exact but exponential: use it on
// small endgames and short wins.
type solver struct {
	memo map[solverKey]bool
}

type solverKey struct {
	pieces [2]uint64
	kings  uint64
	side   engine.Color
	n      int
}

func newSolver() *solver { return &solver{memo: map[solverKey]bool{}} }

// wins reports whether the side to move in p wins within n plies.
func (s *solver) wins(p *engine.Position, n int) bool {
	if n <= 0 {
		return false
	}
	k := solverKey{p.Pieces, p.Kings, p.Side, n}
	if v, ok := s.memo[k]; ok {
		return v
	}
	var l engine.MoveList
	p.Generate(&l)
	result := false
	for _, m := range l.Slice() {
		q := p.Play(m)
		if s.loses(&q, n-1) {
			result = true
			break
		}
	}
	s.memo[k] = result
	return result
}

// loses reports whether the side to move in p loses within n plies: it has
// no move, or every move lets the opponent win within n-1.
func (s *solver) loses(p *engine.Position, n int) bool {
	var l engine.MoveList
	p.Generate(&l)
	if l.N == 0 {
		return true
	}
	if n <= 1 {
		return false
	}
	for _, m := range l.Slice() {
		q := p.Play(m)
		if !s.wins(&q, n-1) {
			return false
		}
	}
	return true
}

// shortestWin returns the least odd n <= limit with wins(p, n), or 0.
func (s *solver) shortestWin(p *engine.Position, limit int) int {
	for n := 1; n <= limit; n += 2 {
		if s.wins(p, n) {
			return n
		}
	}
	return 0
}
