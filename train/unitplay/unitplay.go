// Package unitplay owns how work units (internal/workunit) are made from
// and played for nechecb's learners: the Executor that plays a unit with
// train/evolve's pool or train/datagen's searcher (engine/play's game loop,
// evaluators built through the eval registry), and the Remotes that turn a
// pool's or a datagen run's games into units for a Runner (a fleet
// coordinator, internal/fleet, or Local in process) and the results back. A game played through a unit ends
// exactly as it does in the pool, so a run gives the same files either way.
package unitplay

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/internal/player"
	"github.com/nechecb/nechecb/internal/workunit"
	"github.com/nechecb/nechecb/train/datagen"
	"github.com/nechecb/nechecb/train/evolve"
)

// ToUnitRules returns the plain-data form of a pool's rules.
func ToUnitRules(r evolve.Rules) workunit.Rules {
	return workunit.Rules{Depth: r.Depth, RandomTies: r.RandomTies, QuietDraw: r.QuietDraw, CaptureDraw: r.CaptureDraw,
		MaxPlies: r.MaxPlies, Search: string(r.Search), HashMB: r.HashMB, MoverView: r.MoverView}
}

// FromUnitRules returns a pool's rules from their plain-data form.
func FromUnitRules(r workunit.Rules) evolve.Rules {
	return evolve.Rules{Depth: r.Depth, RandomTies: r.RandomTies, QuietDraw: r.QuietDraw, CaptureDraw: r.CaptureDraw,
		MaxPlies: r.MaxPlies, Search: player.Profile(r.Search), HashMB: r.HashMB, MoverView: r.MoverView}
}

// Executor plays units. It keeps the evaluators it has loaded, by their
// weights' hash, and a pool of one worker per rule set for each unit it
// plays at once, so that it is safe to call from several goroutines.
type Executor struct {
	dir string
	db  string // the endgame database folder datagen units may use ("": the built-in one only)

	factories workunit.Cache[eval.Factory]

	mu        sync.Mutex
	pools     map[workunit.Rules][]*evolve.Pool
	searchers map[searcherKey][]*datagen.Searcher
}

// NewExecutor returns an executor that writes weight files under a new
// temporary folder (Close removes it).
func NewExecutor() (*Executor, error) {
	dir, err := os.MkdirTemp("", "nechecb-worker-")
	if err != nil {
		return nil, err
	}
	return &Executor{dir: dir, pools: map[workunit.Rules][]*evolve.Pool{},
		searchers: map[searcherKey][]*datagen.Searcher{}}, nil
}

// SetDB gives datagen units that need a larger endgame database than the
// binary's the folder dir (checked with datagen.CheckDB). It must be
// called before the first unit.
func (x *Executor) SetDB(dir string) { x.db = dir }

// Close removes the executor's weight files.
func (x *Executor) Close() error { return os.RemoveAll(x.dir) }

// load returns the factory of a cast member.
func (x *Executor) load(e *workunit.Evaluator) (eval.Factory, error) {
	key := e.Key()
	if f, ok := x.factories.Get(key); ok {
		return f, nil
	}
	f, err := x.open(e)
	if err != nil {
		return nil, err
	}
	x.factories.Put(key, f)
	return f, nil
}

// open loads a cast member: from its weights in memory when its kind can
// (eval.LoadData), otherwise through a spec, its weights written to a
// file of the cache first.
func (x *Executor) open(e *workunit.Evaluator) (eval.Factory, error) {
	if len(e.Data) > 0 {
		if f, ok, err := eval.LoadData(e.Kind, e.Selector, e.Data); ok {
			return f, err
		}
	}
	spec := e.Kind
	if len(e.Data) > 0 {
		path := filepath.Join(x.dir, workunit.HashOf(e.Data))
		if err := writeCache(path, e.Data); err != nil {
			return nil, err
		}
		spec += ":" + path
	} else if e.Hash != "" {
		return nil, fmt.Errorf("evaluator %s: weights %s not given", e.Kind, e.Hash)
	}
	if e.Selector != "" {
		if len(e.Data) == 0 {
			spec += ":"
		}
		spec += "#" + e.Selector
	}
	return eval.Load(spec)
}

// writeCache writes a weight file of the cache: under a name of its own
// first, then renamed, since another unit may be loading the same file. It
// is not synced: the cache does not outlive the worker.
func writeCache(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
	}
	return err
}

// pool takes a free pool for rules, and put gives it back.
func (x *Executor) pool(r workunit.Rules) *evolve.Pool {
	x.mu.Lock()
	defer x.mu.Unlock()
	if free := x.pools[r]; len(free) > 0 {
		p := free[len(free)-1]
		x.pools[r] = free[:len(free)-1]
		return p
	}
	return evolve.NewPool(1, FromUnitRules(r))
}

func (x *Executor) put(r workunit.Rules, p *evolve.Pool) {
	x.mu.Lock()
	x.pools[r] = append(x.pools[r], p)
	x.mu.Unlock()
}

// Execute plays the games of u one after another and returns their
// results. It fails when an evaluator does not load or ctx ends.
func (x *Executor) Execute(ctx context.Context, u *workunit.Unit) (*workunit.Result, error) {
	cast := make([]eval.Factory, len(u.Cast))
	for i := range u.Cast {
		f, err := x.load(&u.Cast[i])
		if err != nil {
			return nil, err
		}
		cast[i] = f
	}
	if u.Kind == workunit.KindDatagen {
		return x.executeDatagen(ctx, u, cast[0])
	}
	if u.Kind != workunit.KindPool {
		return nil, fmt.Errorf("unit %s: kind %q is not one this executor plays", u.ID, u.Kind)
	}
	games := make([]evolve.Game, len(u.Games))
	for i, g := range u.Games {
		start, err := g.Position()
		if err != nil {
			return nil, err
		}
		games[i] = evolve.Game{Black: g.Black, White: g.White, Start: start, Seed: g.Seed}
	}
	out := make([]evolve.Result, len(games))
	res := &workunit.Result{Version: workunit.Version, ID: u.ID, Games: make([]workunit.GameResult, len(games))}
	p := x.pool(u.Rules)
	defer x.put(u.Rules, p)
	err := p.PlayRecorded(ctx, cast, games, out, func(i int, rec *engine.Game) {
		gr := &res.Games[i]
		*gr = workunit.NewGameResult(u, rec, out[i].Outcome)
		if u.Positions {
			for _, pos := range rec.Positions() {
				gr.Positions = append(gr.Positions, pos.FEN())
			}
		}
	})
	if err != nil {
		return nil, err
	}
	return res, nil
}
