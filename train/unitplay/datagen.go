package unitplay

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/egdb/embedded"
	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/internal/badinput"
	"github.com/nechecb/nechecb/internal/workunit"
	"github.com/nechecb/nechecb/train/datagen"
)

// DatagenRemote is a datagen.Remote that plays a run's games as units
// through a Runner.
type DatagenRemote struct {
	Runner Runner
	// Batch is the number of games per unit (0: 8).
	Batch int

	mu   sync.Mutex
	spec string
	desc workunit.Evaluator
}

// describe returns the plain-data form of the run's evaluator spec.
func (r *DatagenRemote) describe(spec string) (workunit.Evaluator, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.spec == spec {
		return r.desc, nil
	}
	desc, err := SpecEvaluator(spec)
	if err != nil {
		return desc, err
	}
	r.spec, r.desc = spec, desc
	return desc, nil
}

// SpecEvaluator returns the plain-data form of an evaluator spec: the spec
// itself when it names no file (the worker's built-in weights), the kind,
// the selector and the file's contents when it names a file, and
// otherwise (a run folder) what the loaded evaluator describes itself as.
func SpecEvaluator(spec string) (workunit.Evaluator, error) {
	s, err := eval.ParseSpec(spec)
	if err != nil {
		return workunit.Evaluator{}, badinput.Mark(err)
	}
	if _, err := eval.Load(spec); err != nil {
		return workunit.Evaluator{}, badinput.Mark(err)
	}
	if s.Path == "" || strings.HasPrefix(s.Path, "=") {
		return workunit.Evaluator{Kind: s.Name, Selector: s.Selector, Data: pathData(s.Path)}, nil
	}
	if st, err := os.Stat(s.Path); err == nil && st.Mode().IsRegular() {
		data, err := os.ReadFile(s.Path)
		if err != nil {
			return workunit.Evaluator{}, err
		}
		return workunit.Evaluator{Kind: s.Name, Selector: s.Selector, Data: data}, nil
	}
	f, err := eval.Load(spec)
	if err != nil {
		return workunit.Evaluator{}, badinput.Mark(err)
	}
	d, ok := f().(eval.Describer)
	if !ok {
		return workunit.Evaluator{}, badinput.Mark(fmt.Errorf("evaluator %s cannot travel in a work unit: give a file, "+
			"or a kind that describes itself (material, heuristic, neche)", spec))
	}
	kind, sel, data := d.Describe()
	return workunit.Evaluator{Kind: kind, Selector: sel, Data: data}, nil
}

// pathData returns nothing: a spec with no file travels as its kind and
// selector. (A bare neche genome, "=ACGT...", goes as a one-line file.)
func pathData(path string) []byte {
	if strings.HasPrefix(path, "=") {
		return []byte(path[1:] + "\n")
	}
	return nil
}

// DatagenUnits returns the games of openings as datagen units of at most
// batch games.
func DatagenUnits(cfg datagen.Config, ev workunit.Evaluator, openings []datagen.Opening, batch int) []*workunit.Unit {
	var units []*workunit.Unit
	for lo := 0; lo < len(openings); lo += batch {
		u := &workunit.Unit{Version: workunit.Version, Kind: workunit.KindDatagen,
			Rules:   workunit.Rules{Depth: cfg.Depth, MaxPlies: cfg.MaxPlies, HashMB: cfg.HashMB},
			Datagen: &workunit.Datagen{Nodes: cfg.Nodes, LabelDepth: cfg.LabelDepth, DBPieces: cfg.DBPieces}, Cast: []workunit.Evaluator{ev}}
		for _, o := range openings[lo:min(lo+batch, len(openings))] {
			u.Games = append(u.Games, workunit.Game{Prelude: o.Moves, Seed: o.Seed})
		}
		units = append(units, u)
	}
	return units
}

// Play plays the games through the runner and returns them.
func (r *DatagenRemote) Play(ctx context.Context, cfg datagen.Config, openings []datagen.Opening) ([]datagen.Played, error) {
	ev, err := r.describe(cfg.Eval)
	if err != nil {
		return nil, err
	}
	batch := r.Batch
	if batch <= 0 {
		batch = 8
	}
	results, err := r.Runner.Run(ctx, DatagenUnits(cfg, ev, openings, batch))
	if err != nil {
		return nil, err
	}
	var out []datagen.Played
	for _, res := range results {
		for _, g := range res.Games {
			played, err := playedOf(&g)
			if err != nil {
				return nil, err
			}
			out = append(out, played)
		}
	}
	return out, nil
}

// playedOf returns a datagen game from its result, which the runner has
// checked (so its moves replay).
func playedOf(g *workunit.GameResult) (datagen.Played, error) {
	rec, err := workunit.Replay(engine.StartPosition(), g.Moves)
	if err != nil {
		return datagen.Played{}, err
	}
	out := datagen.Played{Samples: make([]datagen.Sample, len(g.Samples)), Outcome: engine.OutcomeOfPDN(g.Outcome), Last: rec.Current(),
		ByRules: rec.Result().Outcome != engine.Ongoing}
	for i, s := range g.Samples {
		p, err := engine.ParseFEN(s.FEN)
		if err != nil {
			return datagen.Played{}, err
		}
		out.Samples[i] = datagen.Sample{Position: p, Result: s.Result, Score: s.Score}
	}
	return out, nil
}

// searcherKey names the searchers that can play a datagen unit.
type searcherKey struct {
	eval  string
	rules workunit.Rules
	gen   workunit.Datagen
}

// executeDatagen plays a datagen unit.
func (x *Executor) executeDatagen(ctx context.Context, u *workunit.Unit, f eval.Factory) (*workunit.Result, error) {
	key := searcherKey{eval: u.Cast[0].Key(), rules: u.Rules, gen: *u.Datagen}
	x.mu.Lock()
	var s *datagen.Searcher
	if free := x.searchers[key]; len(free) > 0 {
		s, x.searchers[key] = free[len(free)-1], free[:len(free)-1]
	}
	x.mu.Unlock()
	if s == nil {
		db, err := x.dbFor(u.Datagen.DBPieces)
		if err != nil {
			return nil, fmt.Errorf("unit %s: %w", u.ID, err)
		}
		s, err = datagen.NewSearcher(datagen.Config{Eval: u.Cast[0].Kind, Depth: u.Rules.Depth, Nodes: u.Datagen.Nodes,
			LabelDepth: u.Datagen.LabelDepth, MaxPlies: u.Rules.MaxPlies, HashMB: max(u.Rules.HashMB, 1),
			DBPieces: u.Datagen.DBPieces, DB: db}, f)
		if err != nil {
			return nil, fmt.Errorf("unit %s: %w", u.ID, err)
		}
	}
	defer func() {
		x.mu.Lock()
		x.searchers[key] = append(x.searchers[key], s)
		x.mu.Unlock()
	}()
	res := &workunit.Result{Version: workunit.Version, ID: u.ID}
	for _, g := range u.Games {
		start, err := g.Position()
		if err != nil {
			return nil, err
		}
		gm := engine.NewGame(start)
		for _, text := range g.Prelude {
			if _, err := gm.PlayText(text); err != nil {
				return nil, fmt.Errorf("prelude move %q: %w", text, err)
			}
		}
		outcome, samples, err := s.Play(ctx, gm, g.Seed)
		if err != nil {
			return nil, err
		}
		gr := workunit.NewGameResult(u, gm, outcome)
		for _, sm := range samples {
			gr.Samples = append(gr.Samples, workunit.Sample{FEN: sm.Position.FEN(), Result: sm.Result, Score: sm.Score})
		}
		res.Games = append(res.Games, gr)
	}
	return res, nil
}

// dbFor returns where a datagen unit's endgame database of pieces pieces
// is read from: nowhere for 0, the binary's own database when it is large
// enough, else the worker's (SetDB). A worker with neither refuses the
// unit, since its games would not be the run's.
func (x *Executor) dbFor(pieces int) (string, error) {
	switch {
	case pieces == 0:
		return "", nil
	case pieces <= embedded.Pieces:
		return datagen.EmbeddedDB, nil
	case x.db == "":
		return "", fmt.Errorf("the run searches with a %d-piece endgame database and this worker has only the built-in %d-piece one: "+
			"start the worker with --db DIR", pieces, embedded.Pieces)
	}
	return x.db, nil
}

// described is an evaluator with the plain-data form it travels as.
type described struct {
	eval.Evaluator
	desc workunit.Evaluator
}

// Describe returns the evaluator's plain-data form.
func (d described) Describe() (kind, selector string, data []byte) {
	return d.desc.Kind, d.desc.Selector, d.desc.Data
}

// Described returns a factory of f's evaluators that describe themselves
// as desc (SpecEvaluator's), so that games with them can travel.
func Described(f eval.Factory, desc workunit.Evaluator) eval.Factory {
	return func() eval.Evaluator { return described{f(), desc} }
}
