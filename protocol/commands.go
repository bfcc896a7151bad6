package protocol

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nechecb/nechecb/engine"
)

// helpText lists the UCI-like commands for the help command.
var helpText = []string{
	"commands: uci isready setoption ucinewgame position go stop ponderhit quit hub",
	"position startpos|fen <FEN> [moves <m1> <m2> ...]",
	"go [depth N] [nodes N] [movetime MS] [wtime MS] [btime MS] [winc MS] [binc MS] [movestogo N] [infinite] [ponder] [searchmoves <m>...]",
	"d: board, FEN and moves   moves: legal moves   eval: the evaluator's view   result: the game's result",
	"perft <depth>: count the move tree   bench [depth]: the search benchmark",
	"see PROTOCOL.md for everything",
}

// convenience runs the commands for people and scripts: d, moves, eval,
// perft, bench, result and help. Anything else is an unknown command.
func (s *Server) convenience(cmd string, args []string) {
	p := s.game.Current()
	switch cmd {
	case "d":
		for _, row := range boardRows(&p) {
			s.note(row)
		}
		s.note("fen " + p.FEN())
		s.note(fmt.Sprintf("hash %016x", p.Hash))
		s.note("side " + p.Side.String())
		s.note(strings.TrimSpace("moves " + movesText(&p)))
	case "moves":
		s.note(strings.TrimSpace("moves " + movesText(&p)))
	case "eval":
		raw, score := s.cfg.Searcher.Evaluate(&p)
		s.note(fmt.Sprintf("eval %s raw %g score %d side %s", s.cfg.Searcher.Evaluator(), raw, score, p.Side))
	case "result":
		r := s.game.Result()
		s.note("result " + r.PDN() + " " + r.String())
	case "help":
		for _, h := range helpText {
			s.note(h)
		}
	case "perft":
		if !s.busy() {
			s.perft(&p, args)
		}
	case "bench":
		if !s.busy() {
			s.bench(args)
		}
	default:
		s.errorf("unknown command %q (try \"help\")", cmd)
	}
}

// movesText lists the legal moves of p, full-path numeric, space separated.
func movesText(p *engine.Position) string {
	var l engine.MoveList
	p.Generate(&l)
	words := make([]string, l.N)
	for i, m := range l.Slice() {
		words[i] = m.String()
	}
	return strings.Join(words, " ")
}

// boardRows draws p row by row, Black's side at the top: b/w men, B/W kings,
// '.' an empty dark square, blank a light square; ranks and files around.
func boardRows(p *engine.Position) []string {
	glyph := map[engine.Piece]byte{engine.Empty: '.', engine.BlackMan: 'b', engine.WhiteMan: 'w', engine.BlackKing: 'B', engine.WhiteKing: 'W'}
	rows := make([]string, 0, 9)
	for row := 0; row < 8; row++ {
		line := []byte(fmt.Sprintf("%d ", 8-row))
		for col := 0; col < 8; col++ {
			c := byte(' ')
			if sq := engine.SquareAt(row, col); sq != 0 {
				c = glyph[p.PieceAt(sq)]
			}
			line = append(line, ' ', c)
		}
		first, last := engine.SquareAt(row, 0)|engine.SquareAt(row, 1), engine.SquareAt(row, 6)|engine.SquareAt(row, 7)
		rows = append(rows, fmt.Sprintf("%s   %d-%d", line, first, last))
	}
	return append(rows, "   a b c d e f g h")
}

// perft answers "perft <depth>" with the count below each root move.
func (s *Server) perft(p *engine.Position, args []string) {
	if len(args) != 1 {
		s.errorf("perft: expected perft <depth>")
		return
	}
	depth, err := strconv.Atoi(args[0])
	if err != nil || depth < 0 || depth > engine.MaxPerftDepth {
		s.errorf("perft: depth %q is not a number in 0..%d", args[0], engine.MaxPerftDepth)
		return
	}
	start := time.Now()
	nodes := uint64(1)
	if depth > 0 {
		nodes = 0
		for _, e := range engine.Divide(p, depth, 1) {
			s.note(fmt.Sprintf("%s %d", e.Move, e.Nodes))
			nodes += e.Nodes
		}
	}
	s.note(fmt.Sprintf("perft depth %d nodes %d %s", depth, nodes, rate(nodes, time.Since(start))))
}

// bench answers "bench [depth]" with the search benchmark's report.
func (s *Server) bench(args []string) {
	if s.cfg.Bench == nil {
		s.errorf("bench: this build has no search benchmark")
		return
	}
	depth := 0
	if len(args) > 1 {
		s.errorf("bench: expected bench [depth]")
		return
	}
	if len(args) == 1 {
		d, err := strconv.Atoi(args[0])
		if err != nil || d < 1 || d > 64 {
			s.errorf("bench: depth %q is not a number in 1..64", args[0])
			return
		}
		depth = d
	}
	s.applyPending()
	var buf bytes.Buffer
	nodes, elapsed, err := s.cfg.Bench(&buf, depth)
	if err != nil {
		s.errorf("bench: %v", err)
		return
	}
	for _, line := range strings.Split(strings.TrimRight(buf.String(), "\n"), "\n") {
		if line != "" {
			s.note(line)
		}
	}
	s.note(fmt.Sprintf("bench nodes %d %s", nodes, rate(nodes, elapsed)))
}

// rate writes "time <ms> nps <n>".
func rate(nodes uint64, d time.Duration) string {
	nps := uint64(0)
	if d > 0 {
		nps = uint64(float64(nodes) / d.Seconds())
	}
	return fmt.Sprintf("time %d nps %d", d.Milliseconds(), nps)
}
