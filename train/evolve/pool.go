package evolve

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sync"
	"sync/atomic"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/play"
	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/internal/player"
)

// Rules say how a learner's games are played.
type Rules struct {
	// Depth is the search depth of every move. 0 plays with no search: the
	// mover takes the move whose resulting position its evaluator likes
	// best (the seed CNN's way).
	Depth int
	// RandomTies chooses at random, from the game's seed, among root moves
	// of exactly equal value; without it the first such move is played.
	RandomTies bool
	// QuietDraw, when positive, draws a game (and scores as a draw every
	// position in the search) after more than QuietDraw plies without a
	// capture or a promotion: neche's 20-ply rule.
	QuietDraw int
	// CaptureDraw, when positive, draws a game once CaptureDraw plies in a
	// row have captured nothing: the rule of the checkers library the seed
	// CNN played with (ImparaAI's, 40 by default). The search does not
	// know it.
	CaptureDraw int
	// MaxPlies adjudicates a game as drawn at this length; 0 means none
	// (the rules' threefold repetition and 40-move rule still apply).
	MaxPlies int
	// Search is the search profile of every move: player.Plain, the
	// seeds' full-width alpha-beta, or player.Play, timed play's search
	// (the empty profile searches as Play).
	Search player.Profile
	// HashMB is each searcher's table size; 0 means 1.
	HashMB int
	// MoverView judges every leaf from the side to move, even for
	// networks that ask to be judged from the root player's side
	// (engine/search.RootViewer).
	MoverView bool
}

// Game is one game for a Pool: indexes into the cast of evaluators given to
// Play, the start position and the game's seed.
type Game struct {
	Black, White int
	Start        engine.Position
	Seed         uint64
}

// Result is how a game ended: Outcome is engine.BlackWins, engine.WhiteWins
// or engine.Draw (engine.Ongoing when the game was cancelled). Pieces
// counts each colour's men and kings on the board at the end, indexed by
// engine.Color, for learners that score how a game ended as well as who
// won (neche's improved mode, --shaping).
type Result struct {
	Outcome engine.Outcome
	Plies   int
	Pieces  [2]int
}

// Balance returns side's pieces minus its opponent's at the end of the
// game.
func (r Result) Balance(side engine.Color) int {
	return r.Pieces[side] - r.Pieces[side.Opponent()]
}

// BalanceScale is the piece balance that scores as a whole win (or loss)
// in a shaped score: all twelve of a side's pieces.
const BalanceScale = 12

// Score returns side's shaped score for the game, in [0, 1]:
// (1 − shaping)·points + shaping·(1 + clamp(balance/12, −1, 1))/2, where
// points is Points(side) and balance is Balance(side), men and kings
// alike. Shaping 0 scores the result alone; with shaping a loss that kept
// most of one's pieces scores above a rout (the improved modes' --shaping).
func (r Result) Score(side engine.Color, shaping float64) float64 {
	s := r.Points(side)
	if shaping == 0 {
		return s
	}
	b := max(-1, min(1, float64(r.Balance(side))/BalanceScale))
	return (1-shaping)*s + shaping*(1+b)/2
}

// Points returns what side scored: 1 a win, 0.5 a draw, 0 a loss.
func (r Result) Points(side engine.Color) float64 {
	switch r.Outcome {
	case engine.Draw:
		return 0.5
	case engine.WinFor(side):
		return 1
	}
	return 0
}

// Pool plays games on a fixed number of workers. Each worker keeps its
// searchers, players and game record from game to game, so that playing
// a game allocates nothing. A game's result depends only on the game (its
// evaluators, start and seed): every searcher is cleared and reseeded
// before it, so the results are the same whatever the number of workers.
type Pool struct {
	rules  Rules
	arenas []*arena
	played atomic.Int64
	remote Remote
}

// Remote plays a pool's games somewhere else, on a fleet of workers
// (train/unitplay); the results must be those the pool would give. Play
// returns false, having played nothing, when it cannot carry the cast (an
// evaluator that is not an eval.Describer): the pool then plays the games
// itself.
type Remote interface {
	Play(ctx context.Context, rules Rules, cast []eval.Factory, games []Game, out []Result) (bool, error)
}

// SetRemote sends the pool's games to r (nil: play them here).
func (p *Pool) SetRemote(r Remote) { p.remote = r }

// NewPool makes a pool of workers (at least 1) playing by rules.
func NewPool(workers int, rules Rules) *Pool {
	p := &Pool{rules: rules}
	for range max(workers, 1) {
		p.arenas = append(p.arenas, newArena(rules))
	}
	return p
}

// Workers returns the number of workers.
func (p *Pool) Workers() int { return len(p.arenas) }

// Rules returns the rules the pool plays by.
func (p *Pool) Rules() Rules { return p.rules }

// Played returns the number of games the pool has finished.
func (p *Pool) Played() int { return int(p.played.Load()) }

// Play plays every game of games, the evaluators of each worker made from
// cast (one instance per worker and cast member), and stores game i's
// result in out[i] (out must be as long as games). It returns ctx's error
// when ctx ends first; the games not played are left Ongoing.
func (p *Pool) Play(ctx context.Context, cast []eval.Factory, games []Game, out []Result) error {
	if p.remote != nil {
		if err := checkGames(cast, games, out); err != nil {
			return err
		}
		ok, err := p.remote.Play(ctx, p.rules, cast, games, out)
		if ok {
			for i := range out {
				if out[i].Outcome != engine.Ongoing {
					p.played.Add(1)
				}
			}
			return err
		}
	}
	return p.PlayRecorded(ctx, cast, games, out, nil)
}

// checkGames checks that every game names members of cast and that out
// has room for the results.
func checkGames(cast []eval.Factory, games []Game, out []Result) error {
	if len(out) != len(games) {
		return fmt.Errorf("evolve: %d results for %d games", len(out), len(games))
	}
	for i := range games {
		g := &games[i]
		if g.Black < 0 || g.Black >= len(cast) || g.White < 0 || g.White >= len(cast) {
			return fmt.Errorf("evolve: game %d names players %d and %d of a cast of %d", i, g.Black, g.White, len(cast))
		}
	}
	return nil
}

// PlayRecorded plays the games here, as Play does with no Remote, and
// calls record (when not nil) with each finished game's index and record
// (out[i] already set),
// which stays valid only during the call; calls for different games may
// come at once from different workers.
func (p *Pool) PlayRecorded(ctx context.Context, cast []eval.Factory, games []Game, out []Result, record func(i int, g *engine.Game)) error {
	if err := checkGames(cast, games, out); err != nil {
		return err
	}
	clear(out)
	var next atomic.Int64
	var wg sync.WaitGroup
	for _, a := range p.arenas {
		a.cast(cast)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= len(games) {
					return
				}
				out[i] = a.play(ctx, &games[i])
				if out[i].Outcome != engine.Ongoing {
					p.played.Add(1)
					if record != nil {
						record(i, a.game)
					}
				}
			}
		}()
	}
	wg.Wait()
	return ctx.Err()
}

// slot is the evaluator a worker's searcher calls: the worker points it at
// the evaluator of the side it plays before each game.
type slot struct{ ev eval.Evaluator }

// Evaluate calls the evaluator in the slot.
func (s *slot) Evaluate(p *engine.Position) int { return s.ev.Evaluate(p) }

// RootView forwards the RootView of the evaluator in the slot
// (engine/search.RootViewer), which the search asks at each move.
func (s *slot) RootView() bool {
	rv, ok := s.ev.(interface{ RootView() bool })
	return ok && rv.RootView()
}

// Raw calls the evaluator in the slot.
func (s *slot) Raw(p *engine.Position) float64 { return s.ev.Raw(p) }

// arena is one worker's state, reused from game to game.
type arena struct {
	rules     Rules
	opts      player.Options
	slots     [2]*slot
	engines   [2]*player.Engine
	movers    [2]*player.Mover
	greedy    [2]*greedy
	players   [2]play.Player
	game      *engine.Game
	gameRules play.Rules
	evs       []eval.Evaluator
}

func newArena(r Rules) *arena {
	a := &arena{rules: r, game: engine.NewGame(engine.StartPosition())}
	a.opts = player.Options{HashMB: r.HashMB, Threads: 1, RandomTies: r.RandomTies, QuietDraw: r.QuietDraw, MoverView: r.MoverView, SharePV: true,
		Tuning: r.Search.Tuning()}
	if a.opts.HashMB <= 0 {
		a.opts.HashMB = 1
	}
	for i := range a.slots {
		s := &slot{ev: eval.Material{}}
		a.slots[i] = s
		if r.Depth > 0 {
			a.engines[i] = player.New(a.opts, func() eval.Evaluator { return s }, "evolve")
			a.movers[i] = &player.Mover{Engine: a.engines[i], Limits: player.Limits{Depth: r.Depth}}
			a.players[i] = a.movers[i]
		} else {
			pcg := rand.NewPCG(0, 0)
			a.greedy[i] = &greedy{slot: s, random: r.RandomTies, pcg: pcg, rng: rand.New(pcg)}
			a.players[i] = a.greedy[i]
		}
	}
	a.gameRules = play.Rules{MaxPlies: r.MaxPlies}
	if r.QuietDraw > 0 || r.CaptureDraw > 0 {
		a.gameRules.Adjudicate = adjudicator(r.QuietDraw, r.CaptureDraw)
	}
	return a
}

// cast makes the worker's own evaluators of the cast.
func (a *arena) cast(cast []eval.Factory) {
	a.evs = a.evs[:0]
	for _, f := range cast {
		a.evs = append(a.evs, f())
	}
}

// play plays one game.
func (a *arena) play(ctx context.Context, g *Game) Result {
	a.slots[0].ev, a.slots[1].ev = a.evs[g.Black], a.evs[g.White]
	for i := range a.slots {
		seed := mix(g.Seed ^ uint64(i+1))
		if a.engines[i] != nil {
			a.opts.Seed = seed
			a.engines[i].SetOptions(a.opts)
			a.engines[i].Clear()
		} else {
			a.greedy[i].pcg.Seed(seed, mix(seed))
		}
	}
	a.game.Reset(g.Start)
	r := play.Play(ctx, a.game, a.players[0], a.players[1], a.gameRules)
	end := a.game.Current()
	return Result{Outcome: r.Outcome, Plies: a.game.Ply(), Pieces: [2]int{count(end.Pieces[engine.Black]), count(end.Pieces[engine.White])}}
}

// Reasons of the adjudicated draws.
const (
	quietReason   = "no capture or promotion for too long"
	captureReason = "no capture for too long"
)

// adjudicator draws a game once more than quiet plies have passed without
// a capture or a promotion (quiet > 0), or once capture plies in a row have
// captured nothing (capture > 0).
func adjudicator(quiet, capture int) func(g *engine.Game) (engine.Result, bool) {
	return func(g *engine.Game) (engine.Result, bool) {
		pos := g.Positions()
		if quiet > 0 && QuietPlies(pos) > quiet {
			return engine.Result{Outcome: engine.Draw, Reason: quietReason}, true
		}
		if capture > 0 && pliesSinceCapture(pos) >= capture {
			return engine.Result{Outcome: engine.Draw, Reason: captureReason}, true
		}
		return engine.Result{}, false
	}
}

// QuietPlies returns how many plies have been played since the last
// capture or promotion, counting back from the last of positions: a ply
// that changes neither the number of pieces nor the number of kings.
func QuietPlies(positions []engine.Position) int {
	n := 0
	for i := len(positions) - 1; i > 0; i-- {
		a, b := &positions[i-1], &positions[i]
		if count(a.Occupied()) != count(b.Occupied()) || count(a.Kings) != count(b.Kings) {
			break
		}
		n++
	}
	return n
}

// pliesSinceCapture returns how many plies have been played since the
// last capture.
func pliesSinceCapture(positions []engine.Position) int {
	n := 0
	for i := len(positions) - 1; i > 0 && count(positions[i-1].Occupied()) == count(positions[i].Occupied()); i-- {
		n++
	}
	return n
}

// greedy is the player that does not search: it plays the move after which
// its evaluator judges the position best for itself (the evaluator's value
// for the side to move after the move, negated). Equal values go to the
// first in move-generation order, or to one drawn at random.
type greedy struct {
	slot   *slot
	random bool
	pcg    *rand.PCG
	rng    *rand.Rand
	moves  engine.MoveList
	child  engine.Position // kept here: a local passed to the evaluator would escape
}

// Move picks the move.
func (p *greedy) Move(_ context.Context, g *engine.Game) (engine.Move, error) {
	cur := g.Current()
	cur.Generate(&p.moves)
	if p.moves.N == 0 {
		return engine.Move{}, fmt.Errorf("has no legal move")
	}
	best, pick, ties := math.Inf(-1), 0, 0
	for i := range p.moves.N {
		cur.PlayInto(&p.child, &p.moves.Moves[i])
		v := -p.slot.ev.Raw(&p.child)
		switch {
		case v > best:
			best, pick, ties = v, i, 1
		case v == best && p.random:
			ties++
			if p.rng.IntN(ties) == 0 {
				pick = i
			}
		}
	}
	return p.moves.Moves[pick], nil
}
