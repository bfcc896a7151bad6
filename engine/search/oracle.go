package search

import (
	"math/bits"

	"github.com/nechecb/nechecb/engine"
)

// Outcome is what an Oracle knows of a position for the side to move.
type Outcome int8

const (
	// Unknown means the oracle cannot tell.
	Unknown Outcome = iota
	// KnownWin means the side to move wins against best play.
	KnownWin
	// KnownLoss means the side to move loses against best play.
	KnownLoss
	// KnownDraw means neither side can force a win.
	KnownDraw
)

// String returns "unknown", "win", "loss" or "draw".
func (o Outcome) String() string {
	switch o {
	case KnownWin:
		return "win"
	case KnownLoss:
		return "loss"
	case KnownDraw:
		return "draw"
	}
	return "unknown"
}

// Oracle is what the search needs from an endgame database: the outcome of
// a position under the rules' perfect play (repetitions and the 40-move rule
// aside), for positions of at most Pieces pieces. Probe is called from every
// search thread at once and at every node within Pieces, so it must be safe
// for concurrent use and fast.
type Oracle interface {
	// Probe returns p's outcome for its side to move, or Unknown.
	Probe(p *engine.Position) Outcome
	// Pieces is the most pieces of a position Probe answers.
	Pieces() int
}

// Scores of positions the oracle settles. A known win is worth KnownWinScore
// plus the evaluation (clamped to ±knownSpread): above every evaluation, so
// a database win is never traded for material, below every forced win the
// search proves, so an actual win in n plies is preferred, and still ordered
// by the evaluator, so that among winning moves the search picks the one
// that also gains by its evaluation and makes progress.
const (
	// KnownWinScore is the centre of the band of database wins.
	KnownWinScore Score = 20000
	knownSpread   Score = 5000
)

// IsKnownWin reports whether s lies in the band of wins an oracle settled.
func (s Score) IsKnownWin() bool {
	return s >= KnownWinScore-knownSpread && s <= KnownWinScore+knownSpread
}

// IsKnownLoss reports whether s lies in the band of losses an oracle settled.
func (s Score) IsKnownLoss() bool { return (-s).IsKnownWin() }

// knownScore is the score of a position the oracle says o of, whose
// evaluation is ev.
func knownScore(o Outcome, ev Score) Score {
	ev = min(max(ev, -knownSpread), knownSpread)
	switch o {
	case KnownWin:
		return KnownWinScore + ev
	case KnownLoss:
		return -KnownWinScore + ev
	}
	return DrawScore
}

// knownScore is the score of stack[ply], which the oracle says o of. A
// loss with nothing left to move is the game's end, scored as such, so
// that the search still tells actual wins from database wins.
func (w *worker) knownScore(ply int, o Outcome) Score {
	pos := &w.stack[ply].pos
	if o == KnownLoss && (pos.Pieces[pos.Side] == 0 || !pos.HasCapture() && !canStep(pos)) {
		return LossIn(ply)
	}
	ev := w.evaluate(ply)
	switch o {
	case KnownWin:
		ev += closeIn(pos, pos.Side)
	case KnownLoss:
		ev -= closeIn(pos, pos.Side^1)
	}
	return knownScore(o, ev)
}

// closeIn is the winner's progress in a won ending the evaluation may not
// see: each of its kings closer to the nearest of the loser's pieces is
// worth a few points, so that the search, among equally won moves, brings
// its kings in for the kill instead of shuffling (the final combination
// is then within its horizon).
func closeIn(p *engine.Position, winner engine.Color) Score {
	loser := p.Pieces[winner^1]
	total := 0
	for k := p.Pieces[winner] & p.Kings; k != 0; k &= k - 1 {
		kr, kc := bitCoords(bits.TrailingZeros64(k))
		near := 8
		for l := loser; l != 0; l &= l - 1 {
			lr, lc := bitCoords(bits.TrailingZeros64(l))
			near = min(near, max(abs(kr-lr), abs(kc-lc)))
		}
		total += near
	}
	return Score(-closeInWeight * total)
}

// closeInWeight is closeIn's value of one step.
const closeInWeight = 4

// bitCoords returns the row and column of the square of bit b.
func bitCoords(b int) (row, col int) { return engine.SquareCoords(engine.BitSquare(b)) }

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// probe asks the oracle about stack[ply] if it is within the oracle's
// pieces, counting a hit when the answer is known.
func (w *worker) probe(ply int) Outcome {
	pos := &w.stack[ply].pos
	if w.dbPieces == 0 || popcount(pos.Pieces[0]|pos.Pieces[1]) > w.dbPieces {
		return Unknown
	}
	o := w.s.oracle.Probe(pos)
	if o != Unknown {
		w.tbHits++
	}
	return o
}

// cutByOracle reports whether a node whose outcome is o ends the search
// there. It does, except when the oracle knows the root is won or lost:
// then positions with the root's outcome are searched on, so that the
// winner finds actual wins and the evaluation's progress among its winning
// moves (and the loser the longest resistance), and only the moves that
// change the outcome are cut at once.
func (w *worker) cutByOracle(ply int, o Outcome) bool {
	switch root := w.s.rootOutcome; {
	case o == Unknown:
		return false
	case root != KnownWin && root != KnownLoss:
		return true
	case w.stack[ply].pos.Side != w.s.rootSide:
		o = o.Neg()
	}
	return o != w.s.rootOutcome
}

// Neg returns the outcome for the other side: a win for one side is a
// loss for the other.
func (o Outcome) Neg() Outcome {
	switch o {
	case KnownWin:
		return KnownLoss
	case KnownLoss:
		return KnownWin
	}
	return o
}

// SetOracle makes the search consult o (nil: none) at every node within its
// pieces. It must not be called during a search.
func (s *Searcher) SetOracle(o Oracle) {
	s.oracle = o
}

// Oracle returns the oracle in use, or nil.
func (s *Searcher) Oracle() Oracle { return s.oracle }
