package evolve

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/eval/neche"
	"github.com/nechecb/nechecb/internal/badinput"
	"github.com/nechecb/nechecb/internal/elo"
)

// cast returns material, G1 and the sample's random genome of line 2, as
// evaluator factories.
func testCast(t *testing.T) []eval.Factory {
	t.Helper()
	f, err := neche.ReadFile("../../eval/neche/testdata/best_networks.txt")
	if err != nil {
		t.Fatal(err)
	}
	out := []eval.Factory{func() eval.Evaluator { return eval.Material{} }}
	for _, sel := range []string{"1", "2", "3"} {
		g, err := f.Select(sel)
		if err != nil {
			t.Fatal(err)
		}
		n := neche.Compile(g)
		out = append(out, func() eval.Evaluator { return n })
	}
	return out
}

func testGames(openings []engine.Position, players int) []Game {
	var games []Game
	for i, start := range openings {
		games = append(games, Game{Black: i % players, White: (i + 1) % players, Start: start, Seed: GameSeed(5, 0, StreamCurve, i)})
	}
	return games
}

// The results of a list of games do not depend on the number of workers.
func TestPoolResultsIndependentOfWorkers(t *testing.T) {
	openings, err := Openings(12)
	if err != nil {
		t.Fatal(err)
	}
	cast := testCast(t)
	for _, rules := range []Rules{{Depth: 2, RandomTies: true, QuietDraw: 20, MaxPlies: 200}, {Depth: 0, RandomTies: true, MaxPlies: 200}} {
		games := testGames(openings, len(cast))
		var want []Result
		for _, w := range []int{1, 2, 4} {
			out := make([]Result, len(games))
			pool := NewPool(w, rules)
			if err := pool.Play(context.Background(), cast, games, out); err != nil {
				t.Fatal(err)
			}
			if pool.Played() != len(games) {
				t.Errorf("%d games counted, %d played", pool.Played(), len(games))
			}
			if want == nil {
				want = out
				continue
			}
			for i := range out {
				if out[i] != want[i] {
					t.Errorf("depth %d, game %d: %+v with %d workers, %+v with 1", rules.Depth, i, out[i], w, want[i])
				}
			}
		}
	}
}

// A game played by a warm worker allocates nothing: the searchers, the
// players and the game record are the worker's, reused.
func TestGamesDoNotAllocate(t *testing.T) {
	openings, err := Openings(4)
	if err != nil {
		t.Fatal(err)
	}
	cast := testCast(t)
	for _, rules := range []Rules{{Depth: 3, RandomTies: true, QuietDraw: 20, MaxPlies: 200}, {Depth: 0, RandomTies: true, MaxPlies: 200}} {
		a := newArena(rules)
		a.cast(cast)
		games := testGames(openings, len(cast))
		for i := range games {
			a.play(context.Background(), &games[i]) // warm up
		}
		ctx, cancel := context.WithCancel(context.Background())
		k, plies := 0, 0
		allocs := testing.AllocsPerRun(8, func() {
			r := a.play(ctx, &games[k%len(games)])
			plies += r.Plies
			k++
		})
		cancel()
		if allocs != 0 {
			t.Errorf("depth %d: a game allocates %v times, want 0", rules.Depth, allocs)
		}
		if plies == 0 {
			t.Errorf("depth %d: no moves were played", rules.Depth)
		}
	}
}

func TestQuietRuleEndsGames(t *testing.T) {
	openings, err := Openings(6)
	if err != nil {
		t.Fatal(err)
	}
	cast := testCast(t)
	pool := NewPool(2, Rules{Depth: 1, QuietDraw: 20, MaxPlies: 400})
	a := newArena(pool.rules)
	a.cast(cast)
	for i, g := range testGames(openings, len(cast)) {
		r := a.play(context.Background(), &g)
		if q := QuietPlies(a.game.Positions()); r.Outcome == engine.Draw && q != 21 && a.game.Result().Outcome == engine.Ongoing {
			t.Errorf("game %d: adjudicated as drawn after %d quiet plies, want 21", i, q)
		}
		if q := QuietPlies(a.game.Positions()); q > 21 {
			t.Errorf("game %d went on %d plies without capture or promotion", i, q)
		}
	}
}

// hashEval values a position by its hash: arbitrary, but fixed.
type hashEval struct{}

func (hashEval) Raw(p *engine.Position) float64  { return float64(p.Hash%1000) / 1000 }
func (hashEval) Evaluate(p *engine.Position) int { return int(p.Hash % 1000) }

// The greedy player takes the move after which its evaluator's value for
// the opponent is lowest.
func TestGreedyPlaysTheBestMoveForItself(t *testing.T) {
	a := newArena(Rules{Depth: 0})
	a.cast([]eval.Factory{func() eval.Evaluator { return hashEval{} }})
	a.slots[0].ev = a.evs[0]
	for _, fen := range []string{engine.StartFEN, "W:W21,22,23,K30:B1,5,9,K14"} {
		pos, err := engine.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		a.game.Reset(pos)
		got, err := a.greedy[0].Move(context.Background(), a.game)
		if err != nil {
			t.Fatal(err)
		}
		var l engine.MoveList
		pos.Generate(&l)
		best, want := math.Inf(1), engine.Move{}
		for _, m := range l.Slice() {
			child := pos.Play(m)
			if v := (hashEval{}).Raw(&child); v < best {
				best, want = v, m
			}
		}
		if l.N < 2 || got != want {
			t.Errorf("%s: greedy chose %v, want %v (of %d moves)", fen, got, want, l.N)
		}
	}
}

func TestCurveFileRoundTrip(t *testing.T) {
	var rows []CurveRow
	for gen, opp := range []string{"g1", "heuristic", "gen0"} {
		r := CurveRow{Gen: gen * 5, Opponent: opp, Tally: elo.Tally{W: 10 + gen, L: 3, D: 20, Penta: [5]int{1, 2, 8, 4, 2}}}
		r.Elo, r.Lo, r.Hi = r.Tally.Elo()
		rows = append(rows, r)
	}
	rows = append(rows, CurveRow{Gen: 20, Opponent: "g1", Tally: elo.Tally{W: 4, Penta: [5]int{0, 0, 0, 0, 2}}, Elo: math.Inf(1), Lo: math.Inf(1), Hi: math.Inf(1)})
	data := FormatCurve(rows)
	back, err := ReadCurve(bytes.NewReader(data), "c")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(FormatCurve(back), data) {
		t.Errorf("curve does not read back:\n%s\n%s", data, FormatCurve(back))
	}
	for _, tc := range []struct{ text, want string }{
		{"x\n", "c:1: not a curve table"},
		{curveHeader + "\n1\tg1\t1\t2\n", "c:2: 4 columns"},
		{curveHeader + "\n1\tg1\t1\t2\tx\t0.5\t+0\t-1\t+1\t0,0,0,0,0\n", "c:2: column 5"},
		{curveHeader + "\n1\tg1\t1\t2\t3\t0.5\t+0\t-1\t+1\t0,0,0\n", "c:2: column 10"},
	} {
		if _, err := ReadCurve(strings.NewReader(tc.text), "c"); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ReadCurve(%q) = %v, want %q", tc.text, err, tc.want)
		}
	}
	svg := string(PlotCurve(rows, "t"))
	for _, want := range []string{"vs g1", "vs heuristic", "vs gen0", "generation 20: g1 +inf"} {
		if !strings.Contains(svg, want) {
			t.Errorf("chart lacks %q", want)
		}
	}
}

func TestPrepare(t *testing.T) {
	type settings struct {
		Kind  string `json:"kind"`
		Depth int    `json:"depth"`
	}
	root := t.TempDir()
	dir := filepath.Join(root, "new", "run")
	if err := Prepare(dir, false, settings{"neche", 6}); err != nil {
		t.Fatalf("a missing folder: %v", err)
	}
	if err := Prepare(dir, false, settings{"neche", 6}); err == nil || !badinput.Is(err) || !strings.Contains(err.Error(), "not empty") {
		t.Errorf("a non-empty folder without resume: %v", err)
	}
	if err := Prepare(dir, true, settings{"neche", 6}); err != nil {
		t.Errorf("resume with the same settings: %v", err)
	}
	if err := Prepare(dir, true, settings{"neche", 4}); err == nil || !strings.Contains(err.Error(), "depth: run 6, given 4") {
		t.Errorf("resume with another depth: %v", err)
	}
	if err := Prepare(t.TempDir(), true, settings{"neche", 4}); err == nil || !strings.Contains(err.Error(), "no run to resume") {
		t.Errorf("resume of an empty folder: %v", err)
	}
	file := filepath.Join(root, "file")
	os.WriteFile(file, nil, 0o644)
	if err := Prepare(file, false, settings{}); err == nil {
		t.Error("a file as the run folder gave no error")
	}
}

func TestSeedsAreDistinct(t *testing.T) {
	seen := map[uint64]bool{}
	for gen := range 10 {
		for s := range Stream(4) {
			for i := range 50 {
				seen[GameSeed(1, gen, s, i)] = true
			}
		}
	}
	if len(seen) != 10*4*50 {
		t.Errorf("%d distinct seeds of %d", len(seen), 10*4*50)
	}
	a, b := Rand(1, 2, 3), Rand(1, 2, 3)
	for range 10 {
		if a.Uint64() != b.Uint64() {
			t.Fatal("two sources with the same seed give different numbers")
		}
	}
	if Rand(1, 2, 3).Uint64() == Rand(1, 2, 4).Uint64() {
		t.Error("two purposes give the same numbers")
	}
}

func TestResumeRemovesLeftovers(t *testing.T) {
	dir := t.TempDir()
	if err := Prepare(dir, false, map[string]int{"a": 1}); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(dir, "sub"), 0o755)
	for _, name := range []string{".best.txt.tmp123", "sub/.0_nets.txt.tmp9", "keep.tmp1", ".keep"} {
		os.WriteFile(filepath.Join(dir, name), nil, 0o644)
	}
	if err := Prepare(dir, true, map[string]int{"a": 1}); err != nil {
		t.Fatal(err)
	}
	for name, kept := range map[string]bool{".best.txt.tmp123": false, "sub/.0_nets.txt.tmp9": false, "keep.tmp1": true, ".keep": true} {
		if _, err := os.Stat(filepath.Join(dir, name)); (err == nil) != kept {
			t.Errorf("%s kept: %v, want %v", name, err == nil, kept)
		}
	}
}

// A result counts each colour's pieces at the end of the game, men and
// kings alike, under that colour's index.
func TestResultCountsThePiecesLeft(t *testing.T) {
	for _, tc := range []struct {
		fen          string
		black, white int
		winner       engine.Color
	}{
		// Black to move must take 14 and leaves White nothing.
		{"B:W14:B9,1,K3", 3, 0, engine.Black},
		// White to move must take 18 and leaves Black nothing.
		{"W:W22,K30:B18", 0, 2, engine.White},
	} {
		start, err := engine.ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		cast := []eval.Factory{func() eval.Evaluator { return eval.Material{} }}
		out := make([]Result, 1)
		if err := NewPool(1, Rules{Depth: 2, MaxPlies: 50}).Play(context.Background(), cast, []Game{{Start: start}}, out); err != nil {
			t.Fatal(err)
		}
		r := out[0]
		if r.Outcome != engine.WinFor(tc.winner) || r.Pieces[engine.Black] != tc.black || r.Pieces[engine.White] != tc.white {
			t.Errorf("%s: %+v, want a win for %v with %d black and %d white pieces left", tc.fen, r, tc.winner, tc.black, tc.white)
		}
		if b := r.Balance(tc.winner); b != tc.black+tc.white {
			t.Errorf("%s: the winner's balance is %d, want %d", tc.fen, b, tc.black+tc.white)
		}
		if b := r.Balance(tc.winner.Opponent()); b != -(tc.black + tc.white) {
			t.Errorf("%s: the loser's balance is %d, want %d", tc.fen, b, -(tc.black + tc.white))
		}
	}
}

// A shaped score mixes the result with the final piece balance; shaping 0
// is the result alone.
func TestShapedScore(t *testing.T) {
	win := Result{Outcome: engine.BlackWins, Pieces: [2]int{}}
	win.Pieces[engine.Black], win.Pieces[engine.White] = 5, 0
	draw := Result{Outcome: engine.Draw}
	draw.Pieces[engine.Black], draw.Pieces[engine.White] = 4, 7
	for _, r := range []Result{win, draw} {
		for _, side := range []engine.Color{engine.Black, engine.White} {
			if got := r.Score(side, 0); got != r.Points(side) {
				t.Errorf("%+v for %v, no shaping: %v, want the points %v", r, side, got, r.Points(side))
			}
			if got, other := r.Score(side, 0.5), r.Score(side.Opponent(), 0.5); math.Abs(got+other-1) > 1e-12 {
				t.Errorf("%+v: the two sides' shaped scores %v and %v do not add up to 1", r, got, other)
			}
		}
	}
	// Balance +5 of 12 for the winner: (1 + 5/12)/2 under full shaping.
	if got, want := win.Score(engine.Black, 1), (1+5.0/12)/2; math.Abs(got-want) > 1e-12 {
		t.Errorf("a win by 5 pieces, shaping 1: %v, want %v", got, want)
	}
	// A draw three pieces down scores less than a half.
	if got := draw.Score(engine.Black, 0.5); got >= 0.5 {
		t.Errorf("a draw three pieces down scores %v, want less than 0.5", got)
	}
	// Losing slowly (few pieces behind) beats losing fast.
	rout, near := Result{Outcome: engine.WhiteWins}, Result{Outcome: engine.WhiteWins}
	rout.Pieces[engine.White], near.Pieces[engine.White] = 12, 1
	if a, b := rout.Score(engine.Black, 0.5), near.Score(engine.Black, 0.5); !(a < b && a >= 0) {
		t.Errorf("a loss 12 pieces behind scores %v, one piece behind %v", a, b)
	}
}

// TestPrepareUnwritableFolder: a run folder that cannot be made (here under
// a regular file, which even root cannot write into) is a failure to write,
// exit 1, not bad input.
func TestPrepareUnwritableFolder(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	type settings struct{ Kind string }
	for _, dir := range []string{filepath.Join(file, "run"), filepath.Join(file, "a", "run")} {
		if err := Prepare(dir, false, settings{"neche"}); err == nil || badinput.Is(err) {
			t.Errorf("Prepare(%s): %v, want an error that is not bad input", dir, err)
		}
	}
}
