package protocol

import (
	"strings"
	"testing"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/protocol/hubtext"
)

// TestGoAfterRefusedPosition checks, in both dialects, that after a refused
// position command (bad input, or sent during a search) every kind of go
// answers with one error line and no move, and searches nothing, until a
// position command is accepted or a new game starts.
func TestGoAfterRefusedPosition(t *testing.T) {
	type dialect struct {
		name                    string
		setup                   []string // the handshake and what the searches need
		handshakeEnd            string
		ping, pong              string
		good, bad               string   // an accepted and a refused position command
		gos                     []string // every kind of go
		goDepth, infinite, stop string
		best                    string // the prefix of the reply with a move
		newGame                 string
		noPosition              string // the error line go gets
		busy                    string // the error line of a position command during a search
	}
	dialects := []dialect{
		{
			name: "uci", setup: []string{"uci"}, handshakeEnd: "uciok", ping: "isready", pong: "readyok",
			good: "position startpos moves 11-15", bad: "position startpos moves 11-15 22-17 15-20",
			gos:     []string{"go depth 1", "go infinite", "go ponder", "go", "go searchmoves 22-17"},
			goDepth: "go depth 1", infinite: "go infinite", stop: "stop", best: "bestmove ",
			newGame:    "ucinewgame",
			noPosition: "info string error: go: no position: the last position command was refused; send a valid one",
			busy:       "info string error: busy: a search is running (send stop first)",
		},
		{
			name: "hub", setup: []string{"hub", "level depth=1"}, handshakeEnd: "wait", ping: "ping", pong: "pong",
			good: `pos moves="11-15"`, bad: "pos pos=" + hubStart[:32] + "z",
			gos:     []string{"go think", "go analyze", "go ponder", "go"},
			goDepth: "go think", infinite: "go analyze", stop: "stop", best: "done move=",
			newGame:    "new-game",
			noPosition: `error message="go: no position: the last pos command was refused; send a valid one"`,
			busy:       `error message="busy: a search is running (send stop first)"`,
		},
	}
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			s := newSession(t, Config{})
			s.send(d.setup...)
			s.until(d.handshakeEnd)
			// refused checks that every go now gets the error line alone and
			// starts no search.
			refused := func() {
				t.Helper()
				searches := s.fake.snapshot().searches
				for _, g := range d.gos {
					s.send(g, d.ping)
					s.expect(d.noPosition, d.pong)
				}
				if got := s.fake.snapshot().searches; got != searches {
					t.Errorf("%d searches ran without a position", got-searches)
				}
			}
			// searches checks that go runs a search and answers with a move
			// that is legal in want.
			searches := func(want engine.Position) {
				t.Helper()
				s.send(d.goDepth)
				lines := s.until(d.best)
				text, _, _ := strings.Cut(strings.TrimPrefix(lines[len(lines)-1], d.best), " ")
				if _, err := hubtext.ParseMove(&want, text); err != nil {
					t.Errorf("the move after %s: %v", d.goDepth, err)
				}
			}
			afterGood := engine.StartPosition()
			afterGood = afterGood.Play(mustParse(t, &afterGood, "11-15"))

			s.send(d.good)
			searches(afterGood)
			s.send(d.bad)
			s.next() // the refusal
			refused()
			s.send(d.good)
			searches(afterGood)

			// A new game is a position.
			s.send(d.bad)
			s.next()
			s.send(d.newGame)
			searches(engine.StartPosition())

			// A position command refused because a search is running.
			s.send(d.good, d.infinite)
			s.until("info ")
			s.send(d.good)
			s.expect(d.busy)
			s.send(d.stop)
			s.until(d.best)
			refused()
			s.send(d.good)
			searches(afterGood)
			s.finish()
		})
	}
}

// TestHubPosLayout reads pos= in pydraughts' layout (the default) and, after
// set-param HubPosLayout, in the literal layout; moves are in real numbering
// in both.
func TestHubPosLayout(t *testing.T) {
	// B:W18,K27:B5,K12 as pydraughts 3277325 writes it (initial_hub_fen),
	// and in the literal layout.
	const pyd = "WeeeeeBeeeeeeeebeeeeeWeeeeeeweeee"
	want, err := engine.ParseFEN("B:W18,K27:B5,K12")
	if err != nil {
		t.Fatal(err)
	}
	lit := hubtext.Position(&want, hubtext.Literal)
	s := newSession(t, Config{})
	s.send("hub", "init")
	s.until("ready")
	check := func(pos string) {
		t.Helper()
		s.send("pos pos="+pos, "level depth=1", "go think")
		lines := s.until("done ")
		text, _, _ := strings.Cut(strings.TrimPrefix(lines[len(lines)-1], "done move="), " ")
		if _, err := hubtext.ParseMove(&want, text); err != nil {
			t.Errorf("pos=%s: the reply %q is not a move of %s: %v", pos, lines[len(lines)-1], want.FEN(), err)
		}
	}
	check(pyd)
	// The literal start read in pydraughts' layout is the start with White
	// to move, where 11-15 is not a move.
	s.send("pos pos="+hubLiteralStart+` moves="11-15"`, "ping")
	if line := s.next(); !strings.HasPrefix(line, `error message="pos: move 1: illegal move '11-15'`) {
		t.Errorf("the literal start in the default layout: got %q", line)
	}
	s.expect("pong")

	s.send("set-param name=HubPosLayout value=Literal", "init")
	s.expect("ready")
	check(lit)
	s.send("pos pos="+hubLiteralStart+` moves="11-15"`, "level depth=1", "go think")
	start := engine.StartPosition()
	want = start.Play(mustParse(t, &start, "11-15"))
	lines := s.until("done ")
	if text, _, _ := strings.Cut(strings.TrimPrefix(lines[len(lines)-1], "done move="), " "); !isLegalText(&want, text) {
		t.Errorf("literal start after 11-15: reply %q", lines[len(lines)-1])
	}
	s.send("set-param name=HubPosLayout value=mirrored", "ping")
	s.expect(`error message="set-param: option HubPosLayout: 'mirrored' is not one of pydraughts, literal"`, "pong")
	s.finish()
}

// mustParse reads a move of p or fails t.
func mustParse(t *testing.T, p *engine.Position, text string) engine.Move {
	t.Helper()
	m, err := hubtext.ParseMove(p, text)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// isLegalText reports whether text is a move of p in the Hub dialect's forms.
func isLegalText(p *engine.Position, text string) bool {
	_, err := hubtext.ParseMove(p, text)
	return err == nil
}
