package tdleaf

import (
	"context"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/eval/evaltest"
	tdnet "github.com/nechecb/nechecb/eval/tdleaf"
	"github.com/nechecb/nechecb/internal/player"
)

func testNetwork(t testing.TB, seed uint64) *tdnet.Network {
	t.Helper()
	n, err := tdnet.New(tdnet.DefaultInputs, []int{6, 6}, rand.New(rand.NewPCG(seed, 2)))
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// playable returns n random positions where the side to move has a move and
// the network's gradient is not zero (some hidden unit is active).
func playable(t *testing.T, n *tdnet.Network, count int, seed uint64) []engine.Position {
	t.Helper()
	var out []engine.Position
	var l engine.MoveList
	s := n.NewScratch()
	for _, p := range evaltest.RandomPositions(50*count, seed) {
		g := n.Zero()
		n.Gradient(&p, s, 1, g)
		if p.Generate(&l); l.N > 0 && g.B[len(g.B)-1][0] != 0 && len(out) < count {
			out = append(out, p)
		}
	}
	if len(out) < count {
		t.Fatalf("found %d playable positions, want %d", len(out), count)
	}
	return out
}

// TestUpdateFollowsTheFormula works the update out by hand for three leaves
// and compares every parameter.
func TestUpdateFollowsTheFormula(t *testing.T) {
	n := testNetwork(t, 7)
	leaves := playable(t, n, 3, 8)
	rec := &GameRecord{Leaves: leaves, Signs: []float64{1, -1, 1}, Outcome: -1}
	cfg := Config{Lambda: 0.7, Alpha: 0.01, Lookahead: 2}
	s := n.NewScratch()
	var v [3]float64
	for i := range v {
		v[i] = rec.Signs[i] * n.Value(&leaves[i], s)
	}
	d := []float64{v[1] - v[0], v[2] - v[1], -1 - v[2]}
	trace := []float64{d[0] + 0.7*d[1], d[1] + 0.7*d[2], d[2]} // cut after 2 terms
	want := n.Clone()
	for i := range leaves {
		g := n.Zero()
		n.Gradient(&leaves[i], s, 1, g)
		want.AddScaled(cfg.Alpha*rec.Signs[i]*trace[i], g)
	}
	gotD := Update(n, rec, cfg)
	for i := range d {
		if math.Abs(gotD[i]-d[i]) > 1e-12 {
			t.Errorf("d[%d] = %v, want %v", i, gotD[i], d[i])
		}
	}
	for k := range n.W {
		for i := range n.W[k] {
			if math.Abs(n.W[k][i]-want.W[k][i]) > 1e-12 {
				t.Fatalf("layer %d W[%d] = %v, want %v", k+1, i, n.W[k][i], want.W[k][i])
			}
		}
		for i := range n.B[k] {
			if math.Abs(n.B[k][i]-want.B[k][i]) > 1e-12 {
				t.Fatalf("layer %d B[%d] = %v, want %v", k+1, i, n.B[k][i], want.B[k][i])
			}
		}
	}
}

func TestUpdateMovesTowardTheOutcome(t *testing.T) {
	n := testNetwork(t, 9)
	leaf := playable(t, n, 1, 10)
	s := n.NewScratch()
	before := n.Value(&leaf[0], s)
	for range 20 {
		Update(n, &GameRecord{Leaves: leaf, Signs: []float64{1}, Outcome: 1}, Config{Lambda: 0.7, Alpha: 0.05})
	}
	if after := n.Value(&leaf[0], s); after <= before {
		t.Errorf("after 20 won games J went from %v to %v", before, after)
	}
}

func TestKnightCapRule(t *testing.T) {
	n := testNetwork(t, 11)
	leaves := playable(t, n, 2, 12)
	rec := &GameRecord{Leaves: leaves, Signs: []float64{1, 1}, Outcome: 1, Surprised: []bool{true, true}}
	d := Update(n.Clone(), rec, Config{Lambda: 0.7, KnightCap: true})
	plain := Update(n.Clone(), rec, Config{Lambda: 0.7})
	for i := range d {
		if want := plain[i]; want > 0 && d[i] != 0 || want <= 0 && d[i] != want {
			t.Errorf("d[%d] = %v with the rule, %v without", i, d[i], want)
		}
	}
}

// TestTrainWritesCheckpointAndCurve runs training end to end on a small
// network (two games at depth 2, a one-opening curve at depth 1, a few
// hundredths of a second), so that it runs under -short too: the network
// changes, the checkpoint is the trained network and the curve has a point
// before the first game and after each one.
func TestTrainWritesCheckpointAndCurve(t *testing.T) {
	dir := t.TempDir()
	cfg := Default
	cfg.Games, cfg.Depth, cfg.MaxPlies = 2, 2, 60
	cfg.Checkpoint = filepath.Join(dir, "net.txt")
	cfg.Curve = filepath.Join(dir, "curve.tsv")
	cfg.CurveEvery, cfg.CurveOpenings, cfg.CurveDepth = 1, 1, 1
	cfg.CurveOpponent, cfg.CurveOpponentName = func() eval.Evaluator { return eval.Material{} }, "material"
	cfg.Describe = "a test run"
	n := testNetwork(t, 13)
	before := n.Clone()
	curve, err := Run(context.Background(), n, cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(curve) != 3 || curve[2].Games != 2 || curve[0].Score.Games() != 2 {
		t.Errorf("curve %+v, want points after 0, 1 and 2 games of 2 match games each", curve)
	}
	saved, err := tdnet.ReadFile(cfg.Checkpoint)
	if err != nil {
		t.Fatal(err)
	}
	p := engine.StartPosition()
	s := n.NewScratch()
	if saved.Value(&p, s) != n.Value(&p, s) {
		t.Error("the checkpoint is not the trained network")
	}
	if before.Value(&p, s) == n.Value(&p, s) {
		t.Error("training did not change the network")
	}
	text, err := os.ReadFile(cfg.Curve)
	if err != nil {
		t.Fatal(err)
	}
	if lines := strings.Count(string(text), "\n"); lines != 6 || !strings.Contains(string(text), "# "+cfg.Describe+"\n") {
		t.Errorf("curve file has %d lines, want 3 comments (one of them %q) and 3 points:\n%s", lines, cfg.Describe, text)
	}
}

func TestPlayGameAgainstAnOpponent(t *testing.T) {
	n := testNetwork(t, 14)
	net := player.New(player.Options{HashMB: 1, Threads: 1}, tdnet.Factory(n), "tdleaf")
	opp := player.New(player.Options{HashMB: 1, Threads: 1}, nil, "")
	cfg := Default
	cfg.Depth, cfg.MaxPlies = 1, 30
	g := engine.NewGame(engine.StartPosition())
	rec := PlayGame(context.Background(), g, net, opp, engine.White, cfg)
	if rec.Result.Outcome == engine.Ongoing {
		t.Fatalf("game unfinished: %s", rec.Result)
	}
	// The network (White) searched every other position, Black's first
	// move being the opponent's.
	if want := g.Ply() / 2; len(rec.Leaves) != want {
		t.Errorf("%d leaves after %d plies, want %d", len(rec.Leaves), g.Ply(), want)
	}
	if len(rec.Surprised) > len(rec.Leaves) || len(rec.Signs) != len(rec.Leaves) {
		t.Errorf("%d surprises and %d signs for %d leaves", len(rec.Surprised), len(rec.Signs), len(rec.Leaves))
	}
	for i, s := range rec.Signs {
		if want := map[bool]float64{true: 1, false: -1}[rec.Leaves[i].Side == engine.White]; s != want {
			t.Errorf("leaf %d: sign %v, want %v", i, s, want)
		}
	}
	want := map[engine.Outcome]float64{engine.WhiteWins: 1, engine.BlackWins: -1, engine.Draw: 0}[rec.Result.Outcome]
	if rec.Outcome != want {
		t.Errorf("outcome %v for %s, want %v", rec.Outcome, rec.Result, want)
	}
}
