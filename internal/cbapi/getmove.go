package cbapi

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/internal/player"
	"github.com/nechecb/nechecb/internal/session"
)

// PollInterval is how often GetMove looks at the host's play-now flag.
const PollInterval = time.Millisecond

// Request is one getmove call, read from the host's arguments.
type Request struct {
	Board          Board
	Color          int
	MaxTime        float64
	Info, MoreInfo int
	// PlayNow reports whether the host asks for the move at once. It is
	// polled every PollInterval while the engine thinks (nil: never).
	PlayNow func() bool
	// Status shows a line to the user (nil: nowhere). GetMove calls it from
	// its own and the search's goroutines, one call at a time, and never
	// after it returns.
	Status func(string)
}

// Reply is the answer to getmove.
type Reply struct {
	// Result is the API's result code for the side that moved.
	Result int
	// Moved is set when Board (the position after the move) and Move hold
	// the engine's move; otherwise the host's board stays as it was.
	Moved bool
	Board Board
	Move  Move
	// Played is the move in numeric notation, Line the final status line.
	Played, Line string
}

// GetMove answers getmove: it reads the board, finds the engine's move by
// the book, at once when it is the only one, or by searching within the
// time the host allows, and judges the game after it. A board that is not
// a position, a side with no move, or a call while another runs gets an
// answer without a move and a status line that says why.
func (p *Plugin) GetMove(req Request) Reply {
	status := newStatus(req.Status)
	defer status.close()
	fail := func(result int, msg string) Reply {
		status.show(msg)
		return Reply{Result: result, Line: msg}
	}
	pos, err := PositionOf(&req.Board, req.Color)
	if err != nil {
		return fail(ResultUnknown, "nechecb: not a position: "+err.Error())
	}
	var legal engine.MoveList
	pos.Generate(&legal)
	if legal.N == 0 {
		return fail(ResultLoss, fmt.Sprintf("nechecb: %s has no legal move and loses", pos.Side))
	}
	pre, err := p.prepare()
	if err != nil {
		return fail(ResultUnknown, "nechecb: "+err.Error())
	}
	defer p.done()
	for _, problem := range pre.problems {
		status.show("nechecb: a setting made during the last move did not take: " + problem)
	}
	game := gameAt(pos, pre.hist)
	root, history := game.Current(), game.History()
	if req.Info&ResetMoves != 0 {
		pre.eng.Clear()
	}
	budget := Plan(root.Side, req.MaxTime, req.Info, req.MoreInfo)
	var best engine.Move
	var score player.Score
	var known player.Outcome
	var line string
	if m, ok := bookMove(pre, root, history, legal.Slice()); ok {
		best, line = m, "book move "+root.Notation(m)
	} else if legal.N == 1 && !budget.Exact {
		best, line = legal.Moves[0], "only move "+root.Notation(legal.Moves[0])
	} else {
		best, score, known, line = think(pre, root, history, legal.Slice(), budget, req.PlayNow, status)
	}
	if known == player.DBUnknown {
		known = pre.eng.ProbeDB(&root)
	}
	result, why := judge(game, best, score, known)
	if why != "" {
		line += "  (" + why + ")"
	}
	line = Clip(line, MaxText)
	status.show(line)
	after := root.Play(best)
	return Reply{Result: result, Moved: true, Board: BoardOf(&after), Move: MoveOf(&root, best),
		Played: root.Notation(best), Line: line}
}

// bookMove probes the book, under the Book option's level, for a legal
// move.
func bookMove(pre prepared, root engine.Position, history []engine.Position, legal []engine.Move) (engine.Move, bool) {
	m, ok := pre.book.Probe(root, history)
	return m, ok && contains(legal, m)
}

// contains reports whether m is one of moves.
func contains(moves []engine.Move, m engine.Move) bool {
	for _, o := range moves {
		if o == m {
			return true
		}
	}
	return false
}

// think searches root within budget, showing each finished depth, until
// the budget ends or playNow says so, and returns the move, its score, the
// database's verdict on root and the last status line. A search stopped
// before it has a move plays the first legal one.
func think(pre prepared, root engine.Position, history []engine.Position, legal []engine.Move,
	budget Budget, playNow func() bool, status *statusLine) (engine.Move, player.Score, player.Outcome, string) {
	multi := min(pre.eng.Options().MultiPV, len(legal))
	if pre.allScores {
		multi = len(legal)
	}
	if o := pre.eng.Options(); o.MultiPV != multi {
		// allscores, or fewer legal moves, override MultiPV for this
		// search only.
		keep := o.MultiPV
		o.MultiPV = multi
		pre.eng.SetOptions(o)
		defer func() { o.MultiPV = keep; pre.eng.SetOptions(o) }()
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stopWatching := watchPlayNow(playNow, cancel)
	start := time.Now()
	lines := make([]player.Info, 0, multi)
	var last string
	progress := func(in player.Info) {
		defer func() { _ = recover() }() // a status line must never bring the host down
		if len(in.PV) == 0 {
			return
		}
		lines = keepLine(lines, in)
		last = StatusLine(root, lines[0], lines)
		status.show(last)
		if budget.Soft > 0 && in.MultiPV >= multi && time.Since(start) >= budget.Soft {
			cancel()
		}
	}
	res := pre.eng.Search(ctx, root, history, budget.Limits, progress)
	stopWatching()
	best := res.Best
	if !res.HasMove || !contains(legal, best) {
		best, res.Score = legal[0], 0
	}
	if last == "" {
		last = "depth 0"
	}
	return best, res.Score, res.Known, "best " + root.Notation(best) + "  " + last
}

// keepLine puts in among lines, which hold the latest line of each root
// move, and orders them as the status line shows them: the newest depth
// first, by rank within a depth. A depth cut short by the clock so shows
// its finished lines, then the other moves from the depth before, each
// move once.
func keepLine(lines []player.Info, in player.Info) []player.Info {
	i := slices.IndexFunc(lines, func(l player.Info) bool { return l.PV[0] == in.PV[0] })
	if i < 0 {
		lines = append(lines, in)
	} else {
		lines[i] = in
	}
	slices.SortStableFunc(lines, func(a, b player.Info) int {
		if a.Depth != b.Depth {
			return cmp.Compare(b.Depth, a.Depth)
		}
		return cmp.Compare(a.MultiPV, b.MultiPV)
	})
	return lines
}

// watchPlayNow polls playNow every PollInterval and calls stop once it
// reports true. The function it returns ends the watch and waits for it, so
// that the host's flag is not read after getmove returns.
func watchPlayNow(playNow func() bool, stop func()) func() {
	if playNow == nil {
		return func() {}
	}
	if playNow() {
		stop()
		return func() {}
	}
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(PollInterval)
		defer t.Stop()
		for {
			select {
			case <-quit:
				return
			case <-t.C:
				if playNow() {
					stop()
					return
				}
			}
		}
	}()
	return func() {
		close(quit)
		wg.Wait()
	}
}

// judge returns the result code of playing best from the game's current
// position, and its reason: a draw only when the rules make it one (now or
// after the move), a win when the opponent is left without a move or the
// search proved one, a loss the search proved, or else the endgame
// database's verdict known on that position.
func judge(game *session.Game, best engine.Move, score player.Score, known player.Outcome) (int, string) {
	if r := game.Result(); r.Outcome == engine.Draw {
		return ResultDraw, "draw: " + r.Reason
	}
	r := game.ResultAfter(best)
	switch {
	case r.Outcome == engine.Draw:
		return ResultDraw, "draw: " + r.Reason
	case r.Outcome != engine.Ongoing:
		return ResultWin, "win: the opponent has no legal move"
	case score.IsWin():
		return ResultWin, fmt.Sprintf("win: forced in %d plies", score.Plies())
	case score.IsLoss():
		return ResultLoss, fmt.Sprintf("loss: forced in %d plies", score.Plies())
	case known == player.DBWin:
		return ResultWin, "win: endgame database"
	case known == player.DBLoss:
		return ResultLoss, "loss: endgame database"
	case known == player.DBDraw:
		return ResultDraw, "draw: endgame database"
	}
	return ResultUnknown, ""
}

// statusLine hands lines to the host's Status one at a time and stops
// handing them on once closed.
type statusLine struct {
	mu     sync.Mutex
	show1  func(string)
	closed bool
}

func newStatus(show func(string)) *statusLine { return &statusLine{show1: show} }

// show passes s, clipped to MaxText bytes, to the host.
func (s *statusLine) show(text string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.show1 != nil && !s.closed {
		s.show1(Clip(text, MaxText))
	}
}

// close ends the status line's life.
func (s *statusLine) close() {
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
}
