// Package tune owns the tuners of the heuristic evaluator's weights and
// their runs: Texel-style logistic regression on positions from self-play
// games (RunTexel), the seed's selection method (random weight sets thinned
// by knockout tournaments and refilled at random; RunSelect), and the
// fixed-depth match that compares two evaluators (Compare).
package tune

import (
	"context"
	"fmt"
	"io"
	"math"
	"math/bits"
	"math/rand/v2"
	"sync"

	"github.com/nechecb/nechecb/books"
	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/play"
	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/eval/heuristic"
	"github.com/nechecb/nechecb/internal/player"
	"github.com/nechecb/nechecb/train/selfplay"
)

// Sample is one training position: its features for the side to move, the
// share of the opening weights at its piece count, and the result of its
// game for the side to move (1 win, 0.5 draw, 0 loss).
type Sample struct {
	Features heuristic.Vector
	Opening  float64
	Result   float64
}

// Record is one position of a data game with the game's result for the
// side to move (1 win, 0.5 draw, 0 loss).
type Record struct {
	Position engine.Position
	Result   float64
}

// SamplesOf computes the features of records.
func SamplesOf(records []Record) []Sample {
	out := make([]Sample, len(records))
	for i := range records {
		p := &records[i].Position
		out[i] = Sample{
			Features: heuristic.Features(p),
			Opening:  heuristic.BlendFactor(bits.OnesCount64(p.Occupied())),
			Result:   records[i].Result,
		}
	}
	return out
}

// DataConfig says how the self-play games that give Texel tuning its
// positions are played.
type DataConfig struct {
	// Games is the number of games.
	Games int
	// Game holds the depth and adjudication of every game.
	Game selfplay.Config
	// RandomPlies is the most random moves played after the opening ballot,
	// for variety; each game draws a number from 0 to RandomPlies.
	RandomPlies int
	// Seed seeds the choice of ballots, the random moves and the searches'
	// choice among equal moves.
	Seed uint64
	// Workers is the number of games played at once (at least 1).
	Workers int
}

// Generate plays cfg.Games self-play games with the evaluator f, each from a
// random 3-move ballot (the lost ones left out) followed by random moves,
// and returns the quiet positions of each game after its random moves (no
// capture for the side to move) labelled with the game's result, in game
// order. Each game's randomness comes from cfg.Seed and the game's number
// alone, so the positions do not depend on cfg.Workers. Progress lines go
// to log (may be nil).
func Generate(ctx context.Context, f eval.Factory, cfg DataConfig, log io.Writer) ([]Record, error) {
	var openings []books.Ballot
	for _, b := range books.ThreeMove() {
		if !b.Lost {
			openings = append(openings, b)
		}
	}
	var (
		mu    sync.Mutex
		games = make([][]Record, cfg.Games)
		done  int
		total int
		first error
		wg    sync.WaitGroup
	)
	jobs := make(chan int)
	for range max(cfg.Workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := cfg.Game.NewSearcher(f)
			mover := cfg.Game.Player(s)
			for game := range jobs {
				rng := rand.New(rand.NewPCG(cfg.Seed, uint64(game)))
				o := cfg.Game.Options()
				o.RandomTies, o.Seed = true, rng.Uint64()
				s.SetOptions(o)
				got, err := playForData(ctx, openings, rng, cfg, s, mover)
				mu.Lock()
				if err != nil && first == nil {
					first = err
				}
				games[game] = got
				done++
				total += len(got)
				if log != nil && done%100 == 0 {
					fmt.Fprintf(log, "games %d/%d, positions %d\n", done, cfg.Games, total)
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for g := range cfg.Games {
		select {
		case jobs <- g:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	var records []Record
	for _, g := range games {
		records = append(records, g...)
	}
	return records, first
}

// playForData plays one data game and returns its labelled quiet positions.
func playForData(ctx context.Context, openings []books.Ballot, rng *rand.Rand, cfg DataConfig, s *player.Engine, mover play.Player) ([]Record, error) {
	g, err := selfplay.RandomStart(openings, rng, cfg.RandomPlies)
	if err != nil {
		return nil, err
	}
	from := g.Ply()
	s.Clear()
	r := play.Play(ctx, g, mover, mover, cfg.Game.Rules())
	if r.Outcome == engine.Ongoing {
		return nil, nil
	}
	var out []Record
	for _, p := range g.Positions()[from:] {
		if p.HasCapture() {
			continue
		}
		res := 0.5
		switch r.Outcome {
		case engine.WinFor(p.Side):
			res = 1
		case engine.WinFor(p.Side.Opponent()):
			res = 0
		}
		out = append(out, Record{Position: p, Result: res})
	}
	return out, nil
}

// FitConfig sets the logistic regression.
type FitConfig struct {
	// Iterations is the number of full-batch Adam steps.
	Iterations int
	// Rate is Adam's step size, in weight units.
	Rate float64
	// Prior pulls every weight toward its starting value, adding
	// Prior·(w − w0)² per weight to the loss: the data move the weights only
	// as far as they clearly improve the prediction.
	Prior float64
}

// DefaultFit is a fit that converges on a few hundred thousand positions.
var DefaultFit = FitConfig{Iterations: 1500, Rate: 1, Prior: 1e-7}

// model returns the evaluation of s with w, on the engine's scale.
func model(w *heuristic.Weights, s *Sample) float64 {
	var v float64
	for i, f := range s.Features {
		v += f * (s.Opening*w.Opening[i] + (1-s.Opening)*w.Endgame[i])
	}
	return v
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

// Loss returns the mean squared error between the results and the
// predicted scores sigmoid(k·eval/100).
func Loss(samples []Sample, w heuristic.Weights, k float64) float64 {
	var sum float64
	for i := range samples {
		d := samples[i].Result - sigmoid(k*model(&w, &samples[i])/100)
		sum += d * d
	}
	return sum / float64(max(len(samples), 1))
}

// FitK returns the scaling constant k in [0.01, 10] that minimises Loss for
// w, by golden-section search.
func FitK(samples []Sample, w heuristic.Weights) float64 {
	lo, hi := 0.01, 10.0
	g := (math.Sqrt(5) - 1) / 2
	for range 60 {
		a, b := hi-g*(hi-lo), lo+g*(hi-lo)
		if Loss(samples, w, a) < Loss(samples, w, b) {
			hi = b
		} else {
			lo = a
		}
	}
	return (lo + hi) / 2
}

// Fit tunes w by minimising Loss (plus the prior term) with full-batch Adam,
// k fixed. opening.men is the anchor that fixes the scale (a man is worth
// what it is worth in w, normally 100) and is not changed. It reports the
// loss to log (may be nil) every 100 steps.
func Fit(ctx context.Context, samples []Sample, w heuristic.Weights, k float64, cfg FitConfig, log io.Writer) heuristic.Weights {
	const n = 2 * heuristic.NumFeatures
	params := func(w *heuristic.Weights) []*float64 {
		out := make([]*float64, 0, n)
		for i := range w.Opening {
			out = append(out, &w.Opening[i])
		}
		for i := range w.Endgame {
			out = append(out, &w.Endgame[i])
		}
		return out
	}
	p := params(&w)
	w0 := w
	p0 := params(&w0)
	var m, v [n]float64
	const beta1, beta2, eps = 0.9, 0.999, 1e-12
	for it := 1; it <= cfg.Iterations && ctx.Err() == nil; it++ {
		var grad [n]float64
		for i := range samples {
			s := &samples[i]
			pred := sigmoid(k * model(&w, s) / 100)
			// d/dw of (r − pred)² is −2(r − pred)·pred(1 − pred)·k/100·∂eval/∂w.
			c := -2 * (s.Result - pred) * pred * (1 - pred) * k / 100
			for f, x := range s.Features {
				if x == 0 {
					continue
				}
				grad[f] += c * x * s.Opening
				grad[heuristic.NumFeatures+f] += c * x * (1 - s.Opening)
			}
		}
		for j := range grad {
			grad[j] = grad[j]/float64(len(samples)) + 2*cfg.Prior*(*p[j]-*p0[j])
		}
		grad[heuristic.Men] = 0 // the anchor
		for j := range grad {
			m[j] = beta1*m[j] + (1-beta1)*grad[j]
			v[j] = beta2*v[j] + (1-beta2)*grad[j]*grad[j]
			mh := m[j] / (1 - math.Pow(beta1, float64(it)))
			vh := v[j] / (1 - math.Pow(beta2, float64(it)))
			*p[j] -= cfg.Rate * mh / (math.Sqrt(vh) + eps)
		}
		if log != nil && (it%100 == 0 || it == cfg.Iterations) {
			fmt.Fprintf(log, "step %d: loss %.6f\n", it, Loss(samples, w, k))
		}
	}
	return w
}
