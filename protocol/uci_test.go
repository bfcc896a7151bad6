package protocol

import (
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/search"
	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/internal/player"
)

// uciHandshake is the full reply to uci, as PROTOCOL.md documents it.
var uciHandshake = []string{
	"id name nechecb 9.9",
	"id author the nechecb authors",
	"option name Hash type spin default 64 min 1 max 4096",
	"option name Threads type spin default 1 min 1 max 256",
	"option name MultiPV type spin default 1 min 1 max 64",
	"option name Ponder type check default false",
	"option name MoveOverhead type spin default 30 min 0 max 5000",
	"option name Book type spin default 0 min 0 max 3",
	"option name BookFile type string default <empty>",
	"option name Eval type string default " + testDefaultEval,
	"option name RandomTies type check default false",
	"option name Seed type spin default 0 min 0 max 2147483647",
	"option name LogFile type string default <empty>",
	"option name LogLevel type combo default warn var debug var info var warn var error var off",
	"option name DBPath type string default <empty>",
	"option name DBCache type spin default 64 min 1 max 65536",
	"uciok",
}

func TestUCISession(t *testing.T) {
	s := newSession(t, Config{})
	s.send("uci")
	if got := s.until("uciok"); !cmp.Equal(got, uciHandshake) {
		t.Fatalf("handshake (-got +want):\n%s", cmp.Diff(got, uciHandshake))
	}
	s.send("setoption name Hash value 128", "setoption name threads value 2", "setoption name MoveOverhead value 50")
	s.send("isready")
	s.expect("readyok")
	want := player.Options{HashMB: 128, Threads: 2, MultiPV: 1, MoveOverhead: 50 * time.Millisecond}
	if got := s.fake.snapshot().opts; got != want {
		t.Errorf("search options after isready: got %+v, want %+v", got, want)
	}
	if got := s.fake.snapshot().prepared; got != 128 {
		t.Errorf("isready prepared the searcher with Hash %d, want 128 (after the options)", got)
	}
	s.send("ucinewgame", "position startpos moves 11-15 23-19", "go depth 2")
	s.expect(
		"info depth 1 seldepth 1 multipv 1 score cp 0 nodes 10 nps 0 time 0 hashfull 0 pv 8-11 19-16",
		"info depth 2 seldepth 2 multipv 1 score cp 0 nodes 20 nps 0 time 0 hashfull 0 pv 8-11 19-16",
		"bestmove 8-11 ponder 19-16",
	)
	snap := s.fake.snapshot()
	if snap.clears != 1 || snap.history != 2 {
		t.Errorf("clears %d history %d, want 1 and 2", snap.clears, snap.history)
	}
	// Algebraic moves are read too; the capture is forced.
	s.send("position startpos moves f6e5 c3d4", "moves")
	s.expect("info string moves 15x22")
	s.send("position fen W:W18:B14 moves 18x9", "result")
	s.expect("info string result 0-1 white wins (no legal move)")
	s.send("quit")
	s.exited()
}

func TestUCIResultAfterCapture(t *testing.T) {
	s := newSession(t, Config{})
	// White's only man is jumped: Black wins, White to move has nothing.
	s.send("position fen B:W18:B14 moves 14x23", "result", "go depth 1")
	s.expect(
		"info string result 1-0 black wins (no legal move)",
		"info string claim loss no legal move",
		"info string result 1-0 black wins (no legal move)",
		"bestmove (none)",
	)
	s.finish()
}

func TestUCIConvenience(t *testing.T) {
	s := newSession(t, Config{})
	s.send("position fen W:WK10,18:B12,K22", "d")
	s.expect(
		"info string 8    .   .   .   .   1-4",
		"info string 7  .   .   .   .     5-8",
		"info string 6    .   W   .   b   9-12",
		"info string 5  .   .   .   .     13-16",
		"info string 4    .   w   .   .   17-20",
		"info string 3  .   B   .   .     21-24",
		"info string 2    .   .   .   .   25-28",
		"info string 1  .   .   .   .     29-32",
		"info string    a b c d e f g h",
		"info string fen W:WK10,18:B12,K22",
	)
	hash := s.next()
	if !strings.HasPrefix(hash, "info string hash ") || len(hash) != len("info string hash ")+16 {
		t.Errorf("hash line %q", hash)
	}
	s.expect("info string side white")
	moves := s.next()
	p, _ := engine.ParseFEN("W:WK10,18:B12,K22")
	if want := "info string moves " + movesText(&p); moves != want {
		t.Errorf("got %q, want %q", moves, want)
	}
	s.send("position fen W:WK10,18:B12", "eval")
	f, err := eval.Load(testDefaultEval)
	if err != nil {
		t.Fatal(err)
	}
	q, _ := engine.ParseFEN("W:WK10,18:B12")
	s.expect(fmt.Sprintf("info string eval %s raw %g score %d side white", testDefaultEval, f().Raw(&q), f().Evaluate(&q)))
	s.send("position startpos", "perft 3")
	lines := s.until("info string perft depth 3 nodes 302 ")
	if len(lines) != 8 {
		t.Errorf("perft 3 from the start gave %d lines, want 7 moves and a total:\n%s", len(lines), strings.Join(lines, "\n"))
	}
	s.send("help")
	s.until("info string see PROTOCOL.md")
	s.send("bench")
	s.expect("info string error: bench: this build has no search benchmark")
	s.finish()
}

// TestUCIErrors sends bad commands: each gets exactly one error line and
// leaves the position and the options as they were. (The go errors come
// before the refused position commands, after which go has no position;
// TestGoAfterRefusedPosition checks that.)
func TestUCIErrors(t *testing.T) {
	cases := []struct{ cmd, want string }{
		{"gp depth 3", `info string error: unknown command "gp" (try "help")`},
		{"go depth", "info string error: go: depth needs a number"},
		{"go depth x", `info string error: go: depth "x" is not a number`},
		{"go depth 0", "info string error: go: depth 0 is outside 1..1000"},
		{"go fast", `info string error: go: unknown word "fast"`},
		{"go searchmoves 11-16", `info string error: go: searchmoves: illegal move "11-16"; legal moves: 21-17 22-18 23-19 24-20 22-17 23-18 24-19`},
		{"position", "info string error: position: expected startpos or fen <FEN>"},
		{"position middlegame", `info string error: position: expected startpos or fen, not "middlegame"`},
		{"position fen", "info string error: position: fen needs a FEN such as " + engine.StartFEN},
		{"position startpos 11-15", `info string error: position: unexpected "11-15" (expected moves)`},
		{"position startpos moves 11-15 22-17 15-20", `info string error: position: move 3: illegal move "15-20"; legal moves: 8-11 9-13 10-14 12-16 15-18 7-11 9-14 15-19`},
		{"position startpos moves 11-15 zz", `info string error: position: move 2: malformed move "zz": a move needs at least two squares; legal moves: 21-17 22-18 23-19 24-20 22-17 23-18 24-19`},
		{"position fen X:W1:B2", `info string error: position: fen "X:W1:B2": side to move must be W or B, not "X"`},
		{"setoption", "info string error: setoption: expected setoption name <Name> [value <Value>]"},
		{"setoption name Hash value big", `info string error: setoption: option Hash: "big" is not a whole number`},
		{"setoption name Hash value 0", "info string error: setoption: option Hash: 0 is outside 1..4096"},
		{"setoption name Ponder value maybe", `info string error: setoption: option Ponder: "maybe" is not true or false`},
		{"setoption name LogLevel value loud", `info string error: setoption: option LogLevel: "loud" is not one of debug, info, warn, error, off`},
		{"setoption name Colour value red", `info string error: setoption: unknown option "Colour" (known: Hash, Threads, MultiPV, Ponder, MoveOverhead, Book, BookFile, Eval, RandomTies, Seed, LogFile, LogLevel, DBPath, DBCache)`},
		{"perft", "info string error: perft: expected perft <depth>"},
		{"perft 99", `info string error: perft: depth "99" is not a number in 0..64`},
	}
	s := newSession(t, Config{})
	s.send("position startpos moves 11-15", "d")
	before := s.until("info string moves")
	for _, c := range cases {
		s.send(c.cmd, "isready")
		s.expect(c.want, "readyok")
	}
	s.send("d")
	if after := s.until("info string moves"); !cmp.Equal(before, after) {
		t.Errorf("the position changed (-before +after):\n%s", cmp.Diff(before, after))
	}
	if got, want := s.fake.snapshot().opts, testSearchDefaults; got != want {
		t.Errorf("options changed: %+v, want %+v", got, want)
	}
	s.finish()
}

func TestUCIBadEvalKeepsPrevious(t *testing.T) {
	s := newSession(t, Config{})
	evals := s.fake.snapshot().evals
	s.send("setoption name Eval value nosuchkind:file.txt", "isready")
	line := s.next()
	if !strings.HasPrefix(line, `info string error: Eval "nosuchkind:file.txt": unknown evaluator "nosuchkind"`) || !strings.HasSuffix(line, `; keeping "`+testDefaultEval+`"`) {
		t.Errorf("got %q", line)
	}
	s.expect("readyok")
	s.send("eval")
	f, err := eval.Load(testDefaultEval)
	if err != nil {
		t.Fatal(err)
	}
	start := engine.StartPosition()
	s.expect(fmt.Sprintf("info string eval %s raw %g score %d side black", testDefaultEval, f().Raw(&start), f().Evaluate(&start)))
	if got := s.fake.snapshot().evals; got != evals {
		t.Errorf("SetEvaluator called %d times, want %d", got, evals)
	}
	// The same good spec again is accepted silently; a changed one is confirmed.
	s.send("setoption name Eval value "+testDefaultEval, "isready")
	s.expect("readyok")
	s.finish()
}

func TestStopDuringInfinite(t *testing.T) {
	s := newSession(t, Config{})
	s.send("position startpos", "go infinite")
	s.until("info depth 2 ")
	s.send("stop")
	lines := s.until("bestmove")
	if got := lines[len(lines)-1]; got != "bestmove 9-13 ponder 21-17" {
		t.Errorf("got %q", got)
	}
	s.finish()
}

// TestInfiniteHoldsBestmove: the fake returns after its depth, but an
// infinite search's bestmove must wait for stop.
func TestInfiniteHoldsBestmove(t *testing.T) {
	s := newSession(t, Config{})
	s.send("go infinite depth 1")
	s.until("info depth 1 ")
	s.quiet(50 * time.Millisecond)
	s.send("isready")
	s.expect("readyok")
	s.send("position startpos moves 11-15")
	s.expect("info string error: busy: a search is running (send stop first)")
	s.send("stop")
	s.expect("bestmove 9-13 ponder 21-17")
	s.finish()
}

func TestIsReadyDuringSearch(t *testing.T) {
	s := newSession(t, Config{})
	s.send("go infinite")
	s.until("info depth 1 ")
	s.send("isready")
	lines := s.until("readyok")
	for _, l := range lines {
		if strings.HasPrefix(l, "bestmove") {
			t.Fatalf("bestmove before readyok: %q", lines)
		}
	}
	s.send("d")
	s.until("info string moves")
	s.send("stop")
	s.until("bestmove ")
	s.finish()
}

func TestPonderhit(t *testing.T) {
	s := newSession(t, Config{})
	s.send("position startpos moves 9-13", "go ponder depth 1")
	s.until("info depth 1 ")
	s.quiet(50 * time.Millisecond)
	s.send("ponderhit")
	s.expect("bestmove 21-17 ponder 6-9")
	if got := s.fake.snapshot().hits; got != 1 {
		t.Errorf("PonderHit called %d times, want 1", got)
	}
	s.finish()
}

func TestEndOfInputLetsSearchFinish(t *testing.T) {
	s := newSession(t, Config{})
	s.send("go depth 3")
	s.in.Close()
	lines := s.until("bestmove")
	if len(lines) != 4 {
		t.Errorf("want three info lines and bestmove, got %q", lines)
	}
	s.finish()
}

func TestEndOfInputStopsInfinite(t *testing.T) {
	s := newSession(t, Config{})
	s.send("go infinite")
	s.until("info depth 1")
	s.in.Close()
	s.until("bestmove")
	s.finish()
}

func TestQuitDuringSearch(t *testing.T) {
	s := newSession(t, Config{})
	s.send("go infinite")
	s.until("info depth 1")
	s.send("quit")
	for _, line := range s.rest() {
		if strings.HasPrefix(line, "bestmove") {
			t.Errorf("bestmove after quit: %q", line)
		}
	}
	if err := <-s.done; err != nil {
		t.Fatal(err)
	}
}

func TestSearchmovesAndOptionsAppliedAtGo(t *testing.T) {
	s := newSession(t, Config{})
	s.send("setoption name MultiPV value 3", "go depth 1 searchmoves 12-16 10-14")
	s.expect("info depth 1 seldepth 1 multipv 1 score cp 0 nodes 10 nps 0 time 0 hashfull 0 pv 12-16 21-17", "bestmove 12-16 ponder 21-17")
	if got := s.fake.snapshot().opts.MultiPV; got != 3 {
		t.Errorf("MultiPV %d at go, want 3", got)
	}
	s.finish()
}

func TestClaims(t *testing.T) {
	cases := []struct {
		name, position string
		score          player.Score
		want           string
	}{
		{"proven win", "position startpos", search.WinIn(7), "info string claim win forced win in 7 plies"},
		{"proven loss", "position startpos", search.LossIn(4), "info string claim loss forced loss in 4 plies"},
		{"opponent left without a move", "position fen B:W18:B14", player.Score(0), "info string claim win opponent has no legal move"},
		// Kings shuffle: the position after 1-5 has been seen twice already.
		{"threefold after the move", "position fen B:WK32:BK1 moves 1-5 32-27 5-1 27-32 1-5 32-27 5-1 27-32", player.Score(0), "info string claim draw threefold repetition"},
		{"threefold now", "position fen B:WK32:BK1 moves 1-5 32-27 5-1 27-32 1-5 32-27 5-1 27-32 1-5 32-27 5-1 27-32", player.Score(0), "info string claim draw threefold repetition"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newSession(t, Config{})
			s.fake.score = c.score
			s.send(c.position, "go depth 1")
			lines := s.until("bestmove")
			if got := lines[len(lines)-2]; got != c.want {
				t.Errorf("got %q, want %q (all: %q)", got, c.want, lines)
			}
			s.finish()
		})
	}
}

func TestBookHook(t *testing.T) {
	s := newSession(t, Config{})
	s.send("setoption name Book value 2", "isready", "go depth 1")
	s.expect("readyok", "info string book move 11-15", "bestmove 11-15")
	// A book move outside searchmoves is not played.
	s.send("go depth 1 searchmoves 9-13")
	s.until("bestmove 9-13")
	// Ponder and infinite searches do not ask the book.
	s.send("go ponder depth 1", "stop")
	s.until("bestmove 9-13")
	s.send("position startpos moves 11-15", "go depth 1")
	s.until("bestmove 21-17")
	// A BookFile change that fails is reported and the previous one kept.
	s.send("setoption name BookFile value x.book", "setoption name BookFile value bad", "isready")
	s.expect(`info string error: BookFile "bad": not a book; keeping ""`, "readyok")
	s.send("setoption name BookFile value x.book", "isready")
	s.expect("readyok")
	s.finish()
	if s.book.probed != 2 || !cmp.Equal(s.book.opened, []string{"", "x.book"}) {
		t.Errorf("level %d at the last probe, opened %q", s.book.probed, s.book.opened)
	}
}

func TestSwitchDialect(t *testing.T) {
	s := newSession(t, Config{})
	s.send("position startpos moves 11-15", "hub")
	s.until("wait")
	s.send("level depth=1", "go think")
	s.until("done move=21-17 ponder=8-11")
	s.send("uci")
	s.until("uciok")
	s.finish()
}

// TestSetOptionValueKeepsSpaces: a string value is the rest of the line,
// inner spaces kept, so that file names with spaces work.
func TestSetOptionValueKeepsSpaces(t *testing.T) {
	fake := &fakeSearcher{}
	srv, err := NewServer(Config{Searcher: fake, Options: testOptions(fake, &fakeBook{})})
	if err != nil {
		t.Fatal(err)
	}
	srv.out = newOutput(io.Discard)
	defer srv.out.close()
	cases := []struct{ line, want string }{
		{"setoption name BookFile value my  books/open ing.book ", "my  books/open ing.book"},
		{"setoption  name  bookfile  value x", "x"},
		{"setoption name BookFile value <empty>", ""},
		{"setoption name BookFile", ""},
	}
	i, err := srv.opts.find("BookFile")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		srv.opts.pending[i] = "before"
		srv.uciSetOption(c.line)
		if got := srv.opts.pending[i]; got != c.want {
			t.Errorf("%q: BookFile %q, want %q", c.line, got, c.want)
		}
	}
}
