package unitplay

import (
	"context"
	"fmt"
	"sync"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/internal/workunit"
	"github.com/nechecb/nechecb/train/evolve"
)

// Runner plays units and returns their results in the order of the units,
// each checked against its unit (workunit.Validate). internal/fleet's
// Coordinator is one; Local is the one in process.
type Runner interface {
	Run(ctx context.Context, units []*workunit.Unit) ([]*workunit.Result, error)
}

// Remote is an evolve.Remote that plays a pool's games as units through a
// Runner.
type Remote struct {
	Runner Runner
	// Batch is the number of games per unit; 0 sizes the units from the
	// number of games and of workers (UnitSizes).
	Batch int
	// Log, when set, hears why games were played locally (once).
	Log func(string)

	logged sync.Once
}

// Slotter is a Runner that knows how many units it plays at once.
type Slotter interface {
	Slots() int
}

// Unit sizes chosen by UnitSizes.
const (
	// MinUnit and MaxUnit bound the games of a unit: a unit's fixed cost
	// (a few ms between the worker, the server and the coordinator) stays
	// small beside its games, and no unit holds a worker too long.
	MinUnit = 8
	MaxUnit = 256
)

// UnitSizes splits n games into units for workers workers, largest first:
// each unit takes an equal share of the games left among twice the
// workers, within [MinUnit, MaxUnit] (guided self-scheduling). The first
// units are large, so that there are few; the last are small, so that the
// workers finish together instead of one waiting for another's last large
// unit.
func UnitSizes(n, workers int) []int {
	var sizes []int
	share := 2 * max(workers, 1)
	for left := n; left > 0; {
		k := min(left, max(MinUnit, min(MaxUnit, (left+share-1)/share)))
		sizes = append(sizes, k)
		left -= k
	}
	return sizes
}

// sizes returns the games of each unit for n games.
func (r *Remote) sizes(n int) []int {
	if r.Batch > 0 {
		var out []int
		for left := n; left > 0; left -= r.Batch {
			out = append(out, min(left, r.Batch))
		}
		return out
	}
	workers := 2
	if c, ok := r.Runner.(Slotter); ok {
		workers = max(c.Slots(), 1)
	}
	return UnitSizes(n, workers)
}

// describe returns the plain-data form of every member of cast, or false
// when one is not an eval.Describer.
func describe(cast []eval.Factory) ([]workunit.Evaluator, bool) {
	out := make([]workunit.Evaluator, len(cast))
	for i, f := range cast {
		d, ok := f().(eval.Describer)
		if !ok {
			return nil, false
		}
		kind, sel, data := d.Describe()
		out[i] = workunit.Evaluator{Kind: kind, Selector: sel, Data: data}
	}
	return out, true
}

// Units returns the games as units of the given sizes (which sum to
// len(games)), each unit's cast holding only the members its games name.
func Units(rules evolve.Rules, cast []workunit.Evaluator, games []evolve.Game, sizes []int) []*workunit.Unit {
	var units []*workunit.Unit
	lo := 0
	for _, k := range sizes {
		u := &workunit.Unit{Version: workunit.Version, Rules: ToUnitRules(rules)}
		index := map[int]int{}
		member := func(i int) int {
			if j, ok := index[i]; ok {
				return j
			}
			index[i] = len(u.Cast)
			u.Cast = append(u.Cast, cast[i])
			return index[i]
		}
		for _, g := range games[lo : lo+k] {
			start := g.Start
			u.Games = append(u.Games, workunit.Game{Black: member(g.Black), White: member(g.White), Start: start.FEN(), Seed: g.Seed})
		}
		units = append(units, u)
		lo += k
	}
	return units
}

// outcome reads a PDN result token.
func outcome(token string) (engine.Outcome, error) {
	if o := engine.OutcomeOfPDN(token); o != engine.Ongoing {
		return o, nil
	}
	return engine.Ongoing, fmt.Errorf("result %q is not a finished game's", token)
}

// Play plays the games through the runner, or returns false when the cast
// cannot travel.
func (r *Remote) Play(ctx context.Context, rules evolve.Rules, cast []eval.Factory, games []evolve.Game, out []evolve.Result) (bool, error) {
	described, ok := describe(cast)
	if !ok {
		if r.Log != nil {
			r.logged.Do(func() {
				r.Log("an evaluator of this run's games cannot travel in a work unit (it does not describe itself as data): those games are played here")
			})
		}
		return false, nil
	}
	units := Units(rules, described, games, r.sizes(len(games)))
	results, err := r.Runner.Run(ctx, units)
	if err != nil {
		return true, err
	}
	k := 0
	for _, res := range results {
		for _, g := range res.Games {
			o, err := outcome(g.Outcome)
			if err != nil {
				return true, err
			}
			out[k] = evolve.Result{Outcome: o, Plies: g.Plies, Pieces: g.Pieces}
			k++
		}
	}
	return true, nil
}

// Local is a Runner that plays units in process on an Executor, workers
// at once, checking every result as a coordinator does: the reference the
// fleet's results must equal.
type Local struct {
	Exec    *Executor
	Workers int
}

// Slots returns the number of units played at once.
func (l *Local) Slots() int { return max(l.Workers, 1) }

// Run plays the units.
func (l *Local) Run(ctx context.Context, units []*workunit.Unit) ([]*workunit.Result, error) {
	out := make([]*workunit.Result, len(units))
	errs := make([]error, len(units))
	var wg sync.WaitGroup
	next := make(chan int)
	for range max(l.Workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i], errs[i] = l.Exec.Execute(ctx, units[i])
				if errs[i] == nil {
					errs[i] = workunit.Validate(units[i], out[i])
				}
			}
		}()
	}
	for i := range units {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}
