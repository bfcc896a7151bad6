package match

import (
	"testing"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/protocol/client"
)

func TestAdjudicator(t *testing.T) {
	// Score: both engines see Black 400 or more up for 2 moves each.
	a := adjudicator{cfg: Adjudication{Score: 400, ScoreMoves: 2}}
	plies := []struct {
		side  engine.Color
		score int
	}{{engine.Black, 450}, {engine.White, -420}, {engine.Black, 500}, {engine.White, -300}, {engine.Black, 500}, {engine.White, -400}, {engine.Black, 410}}
	ended := -1
	var res engine.Result
	for i, p := range plies {
		if r, ok := a.observe(p.side, client.Reply{Score: p.score, HasScore: true}); ok {
			ended, res = i, r
			break
		}
	}
	// White's -300 at ply 3 breaks the streak; plies 4..7 complete it again.
	if ended != -1 {
		t.Errorf("adjudicated at ply %d (%v), want no adjudication within 7 plies", ended, res)
	}
	if r, ok := a.observe(engine.White, client.Reply{Score: -800, HasScore: true}); !ok || r.Outcome != engine.BlackWins {
		t.Errorf("after 4 agreeing plies: %v %v, want a black win", r, ok)
	}

	// Claims: a win claim answered by a loss claim ends the game; two draw
	// claims draw it.
	c := adjudicator{cfg: Adjudication{Claims: true}}
	if _, ok := c.observe(engine.White, client.Reply{Claim: "win forced win in 9 plies"}); ok {
		t.Error("one claim ended the game")
	}
	if r, ok := c.observe(engine.Black, client.Reply{Claim: "loss forced loss in 8 plies"}); !ok || r.Outcome != engine.WhiteWins {
		t.Errorf("win then loss claim: %v %v, want a white win", r, ok)
	}
	d := adjudicator{cfg: Adjudication{Claims: true}}
	d.observe(engine.Black, client.Reply{Claim: "draw threefold repetition"})
	if r, ok := d.observe(engine.White, client.Reply{Claim: "draw 40-move rule"}); !ok || r.Outcome != engine.Draw {
		t.Errorf("two draw claims: %v %v, want a draw", r, ok)
	}
	off := adjudicator{}
	off.observe(engine.Black, client.Reply{Claim: "draw x", Score: 9999, HasScore: true})
	if _, ok := off.observe(engine.White, client.Reply{Claim: "draw y", Score: -9999, HasScore: true}); ok {
		t.Error("adjudicated with adjudication off")
	}
}
