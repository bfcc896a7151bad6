package workunit

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/play"
)

// played plays a random game under the unit's rules and returns its
// honest result, as a worker would.
func played(t *testing.T, u *Unit, seed uint64) *Result { return playedWith(t, u, seed, false) }

// playedWith is played, with the move indexes in the result when indexes.
func playedWith(t *testing.T, u *Unit, seed uint64, indexes bool) *Result {
	t.Helper()
	r := &Result{Version: Version, ID: u.ID}
	for i, g := range u.Games {
		start, err := g.Position()
		if err != nil {
			t.Fatal(err)
		}
		rec := engine.NewGame(start)
		rng := rand.New(rand.NewPCG(seed, uint64(i)))
		res := play.Play(context.Background(), rec, play.Random(rng), play.Random(rng), play.Rules{MaxPlies: u.Rules.MaxPlies})
		gr := GameResult{Outcome: res.PDN(), Plies: rec.Ply(), Pieces: PiecesLeft(rec), PDN: Record(rec, res.Outcome)}
		if indexes {
			gr = NewGameResult(u, rec, res.Outcome)
		}
		if u.Positions {
			for _, p := range rec.Positions() {
				gr.Positions = append(gr.Positions, p.FEN())
			}
		}
		r.Games = append(r.Games, gr)
	}
	return r
}

func testUnit() *Unit {
	start := engine.StartPosition()
	return &Unit{Version: Version, ID: "run-1", Rules: Rules{Depth: 1, MaxPlies: 30},
		Cast:  []Evaluator{{Kind: "material"}, {Kind: "heuristic"}},
		Games: []Game{{Black: 0, White: 1, Start: start.FEN(), Seed: 1}, {Black: 1, White: 0, Seed: 2}}, Positions: true}
}

func TestValidateAcceptsHonestResults(t *testing.T) {
	for seed := range uint64(20) {
		for _, indexes := range []bool{false, true} {
			u := testUnit()
			u.PDN = seed%2 == 0
			r := playedWith(t, u, seed, indexes)
			if err := Validate(u, r); err != nil {
				t.Fatalf("seed %d, indexes %v: %v\n%s", seed, indexes, err, r.Games[0].PDN)
			}
		}
	}
}

// TestValidateFastReplay checks the replay by move indexes: forged
// indexes, and a PDN that is not the indexes' game, are rejected.
func TestValidateFastReplay(t *testing.T) {
	for _, tc := range []struct {
		name  string
		forge func(g *GameResult)
		want  string
	}{
		{"an index past the legal moves", func(g *GameResult) { g.Moves[3] = 200 }, "illegal move"},
		{"another first move", func(g *GameResult) { g.Moves[0] = (g.Moves[0] + 1) % 7 }, ""},
		{"the PDN edited", func(g *GameResult) { g.PDN = strings.Replace(g.PDN, "[Event", "[Event \"x\"]\n[Site", 1) }, "not the game"},
		{"the outcome flipped", func(g *GameResult) {
			g.Outcome = map[string]string{"1-0": "0-1", "0-1": "1-0", "1/2-1/2": "1-0"}[g.Outcome]
		}, "not the game"},
		{"a ply dropped", func(g *GameResult) { g.Moves = g.Moves[:len(g.Moves)-1] }, ""},
		{"no PDN", func(g *GameResult) { g.PDN = "" }, "no PDN, which the unit asks for"},
	} {
		u := testUnit()
		u.PDN = true
		r := playedWith(t, u, 3, true)
		tc.forge(&r.Games[0])
		if err := Validate(u, r); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one saying %q", tc.name, err, tc.want)
		}
	}
}

func TestValidateRejectsForgeries(t *testing.T) {
	flip := map[string]string{"1-0": "0-1", "0-1": "1-0", "1/2-1/2": "1-0"}
	for _, tc := range []struct {
		name  string
		forge func(u *Unit, r *Result)
		want  string
	}{
		{"other unit", func(_ *Unit, r *Result) { r.ID = "run-2" }, "not for unit"},
		{"a game missing", func(_ *Unit, r *Result) { r.Games = r.Games[:1] }, "1 game results for 2 games"},
		{"outcome not the PDN's", func(_ *Unit, r *Result) { r.Games[0].Outcome = flip[r.Games[0].Outcome] }, "the PDN's Result tag"},
		{"PDN and outcome both forged", func(_ *Unit, r *Result) {
			g := &r.Games[0]
			g.PDN = strings.Replace(g.PDN, `[Result "`+g.Outcome+`"]`, `[Result "`+flip[g.Outcome]+`"]`, 1)
			g.Outcome = flip[g.Outcome]
		}, "the replayed game ends"},
		{"illegal move", func(_ *Unit, r *Result) {
			g := &r.Games[0]
			head, moves, _ := strings.Cut(g.PDN, "\n1. ")
			_, rest, _ := strings.Cut(moves, " ")
			g.PDN = head + "\n1. 32-28 " + rest
		}, "illegal move"},
		{"too short", func(_ *Unit, r *Result) {
			g := &r.Games[0]
			g.PDN = g.PDN[:strings.Index(g.PDN, "\n1. ")] + "\n1. 9-13 " + g.Outcome + "\n"
			g.Plies = 1
		}, "not over"},
		{"wrong length", func(_ *Unit, r *Result) { r.Games[1].Plies++ }, "plies"},
		{"pieces left forged", func(_ *Unit, r *Result) { r.Games[1].Pieces[0]++ }, "pieces left"},
		{"other start", func(u *Unit, r *Result) { u.Games[0].Start = "W:W21,22,23:B1,2,3" }, "starts from"},
		{"ongoing past the ply limit", func(u *Unit, _ *Result) { u.Rules.MaxPlies = 10 }, "goes on after ply 10"},
		{"not a PDN", func(_ *Unit, r *Result) { r.Games[0].PDN = "[Event" }, "PDN"},
		{"other positions", func(_ *Unit, r *Result) { r.Games[1].Positions[3] = r.Games[1].Positions[2] }, "position 3"},
	} {
		u := testUnit()
		r := played(t, u, 3)
		if r.Games[0].Plies != 30 {
			t.Fatalf("the test game should reach the ply limit: %d plies", r.Games[0].Plies)
		}
		tc.forge(u, r)
		err := Validate(u, r)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one saying %q", tc.name, err, tc.want)
		}
	}
}

func TestDecodeUnit(t *testing.T) {
	u := testUnit()
	u.Cast[0].Data = []byte("weights")
	u.Cast[0].Hash = HashOf(u.Cast[0].Data)
	data, err := u.Encode()
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeUnit(data)
	if err != nil || back.ID != u.ID || len(back.Games) != 2 || string(back.Cast[0].Data) != "weights" {
		t.Fatalf("round trip: %+v, %v", back, err)
	}
	for _, tc := range []struct {
		name  string
		spoil func(u *Unit)
		want  string
	}{
		{"version", func(u *Unit) { u.Version = 99 }, "version 99"},
		{"no id", func(u *Unit) { u.ID = "" }, "no id"},
		{"player index", func(u *Unit) { u.Games[1].White = 2 }, "players 1 and 2 of 2"},
		{"opening", func(u *Unit) { u.Games[0].Start = "X:nonsense" }, "opening"},
		{"hash", func(u *Unit) { u.Cast[0].Hash = HashOf([]byte("other")) }, "do not match"},
		{"no kind", func(u *Unit) { u.Cast[1].Kind = "" }, "no kind"},
	} {
		v := testUnit()
		v.Cast[0].Data = []byte("weights")
		v.Cast[0].Hash = HashOf(v.Cast[0].Data)
		tc.spoil(v)
		data, _ := v.Encode()
		if _, err := DecodeUnit(data); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one saying %q", tc.name, err, tc.want)
		}
	}
	if _, err := DecodeUnit([]byte("{")); err == nil {
		t.Error("a truncated unit decoded")
	}
}

// datagenPlayed plays a random datagen-like game after a prelude and
// returns the unit and its honest result, samples included.
func datagenPlayed(t *testing.T) (*Unit, *Result) {
	t.Helper()
	u := &Unit{Version: Version, ID: "dg-1", Kind: KindDatagen, Rules: Rules{Depth: 1, MaxPlies: 60}, Datagen: &Datagen{},
		Cast: []Evaluator{{Kind: "heuristic"}}, Games: []Game{{Prelude: []string{"9-13", "22-18"}, Seed: 5}}}
	rec := engine.NewGame(engine.StartPosition())
	for _, m := range u.Games[0].Prelude {
		if _, err := rec.PlayText(m); err != nil {
			t.Fatal(err)
		}
	}
	rng := rand.New(rand.NewPCG(5, 5))
	res := play.Play(context.Background(), rec, play.Random(rng), play.Random(rng), play.Rules{MaxPlies: 60})
	gr := GameResult{Outcome: res.PDN(), Plies: rec.Ply(), Pieces: PiecesLeft(rec), PDN: Record(rec, res.Outcome)}
	pos := rec.Positions()
	for ply := 2; ply < len(pos)-1; ply++ {
		if pos[ply].Quiet() {
			gr.Samples = append(gr.Samples, Sample{FEN: pos[ply].FEN(), Result: ResultFor(res.Outcome, pos[ply].Side), Score: ply})
		}
	}
	if len(gr.Samples) < 3 {
		t.Fatalf("only %d samples", len(gr.Samples))
	}
	return u, &Result{Version: Version, ID: u.ID, Games: []GameResult{gr}}
}

func TestValidateDatagenSamples(t *testing.T) {
	u, r := datagenPlayed(t)
	if err := Validate(u, r); err != nil {
		t.Fatalf("honest datagen result: %v", err)
	}
	for _, tc := range []struct {
		name  string
		forge func(u *Unit, g *GameResult)
		want  string
	}{
		{"a sample dropped", func(_ *Unit, g *GameResult) { g.Samples = g.Samples[1:] }, "not the game's quiet position"},
		{"the last dropped", func(_ *Unit, g *GameResult) { g.Samples = g.Samples[:len(g.Samples)-1] }, "more quiet positions"},
		{"a sample added", func(_ *Unit, g *GameResult) { g.Samples = append(g.Samples, g.Samples[0]) }, "samples for"},
		{"a label flipped", func(_ *Unit, g *GameResult) { g.Samples[1].Result = 2 - g.Samples[1].Result + 3 }, "result"},
		{"another prelude", func(u *Unit, _ *GameResult) { u.Games[0].Prelude = []string{"10-14"} }, "prelude"},
		{"a bad prelude", func(u *Unit, _ *GameResult) { u.Games[0].Prelude = []string{"30-26"} }, "prelude move 1"},
	} {
		u, r := datagenPlayed(t)
		tc.forge(u, &r.Games[0])
		if err := Validate(u, r); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one saying %q", tc.name, err, tc.want)
		}
	}
	u, r = datagenPlayed(t)
	u.Kind = KindPool
	if err := Validate(u, r); err == nil || !strings.Contains(err.Error(), "samples in a game") {
		t.Errorf("samples in a pool unit: %v", err)
	}
}

// TestValidateDatagenDB checks the ending of a datagen game with an
// endgame database: it must end at the first position within the
// database, with the outcome the worker claims (the replay has no
// database to check it), and not go on past it.
func TestValidateDatagenDB(t *testing.T) {
	u := &Unit{Version: Version, ID: "dg-db", Kind: KindDatagen, Rules: Rules{Depth: 1, MaxPlies: 60}, Datagen: &Datagen{DBPieces: 5},
		Cast: []Evaluator{{Kind: "heuristic"}}, Games: []Game{{Start: "B:W18,26,30:B14,1,3"}}}
	result := func(moves ...string) *Result {
		start, err := u.Games[0].Position()
		if err != nil {
			t.Fatal(err)
		}
		rec := engine.NewGame(start)
		for _, m := range moves {
			if _, err := rec.PlayText(m); err != nil {
				t.Fatal(err)
			}
		}
		gr := GameResult{Outcome: "1-0", Plies: rec.Ply(), Pieces: PiecesLeft(rec), Moves: MoveIndexes(rec)}
		return &Result{Version: Version, ID: u.ID, Games: []GameResult{gr}}
	}
	if err := Validate(u, result("14x23")); err != nil {
		t.Errorf("a game ended where it enters the database: %v", err)
	}
	if err := Validate(u, result("14x23", "26x19")); err == nil || !strings.Contains(err.Error(), "endgame database") {
		t.Errorf("a game that goes on inside the database: %v", err)
	}
	u.Datagen.DBPieces = 0
	if err := Validate(u, result("14x23")); err == nil {
		t.Errorf("a game without a database stopped where it is not over")
	}
}
