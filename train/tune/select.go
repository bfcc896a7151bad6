package tune

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/nechecb/nechecb/books"
	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/play"
	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/eval/heuristic"
	"github.com/nechecb/nechecb/train/selfplay"
)

// SelectConfig sets the seed's selection method.
type SelectConfig struct {
	// Population is the number of weight sets in each round.
	Population int
	// Rounds is the number of elimination tournaments.
	Rounds int
	// Keep is the share of the population that survives a tournament; the
	// seed kept 20%.
	Keep float64
	// Game holds the depth and adjudication of every game.
	Game selfplay.Config
	// Seed seeds the random weights, the pairings and the openings.
	Seed uint64
	// Workers is the number of games played at once (at least 1).
	Workers int
}

// DefaultSelect is a small run of the seed's method.
var DefaultSelect = SelectConfig{Population: 20, Rounds: 3, Keep: 0.2, Game: selfplay.Config{Depth: 3, MaxPlies: 200}}

// RandomWeights draws every weight of both sets uniformly from [−100, 100],
// as the seed did.
func RandomWeights(rng *rand.Rand) heuristic.Weights {
	var w heuristic.Weights
	for i := range w.Opening {
		w.Opening[i] = -100 + 200*rng.Float64()
		w.Endgame[i] = -100 + 200*rng.Float64()
	}
	return w
}

// entrant is one weight set in the population.
type entrant struct {
	w    heuristic.Weights
	f    eval.Factory
	wins int
}

// SelectStats counts what happened in one tournament round.
type SelectStats struct {
	// Games is the number of games played; Decided the pairs decided by the
	// first game, Replayed those decided by the replay with colours
	// reversed, and Tied the pairs drawn twice (both stay in).
	Games, Decided, Replayed, Tied int
}

// Select runs the seed's method, which the seed called hill climbing but
// which is truncation selection with random refill: nothing is ever derived
// from a survivor. A population of random weight sets goes through an
// elimination tournament (random pairs; a drawn game is replayed
// with colours reversed; a pair drawn twice both stay) until at most Keep of
// it is left or a whole pass of pairings eliminates nobody; the population
// is then refilled with new random sets, and the next round begins. It
// returns the weight set that won the last tournament (the first survivor,
// the one with the most wins). Progress lines go to log (may be nil).
func Select(ctx context.Context, cfg SelectConfig, log io.Writer) (heuristic.Weights, error) {
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x68696c6c)) // "hill": the stream the method always had
	openings, err := books.Standard("3move")
	if err != nil {
		return heuristic.Weights{}, err
	}
	newEntrant := func() *entrant {
		w := RandomWeights(rng)
		m := heuristic.NewModel(w)
		return &entrant{w: w, f: func() eval.Evaluator { return heuristic.NewEvaluator(m) }}
	}
	var pop []*entrant
	keep := max(2, int(cfg.Keep*float64(cfg.Population)+0.5))
	for round := 1; round <= cfg.Rounds && ctx.Err() == nil; round++ {
		for len(pop) < cfg.Population {
			pop = append(pop, newEntrant())
		}
		var stats SelectStats
		for len(pop) > keep && ctx.Err() == nil {
			rng.Shuffle(len(pop), func(i, j int) { pop[i], pop[j] = pop[j], pop[i] })
			type pair struct {
				a, b    *entrant
				opening books.Ballot
				winner  int // +1 a won, −1 b won, 0 drawn twice
				games   int
			}
			var pairs []*pair
			for i := 0; i+1 < len(pop); i += 2 {
				pairs = append(pairs, &pair{a: pop[i], b: pop[i+1], opening: openings[rng.IntN(len(openings))]})
			}
			var wg sync.WaitGroup
			jobs := make(chan *pair)
			for range max(cfg.Workers, 1) {
				wg.Add(1)
				go func() {
					defer wg.Done()
					for p := range jobs {
						p.winner, p.games = playPair(ctx, p.a.f, p.b.f, p.opening, cfg.Game)
					}
				}()
			}
			for _, p := range pairs {
				jobs <- p
			}
			close(jobs)
			wg.Wait()
			out := map[*entrant]bool{}
			eliminated := 0
			for _, p := range pairs {
				stats.Games += p.games
				switch {
				case p.winner == 0:
					stats.Tied++
				case p.games == 1:
					stats.Decided++
				default:
					stats.Replayed++
				}
				if p.winner != 0 {
					win, lose := p.a, p.b
					if p.winner < 0 {
						win, lose = p.b, p.a
					}
					win.wins++
					out[lose] = true
					eliminated++
				}
			}
			next := pop[:0]
			for _, e := range pop {
				if !out[e] {
					next = append(next, e)
				}
			}
			pop = next
			if eliminated == 0 {
				break
			}
		}
		sortByWins(pop)
		if log != nil {
			fmt.Fprintf(log, "round %d: %d games, %d pairs decided at once, %d on the replay, %d drawn twice; %d survivors, best %d wins\n",
				round, stats.Games, stats.Decided, stats.Replayed, stats.Tied, len(pop), pop[0].wins)
		}
	}
	if len(pop) == 0 {
		return heuristic.Weights{}, ctx.Err()
	}
	return pop[0].w, ctx.Err()
}

// playPair plays a (Black) against b from opening and, if that is drawn,
// again with colours reversed. It returns +1 when a won, −1 when b won, 0
// when both games were drawn (or the context was cancelled), and the number
// of games played.
func playPair(ctx context.Context, a, b eval.Factory, opening books.Ballot, cfg selfplay.Config) (winner, games int) {
	sa, sb := cfg.NewSearcher(a), cfg.NewSearcher(b)
	for i, aColor := range []engine.Color{engine.Black, engine.White} {
		g, err := opening.Play()
		if err != nil {
			return 0, i
		}
		var black, white play.Player = cfg.Player(sa), cfg.Player(sb)
		if aColor == engine.White {
			black, white = white, black
		}
		r := play.Play(ctx, g, black, white, cfg.Rules())
		switch r.Outcome {
		case engine.WinFor(aColor):
			return 1, i + 1
		case engine.WinFor(aColor.Opponent()):
			return -1, i + 1
		}
	}
	return 0, 2
}

// sortByWins orders entrants by wins, most first, keeping ties in order.
func sortByWins(es []*entrant) {
	slices.SortStableFunc(es, func(a, b *entrant) int { return b.wins - a.wins })
}
