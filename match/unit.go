package match

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/internal/fileio"
	"github.com/nechecb/nechecb/internal/workunit"
	"github.com/nechecb/nechecb/protocol/client"
)

// Runner plays work units and returns their results, each checked against
// its unit, in the order of the units: internal/fleet's coordinator.
type Runner interface {
	Run(ctx context.Context, units []*workunit.Unit) ([]*workunit.Result, error)
}

// remoteChunk is the number of games handed to the runner at once: the
// games of a chunk are recorded in schedule order once all are back, and
// an SPRT that decides wastes at most the rest of a chunk.
const remoteChunk = 64

// remoteEngines describes the engines for work units. A worker starts the
// engines from its own binary, so only engines that are nechecb can
// travel; a file named by an Eval option travels as data.
func (c *Config) remoteEngines() ([]workunit.MatchEngine, []workunit.Evaluator, error) {
	var engines []workunit.MatchEngine
	var cast []workunit.Evaluator
	for _, e := range c.Engines {
		base := strings.TrimSuffix(filepath.Base(e.Command[0]), ".exe")
		if base != "nechecb" || e.Dir != "" || len(e.Env) > 0 {
			return nil, nil, fmt.Errorf("engine %s runs %q: a match on a fleet (--nats) can only carry engines that are nechecb itself, "+
				"with options such as Eval (cmd=nechecb or cmd=PATH/nechecb, no dir=), since each worker runs its own nechecb", e.Name, strings.Join(e.Command, " "))
		}
		me := workunit.MatchEngine{Name: e.Name, Args: e.Command[1:], Hub: e.Dialect == client.Hub, EvalCast: -1}
		for _, o := range e.Options {
			me.Options = append(me.Options, workunit.Option{Name: o.Name, Value: o.Value})
			if !strings.EqualFold(o.Name, "Eval") {
				continue
			}
			kind, rest, _ := strings.Cut(o.Value, ":")
			path, sel := rest, ""
			if i := strings.LastIndex(rest, "#"); i >= 0 {
				path, sel = rest[:i], rest[i+1:]
			}
			if path == "" || strings.HasPrefix(path, "=") {
				continue // no file: the spec travels as it is
			}
			if e.Dir == "" && !filepath.IsAbs(path) {
				path = filepath.Clean(path)
			}
			st, err := os.Stat(path)
			if err != nil {
				return nil, nil, fmt.Errorf("engine %s: Eval file: %w", e.Name, err)
			}
			if !st.Mode().IsRegular() {
				return nil, nil, fmt.Errorf("engine %s: Eval %s is not a file: only a file travels to the workers (give the run's best file, not its folder)", e.Name, path)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return nil, nil, fmt.Errorf("engine %s: Eval file: %w", e.Name, err)
			}
			me.EvalCast = len(cast)
			cast = append(cast, workunit.Evaluator{Kind: strings.ToLower(strings.TrimSpace(kind)), Selector: sel, Data: data})
		}
		engines = append(engines, me)
	}
	return engines, cast, nil
}

// CheckRemote reports whether the match can be played on a fleet: its
// engines must be nechecb, and the files their Eval options name must be
// readable files.
func (c *Config) CheckRemote() error {
	_, _, err := c.remoteEngines()
	return err
}

// units returns the scheduled games as match units of at most batch games.
func (c *Config) units(engines []workunit.MatchEngine, cast []workunit.Evaluator, games []Scheduled, batch int) []*workunit.Unit {
	l := c.Limits
	m := &workunit.Match{Engines: engines, Depth: l.Depth, Nodes: l.Nodes, MoveTimeMS: l.MoveTime.Milliseconds(), BaseMS: l.Base.Milliseconds(),
		IncMS: l.Inc.Milliseconds(), MarginMS: l.Margin.Milliseconds(), TimeoutMS: c.Timeout.Milliseconds(), MaxMoves: c.MaxMoves,
		AdjScore: c.Adjudication.Score, AdjMoves: c.Adjudication.ScoreMoves, AdjClaims: c.Adjudication.Claims}
	var units []*workunit.Unit
	for lo := 0; lo < len(games); lo += batch {
		u := &workunit.Unit{Version: workunit.Version, Kind: workunit.KindMatch, Rules: workunit.Rules{MaxPlies: 2 * c.MaxMoves},
			Match: m, Cast: cast, PDN: true}
		for _, s := range games[lo:min(lo+batch, len(games))] {
			start := c.Openings[s.Opening].Position
			u.Games = append(u.Games, workunit.Game{Black: s.Black, White: s.White, Start: start.FEN()})
		}
		units = append(units, u)
	}
	return units
}

// playRemote plays games through c.Remote and returns their results in
// the order of games.
func (c *Config) playRemote(ctx context.Context, engines []workunit.MatchEngine, cast []workunit.Evaluator, games []Scheduled) ([]GameResult, error) {
	batch := c.RemoteBatch
	if batch <= 0 {
		batch = 2
	}
	results, err := c.Remote.Run(ctx, c.units(engines, cast, games, batch))
	if err != nil {
		return nil, err
	}
	var out []GameResult
	for _, res := range results {
		for _, g := range res.Games {
			s := games[len(out)]
			op := c.Openings[s.Opening]
			if len(g.Moves) != g.Plies {
				return nil, fmt.Errorf("game %d: the result has %d move indexes for %d plies", s.Index, len(g.Moves), g.Plies)
			}
			rec, err := workunit.Replay(op.Position, g.Moves)
			if err != nil {
				return nil, fmt.Errorf("game %d: %w", s.Index, err)
			}
			r := GameResult{Game: s, Black: c.Engines[s.Black].Name, White: c.Engines[s.White].Name, Opening: op.Name,
				Start: op.Position, Moves: append([]engine.Move(nil), rec.Moves()...), Faulty: -1}
			r.Result.Reason = g.Reason
			switch g.Outcome {
			case "1-0":
				r.Result.Outcome = engine.BlackWins
			case "0-1":
				r.Result.Outcome = engine.WhiteWins
			default:
				r.Result.Outcome = engine.Draw
			}
			switch g.FaultBy {
			case "black":
				r.Faulty = s.Black
			case "white":
				r.Faulty = s.White
			}
			out = append(out, r)
		}
	}
	if len(out) != len(games) {
		return nil, fmt.Errorf("%d results for %d games", len(out), len(games))
	}
	return out, nil
}

// UnitPlayer plays match units on a worker: it starts the units' engines
// from its own binary, keeping them from unit to unit while they serve the
// same engines, as the runner keeps its engines from game to game.
type UnitPlayer struct {
	self string
	dir  string

	mu   sync.Mutex
	idle map[string][]*players
}

// NewUnitPlayer returns a player of match units that runs self (this
// nechecb) and writes Eval files under dir.
func NewUnitPlayer(self, dir string) *UnitPlayer {
	return &UnitPlayer{self: self, dir: dir, idle: map[string][]*players{}}
}

// Close stops every engine.
func (up *UnitPlayer) Close() {
	up.mu.Lock()
	defer up.mu.Unlock()
	for _, list := range up.idle {
		for _, p := range list {
			p.closeAll()
		}
	}
	up.idle = map[string][]*players{}
}

// config returns the match configuration of a unit, with its engines.
func (up *UnitPlayer) config(u *workunit.Unit) (*Config, error) {
	m := u.Match
	cfg := &Config{MaxMoves: m.MaxMoves, Timeout: time.Duration(m.TimeoutMS) * time.Millisecond,
		Limits: Limits{Depth: m.Depth, Nodes: m.Nodes, MoveTime: time.Duration(m.MoveTimeMS) * time.Millisecond, Base: time.Duration(m.BaseMS) * time.Millisecond,
			Inc: time.Duration(m.IncMS) * time.Millisecond, Margin: time.Duration(m.MarginMS) * time.Millisecond},
		Adjudication: Adjudication{Score: m.AdjScore, ScoreMoves: m.AdjMoves, Claims: m.AdjClaims}}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 30 * time.Second
	}
	for _, e := range m.Engines {
		ec := client.Config{Name: e.Name, Command: append([]string{up.self}, e.Args...)}
		if e.Hub {
			ec.Dialect = client.Hub
		}
		for _, o := range e.Options {
			if e.EvalCast >= 0 && strings.EqualFold(o.Name, "Eval") {
				ev := &u.Cast[e.EvalCast]
				path := filepath.Join(up.dir, workunit.HashOf(ev.Data))
				// Atomically: another unit may be loading the same file.
				if err := fileio.WriteAtomic(path, ev.Data); err != nil {
					return nil, err
				}
				o.Value = ev.Kind + ":" + path
				if ev.Selector != "" {
					o.Value += "#" + ev.Selector
				}
			}
			ec.Options = append(ec.Options, client.Option{Name: o.Name, Value: o.Value})
		}
		cfg.Engines = append(cfg.Engines, ec)
	}
	return cfg, nil
}

// Execute plays a match unit's games in order.
func (up *UnitPlayer) Execute(ctx context.Context, u *workunit.Unit) (*workunit.Result, error) {
	cfg, err := up.config(u)
	if err != nil {
		return nil, err
	}
	for _, g := range u.Games {
		start, err := g.Position()
		if err != nil {
			return nil, err
		}
		cfg.Openings = append(cfg.Openings, Opening{Position: start})
	}
	var key strings.Builder
	for _, e := range cfg.Engines {
		fmt.Fprintf(&key, "%s\x00%q\x00%v\x00%d\x00", e.Name, e.Command, e.Options, e.Dialect)
	}
	fmt.Fprintf(&key, "%d", cfg.Timeout)
	up.mu.Lock()
	var p *players
	if list := up.idle[key.String()]; len(list) > 0 {
		p, up.idle[key.String()] = list[len(list)-1], list[:len(list)-1]
	}
	up.mu.Unlock()
	if p == nil {
		p = &players{running: map[int]*client.Engine{}}
	}
	p.cfg = cfg
	res := &workunit.Result{Version: workunit.Version, ID: u.ID}
	for i, g := range u.Games {
		if ctx.Err() != nil {
			p.closeAll()
			return nil, ctx.Err()
		}
		r := p.play(Scheduled{Index: i + 1, Opening: i, Black: g.Black, White: g.White})
		rec := engine.NewGame(r.Start)
		for _, m := range r.Moves {
			if err := rec.Play(m); err != nil {
				return nil, err
			}
		}
		gr := workunit.NewGameResult(u, rec, r.Result.Outcome)
		gr.Reason = r.Result.Reason
		switch r.Faulty {
		case g.Black:
			gr.FaultBy = "black"
		case g.White:
			gr.FaultBy = "white"
		}
		res.Games = append(res.Games, gr)
	}
	up.mu.Lock()
	up.idle[key.String()] = append(up.idle[key.String()], p)
	up.mu.Unlock()
	return res, nil
}
