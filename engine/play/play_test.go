package play

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/nechecb/nechecb/engine"
)

func game(t *testing.T, fen string) *engine.Game {
	t.Helper()
	p, err := engine.ParseFEN(fen)
	if err != nil {
		t.Fatal(err)
	}
	return engine.NewGame(p)
}

// shuttle goes back to where it came from whenever it can, so that two
// shuttling kings repeat the position every four plies.
var shuttle = Func(func(_ context.Context, g *engine.Game) (engine.Move, error) {
	cur := g.Current()
	moves := cur.LegalMoves()
	if pos := g.Positions(); len(pos) >= 3 {
		back := pos[len(pos)-3]
		for _, m := range moves {
			next := cur.Play(m)
			if next.KingsOf(cur.Side) == back.KingsOf(cur.Side) && next.Men(cur.Side) == back.Men(cur.Side) {
				return m, nil
			}
		}
	}
	return moves[0], nil
})

func TestEndsByTheRules(t *testing.T) {
	ctx := context.Background()
	// Black to move has no move: White wins before anyone is asked.
	asked := Func(func(context.Context, *engine.Game) (engine.Move, error) {
		t.Error("a player was asked for a move in a finished game")
		return engine.Move{}, nil
	})
	if r := Play(ctx, game(t, "B:W5,6,10:B1"), asked, asked, Rules{}); r.Outcome != engine.WhiteWins || r.Reason != "no legal move" || r.Fault != nil {
		t.Errorf("blocked Black: %+v", r)
	}
	for _, c := range []struct {
		rules  Rules
		plies  int
		reason string
	}{
		{Rules{}, 8, "threefold repetition"},
		{Rules{Repetitions: 2}, 4, "2-fold repetition"},
		{Rules{MaxPlies: 3}, 3, "adjudicated after 3 plies"},
		{Rules{Adjudicate: func(g *engine.Game) (engine.Result, bool) {
			return engine.Result{Outcome: engine.BlackWins, Reason: "judged"}, g.Ply() == 2
		}}, 2, "judged"},
	} {
		g := game(t, "B:WK32:BK1")
		r := Play(ctx, g, shuttle, shuttle, c.rules)
		if g.Ply() != c.plies || r.Reason != c.reason || r.Fault != nil {
			t.Errorf("%+v: %v after %d plies, want %q after %d", c.rules, r, g.Ply(), c.reason, c.plies)
		}
	}
}

func TestChargesFaultsToTheSideThatMadeThem(t *testing.T) {
	ctx := context.Background()
	boom := errors.New("crashed")
	failing := Func(func(context.Context, *engine.Game) (engine.Move, error) { return engine.Move{}, boom })
	illegal := Func(func(_ context.Context, g *engine.Game) (engine.Move, error) {
		return engine.Move{From: 0, To: 31}, nil
	})
	flagged := Func(func(context.Context, *engine.Game) (engine.Move, error) {
		return engine.Move{}, &Forfeit{Reason: "lost on time"}
	})
	for _, c := range []struct {
		black, white Player
		loser        engine.Color
		fault        bool
		reason       string
	}{
		{shuttle, failing, engine.White, true, "white crashed"},
		{failing, shuttle, engine.Black, true, "black crashed"},
		{illegal, shuttle, engine.Black, true, "black played "},
		{shuttle, flagged, engine.White, false, "white lost on time"},
	} {
		r := Play(ctx, game(t, "B:WK32:BK1"), c.black, c.white, Rules{})
		if r.Outcome != engine.WinFor(c.loser.Opponent()) || !strings.HasPrefix(r.Reason, c.reason) {
			t.Errorf("want %s to lose (%q), got %v", c.loser, c.reason, r)
		}
		if (r.Fault != nil) != c.fault || c.fault && r.FaultBy != c.loser {
			t.Errorf("%q: fault %v by %s, want a fault %v by %s", c.reason, r.Fault, r.FaultBy, c.fault, c.loser)
		}
	}
	if r := Play(ctx, game(t, "B:WK32:BK1"), failing, shuttle, Rules{}); !errors.Is(r.Fault, boom) {
		t.Errorf("the fault is not the player's error: %v", r.Fault)
	}
}

func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	// A player that fails because the context was cancelled under it ends
	// the game unfinished, not lost.
	quitter := Func(func(context.Context, *engine.Game) (engine.Move, error) {
		cancel()
		return engine.Move{}, context.Canceled
	})
	g := engine.NewGame(engine.StartPosition())
	if r := Play(ctx, g, quitter, quitter, Rules{}); r.Outcome != engine.Ongoing || r.Reason != "cancelled" || r.Fault != nil {
		t.Errorf("cancelled game: %+v", r)
	}
	if r := Play(ctx, g, shuttle, shuttle, Rules{}); r.Outcome != engine.Ongoing || g.Ply() != 0 {
		t.Errorf("game under a cancelled context: %v after %d plies", r, g.Ply())
	}
}

func TestRandomIsLegalAndSeeded(t *testing.T) {
	moves := func(seed uint64) []engine.Move {
		g := engine.NewGame(engine.StartPosition())
		r := Play(context.Background(), g, Random(rand.New(rand.NewPCG(seed, 1))), Random(rand.New(rand.NewPCG(seed, 2))), Rules{MaxPlies: 400})
		if r.Outcome == engine.Ongoing || r.Fault != nil {
			t.Errorf("seed %d: random game ended %+v", seed, r)
		}
		return g.Moves()
	}
	a, b, c := moves(1), moves(1), moves(2)
	if len(a) == 0 || !slices.Equal(a, b) {
		t.Error("two random games with one seed differ")
	}
	if slices.Equal(a, c) {
		t.Error("random games with seeds 1 and 2 are the same")
	}
}
