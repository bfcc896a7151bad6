package protocol

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/internal/player"
	esession "github.com/nechecb/nechecb/internal/session"
)

// handleUCI runs one command of the UCI-like dialect. args are the words
// after the command; line is the whole line, for values that keep spaces.
func (s *Server) handleUCI(cmd, line string, args []string) {
	switch cmd {
	case "isready":
		if s.search == nil {
			s.ready()
		}
		s.send("readyok")
	case "setoption":
		s.uciSetOption(line)
	case "debug", "register":
		// Accepted for UCI clients; nothing to do.
	case "ucinewgame":
		if !s.busy() {
			s.newGame()
		}
	case "position":
		if s.busy() {
			s.noPosition = "position"
		} else {
			s.uciPosition(args)
		}
	case "go":
		if !s.busy() && !s.positionMissing() {
			if limits, err := s.uciGoLimits(args); err != nil {
				s.errorf("go: %v", err)
			} else {
				s.startSearch(limits)
			}
		}
	case "stop":
		s.stopSearch()
	case "ponderhit":
		s.ponderHit()
	default:
		s.convenience(cmd, args)
	}
}

// newGame clears what the searcher learnt and goes back to the start,
// which is a position go may search again after a refused one.
func (s *Server) newGame() {
	s.cfg.Searcher.Clear()
	s.game = esession.NewGame(engine.StartPosition())
	s.noPosition = ""
}

// uciSetOption reads "setoption name <Name> [value <Value>]". The value is
// the rest of the line, spaces kept.
func (s *Server) uciSetOption(line string) {
	spans := fieldSpans(line)
	if len(spans) < 3 || !strings.EqualFold(spans.word(line, 1), "name") {
		s.errorf("setoption: expected setoption name <Name> [value <Value>]")
		return
	}
	name, value := "", ""
	end := len(spans)
	for i := 2; i < len(spans); i++ {
		if strings.EqualFold(spans.word(line, i), "value") {
			end = i
			if i+1 < len(spans) {
				value = line[spans[i+1][0]:]
			}
			break
		}
	}
	if end > 2 {
		name = line[spans[2][0]:spans[end-1][1]]
	}
	if name == "" {
		s.errorf("setoption: no option name")
		return
	}
	if err := s.opts.setPending(name, strings.TrimSpace(value)); err != nil {
		s.errorf("setoption: %v", err)
	}
}

// spans holds the start and end of each word of a line.
type spans [][2]int

// fieldSpans splits line on blanks like strings.Fields, keeping positions.
func fieldSpans(line string) spans {
	var out spans
	start := -1
	for i := 0; i <= len(line); i++ {
		blank := i == len(line) || line[i] == ' ' || line[i] == '\t'
		switch {
		case blank && start >= 0:
			out = append(out, [2]int{start, i})
			start = -1
		case !blank && start < 0:
			start = i
		}
	}
	return out
}

func (sp spans) word(line string, i int) string { return line[sp[i][0]:sp[i][1]] }

// uciPosition reads "position startpos|fen <FEN> [moves ...]". Any error
// refuses the whole command: the game stays as it was, but go refuses to
// search it (refusePosition).
func (s *Server) uciPosition(args []string) {
	if len(args) == 0 {
		s.refusePosition("position", "expected startpos or fen <FEN>")
		return
	}
	var start engine.Position
	var rest []string
	switch strings.ToLower(args[0]) {
	case "startpos":
		start, rest = engine.StartPosition(), args[1:]
	case "fen":
		k := 1
		for k < len(args) && !strings.EqualFold(args[k], "moves") {
			k++
		}
		if k == 1 {
			s.refusePosition("position", "fen needs a FEN such as %s", engine.StartFEN)
			return
		}
		p, err := engine.ParseFEN(strings.Join(args[1:k], " "))
		if err != nil {
			s.refusePosition("position", "%v", err)
			return
		}
		start, rest = p, args[k:]
	default:
		s.refusePosition("position", "expected startpos or fen, not %q", args[0])
		return
	}
	var moves []string
	if len(rest) > 0 {
		if !strings.EqualFold(rest[0], "moves") {
			s.refusePosition("position", "unexpected %q (expected moves)", rest[0])
			return
		}
		moves = rest[1:]
	}
	rec, err := esession.ParseGame(start, moves, (*engine.Position).ParseMove)
	if err != nil {
		s.refusePosition("position", "%v", err)
		return
	}
	s.setGame(rec)
}

// uciGoLimits reads the words of a go command.
func (s *Server) uciGoLimits(args []string) (player.Limits, error) {
	var l player.Limits
	root := s.game.Current()
	for i := 0; i < len(args); i++ {
		word := strings.ToLower(args[i])
		switch word {
		case "infinite":
			l.Infinite = true
			continue
		case "ponder":
			l.Ponder = true
			continue
		case "searchmoves":
			for _, text := range args[i+1:] {
				m, err := root.ParseMove(text)
				if err != nil {
					return player.Limits{}, fmt.Errorf("searchmoves: %v", err)
				}
				l.SearchMoves = append(l.SearchMoves, m)
			}
			if len(l.SearchMoves) == 0 {
				return player.Limits{}, fmt.Errorf("searchmoves needs at least one move")
			}
			return l, nil
		case "depth", "nodes", "movetime", "wtime", "btime", "winc", "binc", "movestogo":
		default:
			return player.Limits{}, fmt.Errorf("unknown word %q", args[i])
		}
		if i+1 >= len(args) {
			return player.Limits{}, fmt.Errorf("%s needs a number", word)
		}
		i++
		n, err := strconv.ParseInt(args[i], 10, 64)
		if err != nil {
			return player.Limits{}, fmt.Errorf("%s %q is not a number", word, args[i])
		}
		if err := setGoLimit(&l, word, n); err != nil {
			return player.Limits{}, err
		}
	}
	return l, nil
}

// setGoLimit stores one numeric go limit. Clock times at or below zero
// become one millisecond, since zero means "no limit" to the searcher.
func setGoLimit(l *player.Limits, word string, n int64) error {
	ms := func(n int64) time.Duration { return time.Duration(max(n, 1)) * time.Millisecond }
	switch word {
	case "depth":
		if n < 1 || n > 1000 {
			return fmt.Errorf("depth %d is outside 1..1000", n)
		}
		l.Depth = int(n)
	case "nodes":
		if n < 1 {
			return fmt.Errorf("nodes %d is not positive", n)
		}
		l.Nodes = uint64(n)
	case "movestogo":
		if n < 0 || n > 1000 {
			return fmt.Errorf("movestogo %d is outside 0..1000", n)
		}
		l.MovesToGo = int(n)
	case "movetime":
		l.MoveTime = ms(n)
	case "wtime":
		l.WTime = ms(n)
	case "btime":
		l.BTime = ms(n)
	case "winc":
		l.WInc = time.Duration(max(n, 0)) * time.Millisecond
	case "binc":
		l.BInc = time.Duration(max(n, 0)) * time.Millisecond
	}
	return nil
}

// uciInfo writes a progress report as an info line; tbhits appears when an
// endgame database settled positions.
func uciInfo(i player.Info) string {
	var b strings.Builder
	fmt.Fprintf(&b, "info depth %d seldepth %d multipv %d score %s nodes %d nps %d time %d hashfull %d",
		i.Depth, i.SelDepth, max(i.MultiPV, 1), uciScore(i.Score), i.Nodes, i.NPS, i.Time.Milliseconds(), i.HashFull)
	if i.TBHits > 0 {
		fmt.Fprintf(&b, " tbhits %d", i.TBHits)
	}
	if len(i.PV) > 0 {
		b.WriteString(" pv")
		for _, m := range i.PV {
			b.WriteByte(' ')
			b.WriteString(m.String())
		}
	}
	return b.String()
}

// uciScore writes "cp <n>", "win <plies>" or "loss <plies>".
func uciScore(sc player.Score) string {
	switch {
	case sc.IsWin():
		return fmt.Sprintf("win %d", sc.Plies())
	case sc.IsLoss():
		return fmt.Sprintf("loss %d", sc.Plies())
	}
	return fmt.Sprintf("cp %d", int(sc))
}
