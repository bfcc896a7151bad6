// Package tdleaf owns TD-Leaf(lambda) training of tdleaf networks: games
// played at a fixed search depth, in self-play or against another evaluator,
// the update after each game, atomic checkpoints and the learning curve. It
// lives apart from eval/tdleaf so that the evaluator does not depend on the
// search.
package tdleaf

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/nechecb/nechecb/books"
	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/play"
	"github.com/nechecb/nechecb/eval"
	tdnet "github.com/nechecb/nechecb/eval/tdleaf"
	"github.com/nechecb/nechecb/internal/elo"
	"github.com/nechecb/nechecb/internal/fileio"
	"github.com/nechecb/nechecb/internal/player"
	"github.com/nechecb/nechecb/train/selfplay"
)

// Config sets TD-Leaf(lambda) training.
type Config struct {
	// Games is the number of training games.
	Games int
	// Depth is the search depth of every move, in plies, and Search the
	// search profile of every move, the curve's included (player.Plain or
	// player.Play; empty: Play).
	Depth  int
	Search player.Profile
	// Lambda and Alpha are the trace decay and the step size of the update.
	Lambda, Alpha float64
	// Opponent plays the other side; nil means self-play, where the network
	// plays both sides and every position is a training position.
	Opponent eval.Factory
	// Repetitions is how many occurrences of a position end a game as a
	// draw: 3 (the rules' threefold repetition, as the seed had it) or 2.
	Repetitions int
	// Lookahead, when positive, cuts each position's sum of temporal
	// differences after this many of them (the seed's 12-ply lookahead,
	// where the target was the value 12 moves later); 0 sums to the end.
	Lookahead int
	// KnightCap ignores a positive temporal difference when the move that
	// followed was not the one the search predicted, as KnightCap did.
	KnightCap bool
	// MaxPlies adjudicates a game as drawn at this length.
	MaxPlies int
	// RandomPlies is the most random moves played after the opening ballot.
	RandomPlies int
	// Seed seeds the openings and random moves.
	Seed uint64
	// Checkpoint, if set, is the file the network is written to (atomically)
	// after every game.
	Checkpoint string
	// Curve, if set, is the learning-curve file, rewritten (atomically) after
	// each measurement: every CurveEvery games (and before the first), a
	// match against CurveOpponent from the first CurveOpenings standard
	// 3-move ballots, both colours, at CurveDepth, CurveWorkers games at
	// once. CurveOpponentName names the opponent in the file.
	Curve                     string
	CurveEvery, CurveOpenings int
	CurveDepth, CurveWorkers  int
	CurveOpponent             eval.Factory
	CurveOpponentName         string
	// Describe is written as a comment into checkpoints and the curve file.
	Describe string
}

// Default holds the typical settings of docs/tdleaf.md and a modest run.
var Default = Config{
	Games: 200, Depth: 4, Search: player.Plain, Lambda: 0.7, Alpha: 1e-3, Repetitions: 3, Lookahead: 12,
	MaxPlies: 200, RandomPlies: 4, Seed: 1, CurveEvery: 20, CurveOpenings: 10, CurveDepth: 4, CurveWorkers: 1,
}

// CurvePoint is one measurement of the learning curve.
type CurvePoint struct {
	Games int
	Score elo.Tally
}

// GameRecord is what one training game left for the update.
type GameRecord struct {
	// Leaves are the principal-variation leaves of the positions where the
	// network searched, in order; Signs say whose view each leaf's J must be
	// turned to (+1: the learner is to move at the leaf).
	Leaves []engine.Position
	Signs  []float64
	// Surprised[t] is set when the move that followed position t was not the
	// reply the search predicted.
	Surprised []bool
	// Outcome is the result for the learner: +1, 0 or −1.
	Outcome float64
	Result  engine.Result
}

// Update applies the TD-Leaf(lambda) update for one game to n and returns
// the temporal differences used:
//
//	w ← w + α Σ_t ∇J(l_t) Σ_{j≥t} λ^{j−t} d_j
//
// with d_t = J(l_{t+1}) − J(l_t), the outcome standing in for the value
// after the last leaf, values turned to the learner's view, and the inner
// sum cut after cfg.Lookahead terms when that is positive. A leaf with no
// legal move has its exact value (−1 for the side to move) and no gradient.
func Update(n *tdnet.Network, rec *GameRecord, cfg Config) []float64 {
	m := len(rec.Leaves)
	if m == 0 {
		return nil
	}
	s := n.NewScratch()
	values := make([]float64, m)
	terminal := make([]bool, m)
	var l engine.MoveList
	for t := range rec.Leaves {
		p := &rec.Leaves[t]
		if p.Generate(&l); l.N == 0 {
			terminal[t] = true
			values[t] = -rec.Signs[t]
			continue
		}
		values[t] = rec.Signs[t] * n.Value(p, s)
	}
	d := make([]float64, m)
	for t := range d {
		next := rec.Outcome
		if t+1 < m {
			next = values[t+1]
		}
		d[t] = next - values[t]
		if cfg.KnightCap && d[t] > 0 && t < len(rec.Surprised) && rec.Surprised[t] {
			d[t] = 0
		}
	}
	grad := n.Zero()
	for t := range rec.Leaves {
		if terminal[t] {
			continue
		}
		end := m
		if cfg.Lookahead > 0 {
			end = min(m, t+cfg.Lookahead)
		}
		var trace float64
		for j, decay := t, 1.0; j < end; j, decay = j+1, decay*cfg.Lambda {
			trace += decay * d[j]
		}
		if trace != 0 {
			n.Gradient(&rec.Leaves[t], s, rec.Signs[t]*trace, grad)
		}
	}
	n.AddScaled(cfg.Alpha, grad)
	return d
}

// pvLeaf plays the principal variation from p and returns where it ends.
func pvLeaf(p engine.Position, pv []engine.Move) engine.Position {
	for _, m := range pv {
		p = p.Play(m)
	}
	return p
}

// PlayGame plays one training game from g with the network searcher net
// (and the opponent's searcher opp, nil for self-play), the learner playing
// learner, and records the leaves. The game is played by engine/play's
// loop, with cfg.Repetitions and cfg.MaxPlies as its rules.
func PlayGame(ctx context.Context, g *engine.Game, net, opp *player.Engine, learner engine.Color, cfg Config) *GameRecord {
	rc := &recorder{rec: &GameRecord{}, learner: learner}
	limits := player.Limits{Depth: cfg.Depth}
	netP := rc.player(&player.Mover{Engine: net, Limits: limits}, true)
	black, white := netP, netP
	if opp != nil {
		oppP := rc.player(&player.Mover{Engine: opp, Limits: limits}, false)
		if learner == engine.Black {
			white = oppP
		} else {
			black = oppP
		}
	}
	r := play.Play(ctx, g, black, white, play.Rules{MaxPlies: cfg.MaxPlies, Repetitions: cfg.Repetitions})
	rec := rc.rec
	rec.Result = r.Result
	switch rec.Result.Outcome {
	case engine.WinFor(learner):
		rec.Outcome = 1
	case engine.WinFor(learner.Opponent()):
		rec.Outcome = -1
	}
	return rec
}

// recorder watches the searches of a training game: the network's leaves,
// and whether each move that followed one of its searches was the reply
// that search predicted.
type recorder struct {
	rec            *GameRecord
	learner        engine.Color
	predicted      engine.Move
	havePrediction bool
}

// player wraps m, a network's player when net is set, so that rc sees its
// every search.
func (rc *recorder) player(m *player.Mover, net bool) play.Player {
	return play.Func(func(ctx context.Context, g *engine.Game) (engine.Move, error) {
		cur := g.Current()
		best, err := m.Move(ctx, g)
		if err != nil {
			return best, err
		}
		rec := rc.rec
		if rc.havePrediction {
			rec.Surprised = append(rec.Surprised, best != rc.predicted)
		}
		rc.havePrediction = false
		if net {
			leaf := pvLeaf(cur, m.Last.PV)
			sign := 1.0
			if leaf.Side != rc.learner {
				sign = -1
			}
			rec.Leaves = append(rec.Leaves, leaf)
			rec.Signs = append(rec.Signs, sign)
			if len(m.Last.PV) > 1 {
				rc.predicted, rc.havePrediction = m.Last.PV[1], true
			} else {
				rec.Surprised = append(rec.Surprised, false)
			}
		}
		return best, nil
	})
}

// Run runs cfg.Games TD-Leaf games, updating n after each, writing
// checkpoints and the learning curve, and returns the curve. Progress lines
// go to log (may be nil).
func Run(ctx context.Context, n *tdnet.Network, cfg Config, log io.Writer) ([]CurvePoint, error) {
	if cfg.Repetitions != 2 && cfg.Repetitions != 3 {
		return nil, fmt.Errorf("repetitions %d: want 2 or 3 (the rules draw at the third occurrence of a position)", cfg.Repetitions)
	}
	openings, err := books.Standard("3move")
	if err != nil {
		return nil, err
	}
	games := selfplay.Config{Depth: cfg.Depth, MaxPlies: cfg.MaxPlies, Search: cfg.Search}
	netS := player.New(games.Options(), tdnet.Factory(n), "tdleaf")
	var oppS *player.Engine
	if cfg.Opponent != nil {
		oppS = player.New(games.Options(), cfg.Opponent, "opponent")
	}
	var curve []CurvePoint
	measure := func(games int) error {
		if cfg.Curve == "" || cfg.CurveOpponent == nil {
			return nil
		}
		ops := openings[:min(max(cfg.CurveOpenings, 1), len(openings))]
		sc, err := selfplay.Match(ctx, tdnet.Factory(n), cfg.CurveOpponent, ops, selfplay.Config{Depth: cfg.CurveDepth, MaxPlies: cfg.MaxPlies, Search: cfg.Search}, cfg.CurveWorkers)
		if err != nil {
			return err
		}
		curve = append(curve, CurvePoint{games, sc})
		if log != nil {
			fmt.Fprintf(log, "after %d games: %s against %s\n", games, sc, cfg.CurveOpponentName)
		}
		return fileio.WriteAtomic(cfg.Curve, FormatCurve(curve, cfg))
	}
	if err := measure(0); err != nil {
		return curve, err
	}
	for game := 1; game <= cfg.Games && ctx.Err() == nil; game++ {
		rng := rand.New(rand.NewPCG(cfg.Seed, uint64(game)))
		g, err := selfplay.RandomStart(openings, rng, cfg.RandomPlies)
		if err != nil {
			return curve, err
		}
		learner := engine.Color(game & 1)
		netS.Clear()
		if oppS != nil {
			oppS.Clear()
		}
		rec := PlayGame(ctx, g, netS, oppS, learner, cfg)
		if rec.Result.Outcome == engine.Ongoing {
			break
		}
		d := Update(n, rec, cfg)
		if log != nil {
			fmt.Fprintf(log, "game %d: learner %s, %s after %d plies, %d leaves, mean |d| %.4f\n",
				game, learner, rec.Result, g.Ply(), len(rec.Leaves), meanAbs(d))
		}
		if cfg.Checkpoint != "" {
			if err := n.WriteFile(cfg.Checkpoint, fmt.Sprintf("%s\nafter %d training games", cfg.Describe, game)); err != nil {
				return curve, err
			}
		}
		if cfg.CurveEvery > 0 && game%cfg.CurveEvery == 0 {
			if err := measure(game); err != nil {
				return curve, err
			}
		}
	}
	return curve, ctx.Err()
}

func meanAbs(d []float64) float64 {
	var s float64
	for _, x := range d {
		s += math.Abs(x)
	}
	return s / float64(max(len(d), 1))
}

// FormatCurve writes the learning curve as a tab-separated table that
// gnuplot and spreadsheets read: games trained, points, games played,
// score fraction and the Elo difference it implies, one line per point.
func FormatCurve(curve []CurvePoint, cfg Config) []byte {
	var b strings.Builder
	fmt.Fprintf(&b, "# TD-Leaf learning curve: match score against %s, %d openings x 2 colours at depth %d\n",
		cfg.CurveOpponentName, cfg.CurveOpenings, cfg.CurveDepth)
	if cfg.Describe != "" {
		fmt.Fprintf(&b, "# %s\n", strings.ReplaceAll(cfg.Describe, "\n", "\n# "))
	}
	b.WriteString("# games\tpoints\tplayed\tfraction\telo\n")
	for _, p := range curve {
		e, _, _ := p.Score.Elo()
		e = max(-999, min(999, e)) + 0 // a number for plotting tools even when every game was won or lost; + 0 turns -0 into 0
		fmt.Fprintf(&b, "%d\t%.1f\t%d\t%.4f\t%.0f\n", p.Games, p.Score.Points(), p.Score.Games(), p.Score.Score(), e)
	}
	return []byte(b.String())
}
