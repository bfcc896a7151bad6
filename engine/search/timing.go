package search

import (
	"time"

	"github.com/nechecb/nechecb/engine"
)

// defaultMovesToGo is the number of moves the clock is shared over when the
// time control does not say.
const defaultMovesToGo = 30

// incMinMoves is the fewest moves a clock with an increment is shared over
// (see planTime).
const incMinMoves = 4

// planTime sets the time budget for a search of a root with moves legal
// moves: soft is when no new iteration starts, hard when the search stops.
func (s *Searcher) planTime(moves int) {
	l := &s.limits
	s.soft, s.hard, s.timed = 0, 0, false
	overhead := s.opts.MoveOverhead
	if l.MoveTime > 0 {
		s.timed = true
		s.hard = max(l.MoveTime-overhead, time.Millisecond)
		s.soft = s.hard
	}
	left, inc := l.BTime, l.BInc
	if s.rootSide == engine.White {
		left, inc = l.WTime, l.WInc
	}
	if left > 0 || inc > 0 {
		mtg := defaultMovesToGo
		if l.MovesToGo > 0 {
			mtg = min(l.MovesToGo, defaultMovesToGo)
		}
		if inc > 0 {
			// A clock of few increments (the account of a CheckerBoard
			// engine match is nothing else) is spent over as many moves as
			// it holds increments: time saved on forced moves goes to the
			// next ones instead of piling up unused to the end of the game.
			mtg = min(mtg, max(int(left/inc), incMinMoves))
		}
		avail := max(left-overhead, time.Millisecond)
		most := avail / 2 // never bet more than half the clock on one move
		switch {
		case mtg == 1:
			// The last move before the time control may use more of it.
			most = avail * 8 / 10
		case inc > 0:
			// A move whose increment comes back after it may use more of
			// the clock too, but keeps half an increment in hand: at a
			// few increments on the clock, 80% of it would leave so
			// little that one late wake-up of the process loses on time.
			most = min(avail*8/10, max(avail-inc/2, avail/2))
		}
		target := min(avail/time.Duration(mtg)+inc, most)
		soft, hard := target*6/10, min(target*3, most)
		if moves == 1 {
			soft = 0 // a forced move: answer after the first iteration
		}
		if s.timed {
			soft, hard = min(soft, s.soft), min(hard, s.hard)
		}
		s.soft, s.hard, s.timed = soft, hard, true
	}
}

// elapsed is the time counted against the limits: from the start of the
// search, or from PonderHit.
func (s *Searcher) elapsed() time.Duration {
	return time.Duration(time.Now().UnixNano() - s.clockStart.Load())
}

// cancelled reports whether the search's context is done.
func (s *Searcher) cancelled() bool {
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// checkLimits runs on the main thread every few hundred nodes and raises the
// stop flag when the search's context is done, or the hard time or the node
// limit is reached.
func (s *Searcher) checkLimits() {
	if s.cancelled() {
		s.stop.Store(true)
		return
	}
	if s.pondering.Load() {
		return
	}
	if s.timed && s.elapsed() >= s.hard {
		s.stop.Store(true)
	}
	if s.limits.Nodes > 0 && s.totalNodes() >= s.limits.Nodes {
		s.stop.Store(true)
	}
}

// iterationsDone reports, after the main thread finishes depth with best
// score score, whether iterative deepening should end.
func (s *Searcher) iterationsDone(depth int, score Score) bool {
	if s.cancelled() {
		s.stop.Store(true)
	}
	if s.stop.Load() {
		return true
	}
	if s.pondering.Load() || s.limits.Infinite {
		return false
	}
	if s.timed && s.elapsed() >= s.soft {
		return true
	}
	// A proven result will not change; a few more plies confirm it.
	if p := score.Plies(); p > 0 && depth >= p+4 && s.limits.Depth == 0 {
		return true
	}
	return false
}
