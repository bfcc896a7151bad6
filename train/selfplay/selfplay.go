// Package selfplay owns the settings of the games that nechecb's tuners
// and trainers play between evaluators (a fixed search depth, the
// adjudication length), random starts, and a match over a list of openings
// with each opening played once with each colour. The games themselves
// are played by engine/play's loop. The heuristic tuners (train/tune) and
// the TD-Leaf trainer (train/tdleaf) build on it.
package selfplay

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"

	"github.com/nechecb/nechecb/books"
	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/play"
	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/internal/elo"
	"github.com/nechecb/nechecb/internal/player"
)

// Config says how games are played.
type Config struct {
	// Depth is the fixed search depth of every move, in plies.
	Depth int
	// MaxPlies adjudicates a game as drawn when it reaches this many plies
	// without a result under the rules; 0 means DefaultMaxPlies.
	MaxPlies int
	// HashMB is each searcher's table size; 0 means 16.
	HashMB int
	// Search is the search profile of every move (player.Plain or
	// player.Play; empty: Play).
	Search player.Profile
}

// DefaultMaxPlies is the adjudication length when Config.MaxPlies is 0.
const DefaultMaxPlies = 300

func (c Config) maxPlies() int {
	if c.MaxPlies <= 0 {
		return DefaultMaxPlies
	}
	return c.MaxPlies
}

// Options returns the options of a one-thread searcher for games played
// with c: its table size and its search profile's switches.
func (c Config) Options() player.Options {
	mb := c.HashMB
	if mb <= 0 {
		mb = 16
	}
	return player.Options{HashMB: mb, Threads: 1, Tuning: c.Search.Tuning()}
}

// NewSearcher makes a one-thread searcher for games played with c.
func (c Config) NewSearcher(f eval.Factory) *player.Engine {
	return player.New(c.Options(), f, "")
}

// Rules returns the game loop's rules for games played with c.
func (c Config) Rules() play.Rules { return play.Rules{MaxPlies: c.maxPlies()} }

// Player returns a player that searches with e to c's depth.
func (c Config) Player(e *player.Engine) *player.Mover {
	return &player.Mover{Engine: e, Limits: player.Limits{Depth: c.Depth}}
}

// RandomStart plays a ballot drawn from openings and then from 0 to
// randomPlies random legal moves, all drawn from rng, and returns the game.
func RandomStart(openings []books.Ballot, rng *rand.Rand, randomPlies int) (*engine.Game, error) {
	b := openings[rng.IntN(len(openings))]
	g, err := b.Play()
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", b.Name, err)
	}
	var l engine.MoveList
	for n := rng.IntN(max(randomPlies, 0) + 1); n > 0; n-- {
		cur := g.Current()
		if cur.Generate(&l); l.N == 0 {
			break
		}
		if err := g.Play(l.Moves[rng.IntN(l.N)]); err != nil {
			return nil, err
		}
	}
	return g, nil
}

// halfPoints returns what the player of colour c scored in r, in half
// points: 2 a win, 1 a draw, 0 a loss.
func halfPoints(r engine.Result, c engine.Color) int {
	switch r.Outcome {
	case engine.Draw:
		return 1
	case engine.WinFor(c):
		return 2
	}
	return 0
}

// Match plays a against b from every opening, once with each colour (a
// colour-reversed pair), at cfg's depth, on workers goroutines (at least 1),
// and returns a's tally, pairs included. It stops early, with the games
// finished so far, when ctx is cancelled.
func Match(ctx context.Context, a, b eval.Factory, openings []books.Ballot, cfg Config, workers int) (elo.Tally, error) {
	jobs := make(chan books.Ballot)
	var (
		mu    sync.Mutex
		tally elo.Tally
		first error
	)
	var wg sync.WaitGroup
	for range max(workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sa, sb := cfg.NewSearcher(a), cfg.NewSearcher(b)
			for opening := range jobs {
				pair := 0
				for i, aColor := range []engine.Color{engine.Black, engine.White} {
					g, err := opening.Play()
					if err != nil {
						mu.Lock()
						first = cmpErr(first, fmt.Errorf("opening %s: %w", opening.Name, err))
						mu.Unlock()
						break
					}
					sa.Clear()
					sb.Clear()
					var black, white play.Player = cfg.Player(sa), cfg.Player(sb)
					if aColor == engine.White {
						black, white = white, black
					}
					r := play.Play(ctx, g, black, white, cfg.Rules())
					if r.Outcome == engine.Ongoing {
						break
					}
					half := halfPoints(r.Result, aColor)
					pair += half
					mu.Lock()
					tally.Add(half)
					if i == 1 {
						tally.AddPair(pair)
					}
					mu.Unlock()
				}
			}
		}()
	}
feed:
	for _, o := range openings {
		select {
		case jobs <- o:
		case <-ctx.Done():
			break feed
		}
	}
	close(jobs)
	wg.Wait()
	return tally, first
}

func cmpErr(first, err error) error {
	if first != nil {
		return first
	}
	return err
}
