package protocol

import (
	"context"
	"fmt"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/internal/player"
	"github.com/nechecb/nechecb/protocol/hubtext"
)

// activeSearch is a go command between its start and its bestmove. The
// search itself runs in its own goroutine; everything here belongs to the
// server's loop.
type activeSearch struct {
	cancel context.CancelFunc
	root   engine.Position
	limits player.Limits
	// hold keeps the bestmove back until stop or ponderhit: an infinite
	// search, or a ponder search not yet hit, must not end by itself.
	hold bool
	// pondering is set until ponderhit.
	pondering bool
	// finished holds the result of a search that returned while hold was set.
	finished *player.Result
}

// searchDone carries a search's result back to the server's loop.
type searchDone struct{ res player.Result }

// unbounded reports whether the search has no limit that ends it.
func (a *activeSearch) unbounded() bool {
	l := a.limits
	return l.Depth == 0 && l.Nodes == 0 && l.MoveTime == 0 && l.WTime == 0 && l.BTime == 0
}

// startSearch answers a go command: from the book, at once when there is no
// legal move, or by starting the search goroutine.
func (s *Server) startSearch(limits player.Limits) {
	s.applyPending()
	root := s.game.Current()
	history := s.game.History()
	var l engine.MoveList
	root.Generate(&l)
	if l.N == 0 {
		s.sendNoMove()
		return
	}
	if s.cfg.Book != nil && !limits.Ponder && !limits.Infinite {
		if m, ok := s.cfg.Book.Probe(root, history); ok && isLegal(&root, m) && allowed(m, limits.SearchMoves) {
			s.note("book move " + s.moveText(m))
			s.sendBest(root, player.Result{Best: m, HasMove: true}, limits)
			return
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	a := &activeSearch{cancel: cancel, root: root, limits: limits,
		hold: limits.Infinite || limits.Ponder, pondering: limits.Ponder}
	s.search = a
	format := uciInfo
	if s.hub {
		format = hubInfo
	}
	progress := func(i player.Info) { s.out.trySend(format(i)) }
	s.log.Debug().Str("fen", root.FEN()).Interface("limits", limits).Msg("search")
	go func() {
		s.done <- searchDone{s.cfg.Searcher.Search(ctx, root, history, limits, progress)}
	}()
}

// searchEnded takes a search's result: it is sent now, or kept until stop or
// ponderhit when the search must not end by itself.
func (s *Server) searchEnded(d searchDone) {
	a := s.search
	if a.hold {
		a.finished = &d.res
		return
	}
	s.finishSearch(d.res)
}

// finishSearch sends the bestmove of the active search and forgets it.
func (s *Server) finishSearch(res player.Result) {
	a := s.search
	a.cancel()
	s.search = nil
	s.sendBest(a.root, res, a.limits)
}

// stopSearch answers stop: the search ends now and its bestmove follows.
func (s *Server) stopSearch() {
	a := s.search
	if a == nil {
		return
	}
	a.hold = false
	a.cancel()
	if a.finished != nil {
		s.finishSearch(*a.finished)
	}
}

// ponderHit answers ponderhit: the ponder search goes on as a normal one.
func (s *Server) ponderHit() {
	a := s.search
	if a == nil || !a.pondering {
		return
	}
	a.pondering = false
	a.hold = a.limits.Infinite
	s.cfg.Searcher.PonderHit()
	if a.finished != nil && !a.hold {
		s.finishSearch(*a.finished)
	}
}

// endOfInput lets a bounded search finish, stops one that never would, and
// sends its bestmove.
func (s *Server) endOfInput() {
	if s.search == nil {
		return
	}
	if s.search.hold || s.search.unbounded() {
		s.stopSearch()
	}
	if s.search != nil {
		s.searchEnded(<-s.done)
	}
}

// quit ends any search without sending its bestmove.
func (s *Server) quit() {
	a := s.search
	if a == nil {
		return
	}
	a.cancel()
	if a.finished == nil {
		<-s.done
	}
	s.search = nil
}

// sendNoMove answers go when the side to move has no legal move.
func (s *Server) sendNoMove() {
	r := s.game.Result()
	if s.hub {
		s.send(`info claim="loss no legal move"`)
		s.send("done")
		return
	}
	s.send("info string claim loss no legal move")
	s.send("info string result " + r.PDN() + " " + r.String())
	s.send("bestmove (none)")
}

// sendBest sends the claim, if any, and the bestmove (Hub: done) of a search
// of root. A result without a legal move (a search stopped at once, or a
// faulty searcher) is replaced by the first legal move allowed.
func (s *Server) sendBest(root engine.Position, res player.Result, limits player.Limits) {
	best := res.Best
	if !res.HasMove || !isLegal(&root, best) || !allowed(best, limits.SearchMoves) {
		if res.HasMove {
			s.log.Error().Str("move", best.String()).Str("fen", root.FEN()).Msg("search returned an illegal move")
		}
		best = root.LegalMoves()[0]
		if len(limits.SearchMoves) > 0 {
			best = limits.SearchMoves[0]
		}
		res = player.Result{Best: best, HasMove: true}
	}
	after := root.Play(best)
	ponder := ""
	if res.HasPonder && isLegal(&after, res.Ponder) {
		ponder = s.moveText(res.Ponder)
	}
	if c := s.claim(best, res.Score, res.Known); c != "" {
		if s.hub {
			s.send("info claim=" + hubtext.Quote(c))
		} else {
			s.send("info string claim " + c)
		}
	}
	move := s.moveText(best)
	switch {
	case s.hub && ponder != "":
		s.send("done move=" + move + " ponder=" + ponder)
	case s.hub:
		s.send("done move=" + move)
	case ponder != "":
		s.send("bestmove " + move + " ponder " + ponder)
	default:
		s.send("bestmove " + move)
	}
}

// claim returns "win|loss|draw <reason>" when the result is sure: a draw by
// the rules now or after best, the opponent left without a move, a win or
// loss the search proved, or the endgame database's verdict known on the
// root. Otherwise it returns "".
func (s *Server) claim(best engine.Move, score player.Score, known player.Outcome) string {
	if r := s.game.Result(); r.Outcome == engine.Draw {
		return "draw " + r.Reason
	}
	r := s.game.ResultAfter(best)
	switch {
	case r.Outcome == engine.Draw:
		return "draw " + r.Reason
	case r.Outcome != engine.Ongoing:
		return "win opponent has no legal move"
	case score.IsWin():
		return fmt.Sprintf("win forced win in %d plies", score.Plies())
	case score.IsLoss():
		return fmt.Sprintf("loss forced loss in %d plies", score.Plies())
	case known == player.DBWin, known == player.DBLoss, known == player.DBDraw:
		return known.String() + " endgame database"
	}
	return ""
}

// moveText writes a move in the dialect's notation.
func (s *Server) moveText(m engine.Move) string {
	if s.hub {
		return hubtext.Move(m)
	}
	return m.String()
}

// isLegal reports whether m is a legal move of p.
func isLegal(p *engine.Position, m engine.Move) bool {
	var l engine.MoveList
	p.Generate(&l)
	for _, o := range l.Slice() {
		if o == m {
			return true
		}
	}
	return false
}

// allowed reports whether m is among only, or only is empty.
func allowed(m engine.Move, only []engine.Move) bool {
	if len(only) == 0 {
		return true
	}
	for _, o := range only {
		if o == m {
			return true
		}
	}
	return false
}
