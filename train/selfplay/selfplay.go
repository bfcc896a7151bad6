// Package selfplay owns the games that nechecb's tuners and trainers play
// between evaluators: one game at a fixed search depth from a start record,
// and a match over a list of openings with each opening played once with
// each colour. The heuristic tuners (train/tune) and the TD-Leaf
// trainer (train/tdleaf) build on it.
package selfplay

import (
	"context"
	"fmt"
	"github.com/nechecb/nechecb/internal/player"
	"math"
	"math/rand/v2"
	"sync"

	"github.com/nechecb/nechecb/books"
	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval"
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
}

// DefaultMaxPlies is the adjudication length when Config.MaxPlies is 0.
const DefaultMaxPlies = 300

func (c Config) maxPlies() int {
	if c.MaxPlies <= 0 {
		return DefaultMaxPlies
	}
	return c.MaxPlies
}

// NewSearcher makes a one-thread searcher for games played with c.
func (c Config) NewSearcher(f eval.Factory) *player.Engine {
	mb := c.HashMB
	if mb <= 0 {
		mb = 16
	}
	return player.New(player.Options{HashMB: mb, Threads: 1}, f, "")
}

// Mover picks the move to play in a game; it returns false when it has none.
type Mover func(g *engine.Game) (engine.Move, bool)

// SearchMover returns a Mover that searches the game's current position to
// depth with s, the game's earlier positions counting for repetitions.
func SearchMover(ctx context.Context, s *player.Engine, depth int) Mover {
	return func(g *engine.Game) (engine.Move, bool) {
		pos := g.Positions()
		r := s.Search(ctx, g.Current(), pos[:len(pos)-1], player.Limits{Depth: depth}, nil)
		return r.Best, r.HasMove
	}
}

// Play plays g to its end with black and white choosing the moves, and
// returns the result. A game that reaches maxPlies plies is adjudicated a
// draw; a cancelled context ends the game unfinished (Outcome Ongoing).
func Play(ctx context.Context, g *engine.Game, black, white Mover, maxPlies int) engine.Result {
	for {
		if r := g.Result(); r.Outcome != engine.Ongoing {
			return r
		}
		if g.Ply() >= maxPlies {
			return engine.Result{Outcome: engine.Draw, Reason: fmt.Sprintf("adjudicated after %d plies", maxPlies)}
		}
		if ctx.Err() != nil {
			return engine.Result{Outcome: engine.Ongoing, Reason: "cancelled"}
		}
		mover := black
		if g.Current().Side == engine.White {
			mover = white
		}
		m, ok := mover(g)
		if !ok {
			return engine.Result{Outcome: engine.WinFor(g.Current().Side.Opponent()), Reason: "no move"}
		}
		if err := g.Play(m); err != nil {
			return engine.Result{Outcome: engine.WinFor(g.Current().Side.Opponent()), Reason: "illegal move: " + err.Error()}
		}
	}
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

// Score counts a match from the first player's point of view.
type Score struct {
	Wins, Draws, Losses int
}

// Games returns the number of games counted.
func (s Score) Games() int { return s.Wins + s.Draws + s.Losses }

// Points returns wins plus half the draws.
func (s Score) Points() float64 { return float64(s.Wins) + float64(s.Draws)/2 }

// Fraction returns the share of the points won, 0.5 for no games.
func (s Score) Fraction() float64 {
	if s.Games() == 0 {
		return 0.5
	}
	return s.Points() / float64(s.Games())
}

// Elo returns the rating difference that the score fraction implies, capped
// at ±999 for all-won or all-lost matches.
func (s Score) Elo() float64 {
	f := min(max(s.Fraction(), 1e-9), 1-1e-9)
	return max(-999, min(999, -400*math.Log10(1/f-1))) + 0 // + 0 turns −0 into 0
}

// Add counts one game result for the first player, who played colour c.
func (s *Score) Add(r engine.Result, c engine.Color) {
	switch r.Outcome {
	case engine.Draw:
		s.Draws++
	case engine.WinFor(c):
		s.Wins++
	case engine.WinFor(c.Opponent()):
		s.Losses++
	}
}

// String writes the score as "+W =D -L (P/G, F%)".
func (s Score) String() string {
	return fmt.Sprintf("+%d =%d -%d (%.1f/%d, %.1f%%)", s.Wins, s.Draws, s.Losses, s.Points(), s.Games(), 100*s.Fraction())
}

// Match plays a against b from every opening, once with each colour, at
// cfg's depth, on workers goroutines (at least 1), and returns a's score.
// It stops early, with the games finished so far, when ctx is cancelled.
func Match(ctx context.Context, a, b eval.Factory, openings []books.Ballot, cfg Config, workers int) (Score, error) {
	type job struct {
		opening books.Ballot
		aColor  engine.Color
	}
	jobs := make(chan job)
	var (
		mu    sync.Mutex
		score Score
		first error
	)
	var wg sync.WaitGroup
	for range max(workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sa, sb := cfg.NewSearcher(a), cfg.NewSearcher(b)
			for j := range jobs {
				g, err := j.opening.Play()
				if err != nil {
					mu.Lock()
					first = cmpErr(first, fmt.Errorf("opening %s: %w", j.opening.Name, err))
					mu.Unlock()
					continue
				}
				sa.Clear()
				sb.Clear()
				ma, mb := SearchMover(ctx, sa, cfg.Depth), SearchMover(ctx, sb, cfg.Depth)
				black, white := ma, mb
				if j.aColor == engine.White {
					black, white = mb, ma
				}
				r := Play(ctx, g, black, white, cfg.maxPlies())
				mu.Lock()
				score.Add(r, j.aColor)
				mu.Unlock()
			}
		}()
	}
feed:
	for _, o := range openings {
		for _, c := range []engine.Color{engine.Black, engine.White} {
			select {
			case jobs <- job{o, c}:
			case <-ctx.Done():
				break feed
			}
		}
	}
	close(jobs)
	wg.Wait()
	return score, first
}

func cmpErr(first, err error) error {
	if first != nil {
		return first
	}
	return err
}
