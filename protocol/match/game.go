package match

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/nechecb/nechecb/engine"
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
	// Result is the outcome and why ("no legal move", "white: illegal
	// move ...", "adjudicated: ...").
	Result engine.Result
	// Faulty is the engine index that caused a fault (-1 for none): it is
	// restarted before its next game.
	Faulty int
}

// players holds one worker's engine processes, started when first needed.
type players struct {
	cfg     *Config
	running map[int]*client.Engine
}

func (p *players) get(i int) (*client.Engine, error) {
	if e := p.running[i]; e != nil {
		return e, nil
	}
	cfg := p.cfg.Engines[i]
	cfg.Timeout = p.cfg.Timeout
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

// play plays one scheduled game to its end.
func (p *players) play(s Scheduled) GameResult {
	cfg := p.cfg
	op := cfg.Openings[s.Opening]
	res := GameResult{Game: s, Black: cfg.Engines[s.Black].Name, White: cfg.Engines[s.White].Name,
		Opening: op.Name, Start: op.Position, Faulty: -1}
	seat := [2]int{engine.Black: s.Black, engine.White: s.White}
	g := engine.NewGame(op.Position)
	finish := func(r engine.Result) GameResult {
		res.Moves = append([]engine.Move(nil), g.Moves()...)
		res.Result = r
		return res
	}
	// A side that cannot start or reset its engine loses before a move.
	for _, c := range []engine.Color{engine.Black, engine.White} {
		e, err := p.get(seat[c])
		if err == nil {
			err = e.NewGame()
		}
		if err != nil {
			p.drop(seat[c])
			res.Faulty = seat[c]
			return finish(loss(c, fmt.Sprintf("%s could not start: %v", c, err)))
		}
	}
	clock := [2]time.Duration{cfg.Limits.Base, cfg.Limits.Base}
	var adj adjudicator
	adj.cfg = cfg.Adjudication
	for {
		if r := g.Result(); r.Outcome != engine.Ongoing {
			return finish(r)
		}
		if g.Ply() >= 2*cfg.MaxMoves {
			return finish(engine.Result{Outcome: engine.Draw, Reason: fmt.Sprintf("adjudicated: %d moves a side", cfg.MaxMoves)})
		}
		cur := g.Current()
		side := cur.Side
		e, err := p.get(seat[side])
		if err != nil {
			res.Faulty = seat[side]
			return finish(loss(side, fmt.Sprintf("%s could not restart: %v", side, err)))
		}
		lim, wait := p.limits(clock, side)
		reply, err := e.Go(g.Start(), g.Moves(), lim, wait)
		if err != nil {
			p.drop(seat[side])
			res.Faulty = seat[side]
			reason := fmt.Sprintf("%s %v", side, err)
			if errors.Is(err, client.ErrTimeout) && cfg.Limits.Base > 0 {
				reason = fmt.Sprintf("%s lost on time (no move within %v)", side, wait.Round(time.Millisecond))
			}
			return finish(loss(side, reason))
		}
		if cfg.Limits.Base > 0 {
			clock[side] -= reply.Elapsed
			if clock[side] < -cfg.Limits.Margin {
				return finish(loss(side, fmt.Sprintf("%s lost on time (%v over)", side, (-clock[side]).Round(time.Millisecond))))
			}
			clock[side] = max(clock[side], 0) + cfg.Limits.Inc
		}
		m, err := client.ParseMove(cfg.Engines[seat[side]].Dialect, &cur, reply.Move)
		if err != nil {
			p.drop(seat[side])
			res.Faulty = seat[side]
			return finish(loss(side, moveFault(side, reply.Move, err)))
		}
		if err := g.Play(m); err != nil {
			return finish(loss(side, fmt.Sprintf("%s played %s: %v", side, reply.Move, err)))
		}
		if r, ok := adj.observe(side, reply); ok {
			return finish(r)
		}
		if cfg.Hooks.AfterMove != nil {
			next := 0
			if e := p.running[seat[side.Opponent()]]; e != nil {
				next = e.PID()
			}
			cfg.Hooks.AfterMove(&s, g, next)
		}
	}
}

// limits returns the search limits for side and how long to wait for its
// move: its clock plus the margin with a time control, else the move time
// or nothing plus the hang timeout.
func (p *players) limits(clock [2]time.Duration, side engine.Color) (client.Limits, time.Duration) {
	l := p.cfg.Limits
	switch {
	case l.Depth > 0:
		return client.Limits{Depth: l.Depth}, p.cfg.Timeout
	case l.MoveTime > 0:
		return client.Limits{MoveTime: l.MoveTime}, l.MoveTime + p.cfg.Timeout
	}
	return client.Limits{HasClock: true, Time: clock, Inc: [2]time.Duration{l.Inc, l.Inc}}, clock[side] + l.Margin
}

func loss(side engine.Color, reason string) engine.Result {
	return engine.Result{Outcome: engine.WinFor(side.Opponent()), Reason: reason}
}

// moveFault describes a move that could not be played: garbage when it is
// not even a move, illegal otherwise.
func moveFault(side engine.Color, text string, err error) string {
	if text == "" {
		return fmt.Sprintf("%s sent no move although it has legal moves", side)
	}
	var me *engine.MoveError
	if errors.As(err, &me) && me.Problem != "malformed" {
		return fmt.Sprintf("%s sent an illegal move %q", side, text)
	}
	return fmt.Sprintf("%s sent garbage %q instead of a move", side, sanitize(text))
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
