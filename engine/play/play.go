// Package play owns nechecb's one game loop. Play asks two players for
// their moves in turn, checks every move against the rules, ends the game
// as the rules say (engine.Game's result: a side with no legal move loses,
// threefold repetition and the 40-move rule draw), adjudicates it as drawn
// after a number of plies or as the caller's own adjudication says, and
// charges a player's failure (an error, an illegal move) to the side that
// made it. The in-process players (a search at fixed limits, see
// internal/player.Mover; the random mover here) and the match runner's
// engine processes all play through it; what is particular to a kind of
// player (clocks, restarts, recording) stays in its Player.
package play

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync/atomic"

	"github.com/nechecb/nechecb/engine"
)

// Player chooses moves for one side of a game.
type Player interface {
	// Move returns the move to play in g's current position, which has a
	// legal move. An error loses the game: as a fault of the player, unless
	// it is a *Forfeit. The player must not change g.
	Move(ctx context.Context, g *engine.Game) (engine.Move, error)
}

// Func makes a Player of a function.
type Func func(ctx context.Context, g *engine.Game) (engine.Move, error)

// Move calls f.
func (f Func) Move(ctx context.Context, g *engine.Game) (engine.Move, error) { return f(ctx, g) }

// Forfeit is the error a Player returns to lose the game without a fault,
// as a player whose clock ran out does. Reason says why, after the side's
// name: "lost on time".
type Forfeit struct {
	Reason string
}

// Error returns the reason.
func (f *Forfeit) Error() string { return f.Reason }

// Rules are the conditions, beyond the rules of the game, under which Play
// ends a game.
type Rules struct {
	// MaxPlies adjudicates a game as drawn when it reaches this many plies
	// without a result; 0 means no limit.
	MaxPlies int
	// Repetitions, when 2, draws a game at the second occurrence of a
	// position (TD-Leaf training's shorter games). 0 and 3 mean the rules'
	// threefold repetition, which applies in any case.
	Repetitions int
	// Adjudicate, if set, is called after every move and ends the game
	// when it returns true, with the result it gives.
	Adjudicate func(g *engine.Game) (engine.Result, bool)
}

// Result is how a game played by Play ended.
type Result struct {
	engine.Result
	// Fault is the failure that ended the game (nil when none did) and
	// FaultBy the side that failed and lost.
	Fault   error
	FaultBy engine.Color
}

// Play plays g to its end, black and white choosing the moves, and returns
// the result. A game ends when the rules end it; when rules.MaxPlies or
// rules.Adjudicate end it; or when a player fails, which loses for that
// side with the reason "<side> <error>" (a move that is not legal is a
// failure too). A cancelled context ends the game unfinished (Outcome
// Ongoing, reason "cancelled"), and so does a player's error once ctx is
// cancelled.
func Play(ctx context.Context, g *engine.Game, black, white Player, rules Rules) Result {
	for {
		if r := judge(g, rules); r.Outcome != engine.Ongoing {
			return Result{Result: r}
		}
		if rules.MaxPlies > 0 && g.Ply() >= rules.MaxPlies {
			return Result{Result: engine.Result{Outcome: engine.Draw, Reason: adjudicated(rules.MaxPlies)}}
		}
		if ctx.Err() != nil {
			return cancelled()
		}
		side := g.Current().Side
		p := black
		if side == engine.White {
			p = white
		}
		m, err := p.Move(ctx, g)
		if err == nil {
			if perr := g.Play(m); perr != nil {
				err = fmt.Errorf("played %s: %w", m, perr)
			}
		}
		if err != nil {
			if ctx.Err() != nil {
				return cancelled()
			}
			return lose(side, err)
		}
		if rules.Adjudicate != nil {
			if r, ok := rules.Adjudicate(g); ok {
				return Result{Result: r}
			}
		}
	}
}

// lastAdjudication keeps the reason of the last ply-limit adjudication, so
// that a loop playing many games with one limit formats it once.
var lastAdjudication atomic.Pointer[adjudication]

type adjudication struct {
	plies  int
	reason string
}

// adjudicated returns the reason of a draw adjudicated after plies plies.
func adjudicated(plies int) string {
	if a := lastAdjudication.Load(); a != nil && a.plies == plies {
		return a.reason
	}
	a := &adjudication{plies, fmt.Sprintf("adjudicated after %d plies", plies)}
	lastAdjudication.Store(a)
	return a.reason
}

// judge returns the game's result under the rules, with a shorter
// repetition rule when rules ask for one.
func judge(g *engine.Game, rules Rules) engine.Result {
	r := g.Result()
	if r.Outcome == engine.Ongoing && rules.Repetitions > 0 && rules.Repetitions < 3 && g.Repetitions() >= rules.Repetitions {
		return engine.Result{Outcome: engine.Draw, Reason: fmt.Sprintf("%d-fold repetition", rules.Repetitions)}
	}
	return r
}

func cancelled() Result {
	return Result{Result: engine.Result{Outcome: engine.Ongoing, Reason: "cancelled"}}
}

// lose ends the game as a loss for side, which failed with err.
func lose(side engine.Color, err error) Result {
	r := Result{Result: engine.Result{Outcome: engine.WinFor(side.Opponent()), Reason: fmt.Sprintf("%s %v", side, err)}}
	var f *Forfeit
	if !errors.As(err, &f) {
		r.Fault, r.FaultBy = err, side
	}
	return r
}

// Random returns the 1-ply random player: it plays a legal move drawn from
// rng, the weakest opponent any searching engine must beat.
func Random(rng *rand.Rand) Player {
	return Func(func(_ context.Context, g *engine.Game) (engine.Move, error) {
		cur := g.Current()
		moves := cur.LegalMoves()
		if len(moves) == 0 {
			return engine.Move{}, errors.New("has no legal move")
		}
		return moves[rng.IntN(len(moves))], nil
	})
}
