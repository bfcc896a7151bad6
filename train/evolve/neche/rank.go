package neche

import (
	"context"
	"math/rand/v2"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/train/evolve"
)

// Random-number purposes of the neche learner.
const (
	streamInit     = evolve.StreamLearner     // generation 0
	streamBreed    = evolve.StreamLearner + 1 // parents, crossover, mutation
	streamSchedule = evolve.StreamLearner + 2 // improved mode's ballots
	streamRound    = evolve.StreamLearner + 8 // faithful round r: +r (shuffle, pivots)
	streamGames    = evolve.StreamLearner + 64
)

// segment is a part of the order still to sort: order[lo:hi].
type segment struct{ lo, hi int }

// comparison is one game of a partition: order[elem] against the
// segment's pivot order[pivot].
type comparison struct {
	seg          segment
	elem, pivot  int
	elemIsBlack  bool
	resultForElm float64 // filled after the game: 1 elem won, 0.5 draw, 0 lost
}

// quicksortRound ranks the population once, as neche does: it shuffles the
// individuals, then sorts them weakest first with a quicksort whose every
// comparison is one game from the starting position. A game won puts the
// winner above the pivot, a draw makes the two equal: the individuals that
// drew with the pivot stay beside it, in shuffled order, and are not
// compared again. The partitions of one level are independent, so all
// their games are played at once. Pivots, the shuffle and each game's
// colours come from (seed, gen, round); each game's seed from its index
// in the round. It returns the order (weakest first) and the games played.
func quicksortRound(ctx context.Context, pool *evolve.Pool, cast []eval.Factory, seed uint64, gen, round int) ([]int, int, error) {
	n := len(cast)
	rng := evolve.Rand(seed, gen, streamRound+evolve.Stream(round))
	order := rng.Perm(n)
	start := engine.StartPosition()
	segments := []segment{{0, n}}
	played := 0
	for len(segments) > 0 {
		var comps []comparison
		var games []evolve.Game
		for _, s := range segments {
			p := s.lo + rng.IntN(s.hi-s.lo)
			for i := s.lo; i < s.hi; i++ {
				if i == p {
					continue
				}
				c := comparison{seg: s, elem: i, pivot: p, elemIsBlack: rng.IntN(2) == 0}
				g := evolve.Game{Black: order[i], White: order[p], Start: start,
					Seed: evolve.GameSeed(seed, gen, streamGames+evolve.Stream(round), played+len(games))}
				if !c.elemIsBlack {
					g.Black, g.White = g.White, g.Black
				}
				comps = append(comps, c)
				games = append(games, g)
			}
		}
		results := make([]evolve.Result, len(games))
		if err := pool.Play(ctx, cast, games, results); err != nil {
			return nil, 0, err
		}
		played += len(games)
		for i := range comps {
			side := engine.White
			if comps[i].elemIsBlack {
				side = engine.Black
			}
			comps[i].resultForElm = results[i].Points(side)
		}
		segments = partition(order, segments, comps, rng)
	}
	return order, played, nil
}

// partition rearranges each segment of order around its pivot by the
// games' results (the comparisons come segment by segment, in order) and
// returns the parts still to sort: those that lost and those that won.
// The pivot goes to a random place among the individuals that drew with
// it.
func partition(order []int, segments []segment, comps []comparison, rng *rand.Rand) []segment {
	var next []segment
	k := 0
	for _, s := range segments {
		var less, equal, more []int
		pivot := -1
		for k < len(comps) && comps[k].seg == s {
			c := comps[k]
			pivot = order[c.pivot]
			switch c.resultForElm {
			case 0:
				less = append(less, order[c.elem])
			case 1:
				more = append(more, order[c.elem])
			default:
				equal = append(equal, order[c.elem])
			}
			k++
		}
		if pivot < 0 { // a segment of one: nothing was played
			continue
		}
		at := rng.IntN(len(equal) + 1)
		equal = append(equal[:at], append([]int{pivot}, equal[at:]...)...)
		i := s.lo
		for _, part := range [][]int{less, equal, more} {
			i += copy(order[i:], part)
		}
		if len(less) > 1 {
			next = append(next, segment{s.lo, s.lo + len(less)})
		}
		if len(more) > 1 {
			next = append(next, segment{s.hi - len(more), s.hi})
		}
	}
	return next
}

// pairScores plays the improved mode's games: each of the first players
// members of the cast plays a colour-reversed pair against each of the
// opponents (indexes into the cast) other than itself, the pair against
// opponent j from ballot openings[j]. It returns each cast member's mean
// score (0..1, each game scored by GameScore with shaping; 0 for those
// that played no game) and the games played.
func pairScores(ctx context.Context, pool *evolve.Pool, cast []eval.Factory, players int, opponents []int, openings []engine.Position, seed uint64, gen int, shaping float64) ([]float64, int, error) {
	var games []evolve.Game
	var who []int // the individual each game scores
	for i := range players {
		for j, opp := range opponents {
			if opp == i {
				continue
			}
			for c := range 2 {
				g := evolve.Game{Black: i, White: opp, Start: openings[j], Seed: evolve.GameSeed(seed, gen, streamGames, len(games))}
				if c == 1 {
					g.Black, g.White = opp, i
				}
				games = append(games, g)
				who = append(who, i)
			}
		}
	}
	results := make([]evolve.Result, len(games))
	if err := pool.Play(ctx, cast, games, results); err != nil {
		return nil, 0, err
	}
	points := make([]float64, len(cast))
	counts := make([]int, len(cast))
	for k, g := range games {
		i := who[k]
		side := engine.Black
		if g.White == i {
			side = engine.White
		}
		points[i] += GameScore(results[k], side, shaping)
		counts[i]++
	}
	for i := range points {
		if counts[i] > 0 {
			points[i] /= float64(counts[i])
		}
	}
	return points, len(games), nil
}

// GameScore returns side's score for a game, in [0, 1]:
// (1 − shaping)·points + shaping·(1 + clamp(balance/12, −1, 1))/2, where
// points is 1 for a win, ½ for a draw and 0 for a loss and balance is
// side's pieces minus its opponent's at the end of the game. Shaping 0
// scores the result alone. It is evolve.Result.Score.
func GameScore(r evolve.Result, side engine.Color, shaping float64) float64 {
	return r.Score(side, shaping)
}
