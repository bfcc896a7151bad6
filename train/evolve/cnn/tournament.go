// Package cnn owns the evolution of the seed CNN (seed 001, CheckersAI;
// docs/evolution.md, docs/cnn.md): generation 0 built from duels of random
// weight vectors, the seed's tournament (single elimination with a tie
// pool down to 128, then 4-player round robins down to 16), one-point
// crossover between every pair of the 16 and three ±0.1 mutants of each,
// games scored by the position after each move with no search (a depth
// can be given), and an improved mode (colour-reversed ballot pairs
// against several opponents, the best kept, configurable sizes and depth).
// Each generation is one CSV in the seed's layout, RUN/GenG.csv with rows
// named GenG_IIII, and RUN/GenGWeightsBest.csv holds its 16 best, best
// first.
package cnn

import (
	"context"
	"math/rand/v2"
	"sort"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/train/evolve"
)

// arena plays the games of one tournament: each game from the starting
// position, the first mover drawn at random, its seed the next index of
// the generation's game stream.
type arena struct {
	ctx   context.Context
	pool  *evolve.Pool
	cast  []eval.Factory
	rng   *rand.Rand
	seed  uint64
	gen   int
	games int // games played so far in the generation
}

// duel is one game of a tournament, between cast members a and b.
type duel struct{ a, b int }

// play plays the duels at once and returns, for each, what a scored: 1,
// 1/2 or 0.
func (ar *arena) play(duels []duel) ([]float64, error) {
	start := engine.StartPosition()
	games := make([]evolve.Game, len(duels))
	aBlack := make([]bool, len(duels))
	for i, d := range duels {
		aBlack[i] = ar.rng.IntN(2) == 0
		games[i] = evolve.Game{Black: d.a, White: d.b, Start: start, Seed: evolve.GameSeed(ar.seed, ar.gen, streamGames, ar.games+i)}
		if !aBlack[i] {
			games[i].Black, games[i].White = d.b, d.a
		}
	}
	results := make([]evolve.Result, len(duels))
	if err := ar.pool.Play(ar.ctx, ar.cast, games, results); err != nil {
		return nil, err
	}
	ar.games += len(duels)
	out := make([]float64, len(duels))
	for i := range duels {
		side := engine.White
		if aBlack[i] {
			side = engine.Black
		}
		out[i] = results[i].Points(side)
	}
	return out, nil
}

// eliminationRound halves field by single elimination: the field is
// shuffled and paired (an odd one out goes through on a bye); a winner
// goes through; the two players of a drawn game go to the tie pool, which
// is shuffled and paired in turn, a winner going through and a draw
// settled by a coin. It returns the players that go through.
func (ar *arena) eliminationRound(field []int) ([]int, error) {
	field = shuffled(ar.rng, field)
	var next []int
	if len(field)%2 == 1 {
		next = append(next, field[len(field)-1])
		field = field[:len(field)-1]
	}
	duels := pairs(field)
	scores, err := ar.play(duels)
	if err != nil {
		return nil, err
	}
	var pool []int
	for i, d := range duels {
		switch scores[i] {
		case 1:
			next = append(next, d.a)
		case 0:
			next = append(next, d.b)
		default:
			pool = append(pool, d.a, d.b)
		}
	}
	pool = shuffled(ar.rng, pool)
	duels = pairs(pool)
	scores, err = ar.play(duels)
	if err != nil {
		return nil, err
	}
	for i, d := range duels {
		switch {
		case scores[i] == 1:
			next = append(next, d.a)
		case scores[i] == 0:
			next = append(next, d.b)
		case ar.rng.IntN(2) == 0:
			next = append(next, d.a)
		default:
			next = append(next, d.b)
		}
	}
	return next, nil
}

// playIn cuts field down to size: 2·(len(field)−size) players drawn at
// random play one game each in pairs, and the losers (on a draw, one of
// the two by a coin) leave. The seed's field of 1028 is 129 after three
// halvings, one more than the 128 its round robins start from.
func (ar *arena) playIn(field []int, size int) ([]int, error) {
	surplus := len(field) - size
	if surplus <= 0 {
		return field, nil
	}
	field = shuffled(ar.rng, field)
	duels := pairs(field[:2*surplus])
	scores, err := ar.play(duels)
	if err != nil {
		return nil, err
	}
	next := append([]int(nil), field[2*surplus:]...)
	for i, d := range duels {
		if scores[i] == 1 || scores[i] == 0.5 && ar.rng.IntN(2) == 0 {
			next = append(next, d.a)
		} else {
			next = append(next, d.b)
		}
	}
	return next, nil
}

// standing is one player's record in a round robin.
type standing struct {
	player, points, wins int
}

// roundRobin plays every pair of group once and returns the standings,
// best first: 3 points a win, 1 a draw, ties broken by wins, then by the
// order of group.
func (ar *arena) roundRobin(group []int) ([]standing, error) {
	var duels []duel
	for i := range group {
		for j := i + 1; j < len(group); j++ {
			duels = append(duels, duel{group[i], group[j]})
		}
	}
	scores, err := ar.play(duels)
	if err != nil {
		return nil, err
	}
	return standings(group, duels, scores), nil
}

// standings tallies round-robin games (scores are the first player's).
func standings(group []int, duels []duel, scores []float64) []standing {
	rec := map[int]*standing{}
	out := make([]standing, len(group))
	for i, p := range group {
		out[i].player = p
		rec[p] = &out[i]
	}
	for i, d := range duels {
		switch scores[i] {
		case 1:
			rec[d.a].points += 3
			rec[d.a].wins++
		case 0:
			rec[d.b].points += 3
			rec[d.b].wins++
		default:
			rec[d.a].points++
			rec[d.b].points++
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].points != out[j].points {
			return out[i].points > out[j].points
		}
		return out[i].wins > out[j].wins
	})
	return out
}

// groupRound shuffles field into groups of 4 (the last may be smaller),
// plays each group's round robin, and keeps the top keep of each. All the
// groups' games are played at once.
func (ar *arena) groupRound(field []int, size, keep int) ([]int, error) {
	field = shuffled(ar.rng, field)
	var groups [][]int
	for i := 0; i < len(field); i += size {
		groups = append(groups, field[i:min(i+size, len(field))])
	}
	var duels []duel
	for _, g := range groups {
		for i := range g {
			for j := i + 1; j < len(g); j++ {
				duels = append(duels, duel{g[i], g[j]})
			}
		}
	}
	scores, err := ar.play(duels)
	if err != nil {
		return nil, err
	}
	var next []int
	k := 0
	for _, g := range groups {
		n := len(g) * (len(g) - 1) / 2
		st := standings(g, duels[k:k+n], scores[k:k+n])
		k += n
		for _, s := range st[:min(keep, len(st))] {
			next = append(next, s.player)
		}
	}
	return next, nil
}

// shuffled returns a shuffled copy of xs.
func shuffled(rng *rand.Rand, xs []int) []int {
	out := append([]int(nil), xs...)
	rng.Shuffle(len(out), func(i, j int) { out[i], out[j] = out[j], out[i] })
	return out
}

// pairs pairs xs in order: (0, 1), (2, 3), ...; an odd last one is left.
func pairs(xs []int) []duel {
	out := make([]duel, 0, len(xs)/2)
	for i := 0; i+1 < len(xs); i += 2 {
		out = append(out, duel{xs[i], xs[i+1]})
	}
	return out
}
