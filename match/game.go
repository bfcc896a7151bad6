package match

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"time"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/play"
	"github.com/nechecb/nechecb/protocol/client"
)

// GameResult is a finished game.
type GameResult struct {
	Game Scheduled
	// Black and White are the engines' names.
	Black, White string
	// Opening is the opening's name and Start its position.
	Opening string
	Start   engine.Position
	Moves   []engine.Move
	// Result is the outcome and why ("no legal move", "white sent an
	// illegal move ...", "adjudicated ...").
	Result engine.Result
	// Faulty is the engine index that caused a fault (-1 for none): it is
	// restarted before its next game.
	Faulty int
	// Fatal, when set, stops the match: the engine could not start before
	// it had played a game, so every game it plays would be forfeit. The
	// game is not recorded.
	Fatal error
	// LowClock is, by colour, the least a side's clock held after one of
	// its moves, before the increment (negative when a move overran within
	// the margin); Clocked says whether the game had a clock at all.
	LowClock [2]time.Duration
	Clocked  bool
}

// players holds one worker's engine processes, started when first needed.
type players struct {
	cfg     *Config
	running map[int]*client.Engine
	// started[i] is set once engine i has started and taken a new game,
	// by any worker of the match (nil for a fleet worker's players, which
	// report every failure to start as a faulty game).
	started []atomic.Bool
}

func (p *players) get(i int) (*client.Engine, error) {
	if e := p.running[i]; e != nil {
		return e, nil
	}
	cfg := p.cfg.Engines[i]
	cfg.Timeout = p.timeout(i)
	e, err := client.Start(cfg)
	if err != nil {
		return nil, err
	}
	p.running[i] = e
	return e, nil
}

// drop kills engine i; the next game starts a new process.
func (p *players) drop(i int) {
	if e := p.running[i]; e != nil {
		e.Kill()
		delete(p.running, i)
	}
}

func (p *players) closeAll() {
	for i, e := range p.running {
		e.Close()
		delete(p.running, i)
	}
}

// play plays one scheduled game to its end, through engine/play's loop.
func (p *players) play(s Scheduled) GameResult {
	cfg := p.cfg
	op := cfg.Openings[s.Opening]
	res := GameResult{Game: s, Black: cfg.Engines[s.Black].Name, White: cfg.Engines[s.White].Name,
		Opening: op.Name, Start: op.Position, Faulty: -1}
	g := engine.NewGame(op.Position)
	base := [2]time.Duration{cfg.Limits.Base, cfg.Limits.Base}
	t := &table{p: p, s: &s, seat: [2]int{engine.Black: s.Black, engine.White: s.White},
		clock: base, low: base, adj: adjudicator{cfg: cfg.Adjudication}}
	finish := func(r engine.Result) GameResult {
		res.Moves = append([]engine.Move(nil), g.Moves()...)
		res.Result = r
		// Kept to the millisecond, as the PDN tags hold it.
		res.LowClock = [2]time.Duration{t.low[0].Round(time.Millisecond), t.low[1].Round(time.Millisecond)}
		res.Clocked = cfg.Limits.Base > 0
		// The reason can hold an engine's stderr; it is kept as the PDN
		// tag will hold it, so that a resumed match reports the same.
		res.Result.Reason = tagValue(r.Reason)
		return res
	}
	// A side that cannot start or reset its engine loses before a move.
	for _, c := range []engine.Color{engine.Black, engine.White} {
		e, err := p.get(t.seat[c])
		if err == nil {
			err = e.NewGame()
		}
		if err != nil {
			p.drop(t.seat[c])
			res.Faulty = t.seat[c]
			if i := t.seat[c]; i >= len(p.started) || !p.started[i].Load() {
				res.Fatal = fmt.Errorf("engine %s could not start: %v; the match stops", cfg.Engines[t.seat[c]].Name, err)
			}
			return finish(loss(c, fmt.Sprintf("%s could not start: %v", c, err)))
		}
		if i := t.seat[c]; i < len(p.started) {
			p.started[i].Store(true)
		}
	}
	if o := cfg.Observer; o != nil {
		o.GameStarted(s.Index, res.Black, res.White, res.Opening, op.Position)
	}
	// The runner's context only stops new games: the one under way is
	// played to its end.
	r := play.Play(context.Background(), g, t, t, play.Rules{MaxPlies: 2 * cfg.MaxMoves, Adjudicate: t.adjudicate})
	if r.Fault != nil {
		res.Faulty = t.seat[r.FaultBy]
	}
	return finish(r.Result)
}

// table is one game between two engine processes: the engines at its
// seats, the clocks the runner keeps for them, and the adjudicator that
// watches their replies. It is the play.Player of both sides.
type table struct {
	p     *players
	s     *Scheduled
	seat  [2]int // engine index by colour
	clock [2]time.Duration
	low   [2]time.Duration // the least each clock held after a move
	adj   adjudicator
	last  client.Reply // the reply of the move just played
}

// Move asks the engine of the side to move for its move. An engine that
// fails (crashes, hangs, sends what is not a legal move) is killed, to be
// restarted before its next search.
func (t *table) Move(_ context.Context, g *engine.Game) (engine.Move, error) {
	p, cfg := t.p, t.p.cfg
	cur := g.Current()
	side := cur.Side
	i := t.seat[side]
	e, err := p.get(i)
	if err != nil {
		return engine.Move{}, fmt.Errorf("could not restart: %v", err)
	}
	lim, wait := p.limits(t.clock, side, i)
	reply, err := e.Go(g.Start(), g.Moves(), lim, wait)
	if err != nil {
		p.drop(i)
		if errors.Is(err, client.ErrTimeout) && cfg.Limits.Base > 0 {
			return engine.Move{}, fmt.Errorf("lost on time (no move within %v)", wait.Round(time.Millisecond))
		}
		return engine.Move{}, err
	}
	if cfg.Limits.Base > 0 {
		t.clock[side] -= reply.Elapsed
		t.low[side] = min(t.low[side], t.clock[side])
		if t.clock[side] < -cfg.Limits.Margin {
			return engine.Move{}, &play.Forfeit{Reason: fmt.Sprintf("lost on time (%v over)", (-t.clock[side]).Round(time.Millisecond))}
		}
		t.clock[side] = max(t.clock[side], 0) + cfg.Limits.Inc
	}
	m, err := client.ParseMove(cfg.Engines[i].Dialect, &cur, reply.Move)
	if err != nil {
		p.drop(i)
		return engine.Move{}, moveFault(reply.Move, err)
	}
	t.last = reply
	return m, nil
}

// adjudicate passes the reply of the move just played to the adjudicator,
// then tells the hooks.
func (t *table) adjudicate(g *engine.Game) (engine.Result, bool) {
	side := g.Current().Side.Opponent() // the side that just moved
	t.p.cfg.observeMove(t.s.Index, g)
	if r, ok := t.adj.observe(side, t.last); ok {
		return r, true
	}
	if h := t.p.cfg.Hooks.AfterMove; h != nil {
		next := 0
		if e := t.p.running[t.seat[side.Opponent()]]; e != nil {
			next = e.PID()
		}
		h(t.s, g, next)
	}
	return engine.Result{}, false
}

// timeout returns how long the runner waits on engine i beyond its
// thinking time: the engine's own Timeout if set, else the match's.
func (p *players) timeout(i int) time.Duration {
	if t := p.cfg.Engines[i].Timeout; t > 0 {
		return t
	}
	return p.cfg.Timeout
}

// limits returns the search limits for side, played by engine i, and how
// long to wait for its move: its clock plus the margin with a time control,
// else the move time or nothing plus the hang timeout.
func (p *players) limits(clock [2]time.Duration, side engine.Color, i int) (client.Limits, time.Duration) {
	l := p.cfg.Limits
	switch {
	case l.Depth > 0:
		return client.Limits{Depth: l.Depth}, p.timeout(i)
	case l.Nodes > 0:
		return client.Limits{Nodes: l.Nodes}, p.timeout(i)
	case l.MoveTime > 0:
		return client.Limits{MoveTime: l.MoveTime}, l.MoveTime + p.timeout(i)
	}
	return client.Limits{HasClock: true, Time: clock, Inc: [2]time.Duration{l.Inc, l.Inc}}, clock[side] + l.Margin
}

func loss(side engine.Color, reason string) engine.Result {
	return engine.Result{Outcome: engine.WinFor(side.Opponent()), Reason: reason}
}

// moveFault describes a move that could not be played: garbage when it is
// not even a move, illegal otherwise.
func moveFault(text string, err error) error {
	if text == "" {
		return errors.New("sent no move although it has legal moves")
	}
	var me *engine.MoveError
	if errors.As(err, &me) && me.Problem != "malformed" {
		return fmt.Errorf("sent an illegal move %q", text)
	}
	return fmt.Errorf("sent garbage %q instead of a move", sanitize(text))
}

// sanitize keeps text printable for a PDN comment.
func sanitize(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == '{' || r == '}' || r == '"' {
			return '?'
		}
		return r
	}, s)
}

// adjudicator watches scores and claims.
type adjudicator struct {
	cfg Adjudication
	// streak counts consecutive moves whose score (from Black's view)
	// reached +Score (positive) or -Score (negative).
	streak    int
	lastClaim string
}

func (a *adjudicator) observe(side engine.Color, r client.Reply) (engine.Result, bool) {
	if a.cfg.Claims {
		claim, _, _ := strings.Cut(r.Claim, " ")
		prev := a.lastClaim
		a.lastClaim = claim
		switch {
		case claim == "draw" && prev == "draw":
			return engine.Result{Outcome: engine.Draw, Reason: "adjudicated: both engines claim a draw"}, true
		case claim == "win" && prev == "loss":
			return engine.Result{Outcome: engine.WinFor(side), Reason: fmt.Sprintf("adjudicated: %s claims a win, %s a loss", side, side.Opponent())}, true
		case claim == "loss" && prev == "win":
			return engine.Result{Outcome: engine.WinFor(side.Opponent()), Reason: fmt.Sprintf("adjudicated: %s claims a win, %s a loss", side.Opponent(), side)}, true
		}
	}
	if a.cfg.ScoreMoves <= 0 || !r.HasScore {
		a.streak = 0
		return engine.Result{}, false
	}
	score := r.Score
	if side == engine.White {
		score = -score
	}
	switch {
	case score >= a.cfg.Score:
		a.streak = max(a.streak, 0) + 1
	case score <= -a.cfg.Score:
		a.streak = min(a.streak, 0) - 1
	default:
		a.streak = 0
	}
	if a.streak >= 2*a.cfg.ScoreMoves {
		return engine.Result{Outcome: engine.BlackWins, Reason: fmt.Sprintf("adjudicated: both engines score black %d or more for %d moves", a.cfg.Score, a.cfg.ScoreMoves)}, true
	}
	if a.streak <= -2*a.cfg.ScoreMoves {
		return engine.Result{Outcome: engine.WhiteWins, Reason: fmt.Sprintf("adjudicated: both engines score white %d or more for %d moves", a.cfg.Score, a.cfg.ScoreMoves)}, true
	}
	return engine.Result{}, false
}
