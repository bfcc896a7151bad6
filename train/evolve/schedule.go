package evolve

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"

	"github.com/nechecb/nechecb/books"
	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval"
)

// Schedule builds the games of an improved mode (docs/evolution.md):
// colour-reversed pairs, each from a standard 3-move ballot, each game's
// seed the next index of the generation's game stream. Every learner's
// improved mode fills one and plays it with Scores.
type Schedule struct {
	// Games are the games added so far, in the order they were added.
	Games []Game

	rng     *rand.Rand
	ballots []books.Ballot
	seed    uint64
	gen     int
	stream  Stream
	scored  []int // for each game, the only cast member it scores, or -1 for both players
}

// NewSchedule starts the schedule of generation gen of a run seeded with
// seed: rng draws its ballots and opponents, and stream seeds its games.
func NewSchedule(rng *rand.Rand, seed uint64, gen int, stream Stream) (*Schedule, error) {
	ballots, err := books.Standard("3move")
	if err != nil {
		return nil, err
	}
	return &Schedule{rng: rng, ballots: ballots, seed: seed, gen: gen, stream: stream}, nil
}

// Opening draws a standard 3-move ballot and returns the position it
// leads to.
func (s *Schedule) Opening() (engine.Position, error) {
	b := s.ballots[s.rng.IntN(len(s.ballots))]
	g, err := b.Play()
	if err != nil {
		return engine.Position{}, fmt.Errorf("ballot %s: %w", b.Name, err)
	}
	return g.Current(), nil
}

// Pair adds the two games between cast members a and b from pos, a with
// Black first. Both players score when both is set, otherwise a alone.
func (s *Schedule) Pair(a, b int, pos engine.Position, both bool) {
	who := a
	if both {
		who = -1
	}
	for c := range 2 {
		g := Game{Black: a, White: b, Start: pos, Seed: GameSeed(s.seed, s.gen, s.stream, len(s.Games))}
		if c == 1 {
			g.Black, g.White = b, a
		}
		s.Games = append(s.Games, g)
		s.scored = append(s.scored, who)
	}
}

// RandomPairs adds, for each of the first players cast members in turn,
// pairs pairs against another of them drawn at random, each pair from its
// own ballot, both players scored.
func (s *Schedule) RandomPairs(players, pairs int) error {
	for i := range players {
		for range pairs {
			j := s.rng.IntN(players - 1)
			if j >= i {
				j++
			}
			pos, err := s.Opening()
			if err != nil {
				return err
			}
			s.Pair(i, j, pos, true)
		}
	}
	return nil
}

// Scores plays the games with cast on pool and returns each cast member's
// mean score over the games that score it (Result.Score with shaping; 0
// for a member that no game scores).
func (s *Schedule) Scores(ctx context.Context, pool *Pool, cast []eval.Factory, shaping float64) ([]float64, error) {
	results := make([]Result, len(s.Games))
	if err := pool.Play(ctx, cast, s.Games, results); err != nil {
		return nil, err
	}
	points := make([]float64, len(cast))
	counts := make([]int, len(cast))
	for k, g := range s.Games {
		for _, side := range [2]engine.Color{engine.Black, engine.White} {
			i := g.Black
			if side == engine.White {
				i = g.White
			}
			if s.scored[k] < 0 || s.scored[k] == i {
				points[i] += results[k].Score(side, shaping)
				counts[i]++
			}
		}
	}
	for i := range points {
		points[i] /= float64(max(counts[i], 1))
	}
	return points, nil
}

// ByFitness returns the indexes of fitness, best first; equal fitness
// keeps index order.
func ByFitness(fitness []float64) []int {
	idx := make([]int, len(fitness))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return fitness[idx[a]] > fitness[idx[b]] })
	return idx
}
