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
