package console

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/internal/player"
)

// think searches the current position with lim, printing each depth, until
// the search ends or the user presses Ctrl-C. It returns false when Ctrl-C
// stopped the search; the result is then the best found so far.
func (s *Session) think(lim player.Limits) (player.Result, bool) {
	s.drainInterrupts()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := s.startSearch(ctx, lim)
	select {
	case r := <-done:
		return r, true
	case <-s.cfg.Interrupts:
		cancel()
		r := <-done
		s.lastInterrupt = true
		return r, false
	}
}

// startSearch runs the engine on the current position in the background.
func (s *Session) startSearch(ctx context.Context, lim player.Limits) <-chan player.Result {
	pos := s.game.Current()
	history := append([]engine.Position(nil), s.game.History()...)
	done := make(chan player.Result, 1)
	s.report = lastReport{}
	go func() { done <- s.cfg.Engine.Search(ctx, pos, history, lim, s.progress) }()
	return done
}

func (s *Session) drainInterrupts() {
	for {
		select {
		case <-s.cfg.Interrupts:
		default:
			return
		}
	}
}

// lineWidth is the width of a terminal line; a progress report fits in it.
const lineWidth = 80

// quietFor is how long progress reports whose score and move do not change
// are held back: a solved position completes many depths in an instant.
const quietFor = time.Second

// lastReport is what the last progress report printed said.
type lastReport struct {
	score   string      // as shown
	best    engine.Move // the line's first move
	printed bool
	at      time.Duration // search time of the report
}

// progress prints one depth of a search when its score or the move it would
// play differ from the last report printed, or quietFor after it; the line
// is cut to fit lineWidth columns.
func (s *Session) progress(in player.Info) {
	var best engine.Move
	if len(in.PV) > 0 {
		best = in.PV[0]
	}
	score := formatScore(in.Score)
	last := &s.report
	if last.printed && last.score == score && last.best == best && in.Time-last.at < quietFor {
		return
	}
	*last = lastReport{score: score, best: best, printed: true, at: in.Time}
	tb := ""
	if in.TBHits > 0 {
		tb = " " + humanCount(in.TBHits) + " db"
	}
	head := fmt.Sprintf("depth %2d/%-2d %-10s %6s nodes %6.2fs %5s nps%s",
		in.Depth, in.SelDepth, score, humanCount(in.Nodes), in.Time.Seconds(), humanCount(in.NPS), tb)
	s.printf("%s\n", fitLine(head+"  "+s.line(in.PV), lineWidth))
}

// fitLine cuts line at a space so that it fits width columns, marking the
// cut with "...".
func fitLine(line string, width int) string {
	if len(line) <= width {
		return line
	}
	cut := strings.LastIndexByte(line[:width-3], ' ')
	if cut < 0 {
		return line[:width]
	}
	return line[:cut] + " ..."
}

// humanCount writes a count with a k or M suffix: "950", "12k", "2.1M".
func humanCount(n uint64) string {
	switch {
	case n >= 10_000_000:
		return fmt.Sprintf("%dM", n/1_000_000)
	case n >= 1_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 10_000:
		return fmt.Sprintf("%dk", n/1000)
	}
	return fmt.Sprint(n)
}

// line writes a principal variation in the chosen notation.
func (s *Session) line(pv []engine.Move) string {
	names := make([]string, len(pv))
	for i, m := range pv {
		names[i] = s.moveName(m)
	}
	return strings.Join(names, " ")
}

// engineMove lets the engine play the side to move. Ctrl-C makes it play
// the best move found so far at once ("move now"). It returns false when the
// engine should stop moving: Ctrl-C, or no move.
func (s *Session) engineMove() bool {
	side := s.game.Current().Side
	start := time.Now()
	r, finished := s.think(s.limits())
	if s.level.kind == "time" {
		s.clock[side] = max(s.clock[side]-time.Since(start), 0)
	}
	if !finished {
		if !r.HasMove {
			s.printf("search stopped before it found a move (Ctrl-C again at the prompt to leave)\n")
			return false
		}
		s.printf("move now (Ctrl-C again at the prompt to leave)\n")
	}
	if !r.HasMove {
		s.printf("the engine has no move to play\n")
		return false
	}
	s.printf("nechecb plays %s, score %s%s\n", s.bothNames(r.Best), formatScore(r.Score), knownNote(r.Known))
	s.play(r.Best)
	return finished
}

// autoPlay lets the engine move for as long as it plays the side to move.
func (s *Session) autoPlay() {
	for !s.over() && s.engineOn[s.game.Current().Side] {
		if !s.engineMove() {
			return
		}
	}
}

// cmdAnalyze searches without limit, printing each depth, until the user
// presses Enter (or Ctrl-C, or Ctrl-D, which also leaves).
func (s *Session) cmdAnalyze(_ []string) {
	if s.refuseIfOver() {
		return
	}
	s.printf("analysing; press Enter to stop\n")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := s.startSearch(ctx, player.Limits{Infinite: true})
	_, err := s.cfg.In.Prompt("")
	cancel()
	r := <-done
	switch {
	case errors.Is(err, io.EOF):
		s.quit = true
	case errors.Is(err, ErrInterrupted):
		s.lastInterrupt = true
	}
	if r.HasMove {
		s.printWrapped(fmt.Sprintf("best %s, score %s, line %s%s", s.bothNames(r.Best), formatScore(r.Score), s.line(r.PV), knownNote(r.Known)))
	}
}
