// Package evolverun runs `nechecb evolve` once its flags are parsed: it
// prepares or resumes the run folder, loads the curve's extra opponents,
// hands the games to a fleet when one is named and prints a line a
// generation; it also times generations in process (Bench) and against the
// fleet (the fleet benchmark). It works for every learner of train/evolve
// through the learner's settings type C.
package evolverun

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/internal/badinput"
	"github.com/nechecb/nechecb/internal/elo"
	"github.com/nechecb/nechecb/internal/fleetrun"
	"github.com/nechecb/nechecb/train/evolve"
	"github.com/nechecb/nechecb/train/unitplay"
)

// Job is one evolution run with its learner's settings C.
type Job[C any] struct {
	// Name is the learner's (neche, blondie, cnn) in lines and titles;
	// Mode is the settings' mode (faithful or improved).
	Name, Mode string
	// Settings are the learner's; Seed is their random seed.
	Settings C
	Seed     uint64
	// Learner makes the learner of a run folder.
	Learner func(dir string, c C) (evolve.Learner, error)
	// Dir is the run folder; Resume goes on with the run there.
	Dir    string
	Resume bool
	// Generations, Workers, CurveEvery, CurveOpenings and Plot are
	// evolve.Config's.
	Generations, Workers, CurveEvery, CurveOpenings int
	Plot                                            string
	// CurveVs are evaluator specs that join the curve's opponents.
	CurveVs []string
	// Fleet plays the games on workers when its URL is set.
	Fleet fleetrun.Settings
	// Stdout receives the progress and benchmark lines, Stderr the
	// fleet's.
	Stdout, Stderr io.Writer
}

// check refuses settings no run could take.
func (j *Job[C]) check() error {
	if j.Generations < 0 || j.CurveEvery < 0 || j.CurveOpenings < 0 {
		return badinput.Mark(errors.New("--generations, --curve-every and --curve-openings may not be negative"))
	}
	return j.Fleet.Check()
}

// Run prepares the run folder (or checks it against the settings when
// resuming) and evolves until Generations are complete or ctx ends.
func Run[C any](ctx context.Context, j Job[C]) error {
	if err := j.check(); err != nil {
		return err
	}
	if j.Dir == "" {
		return badinput.Mark(errors.New("--dir is required"))
	}
	if err := evolve.Prepare(j.Dir, j.Resume, j.Settings); err != nil {
		return err
	}
	l, err := j.Learner(j.Dir, j.Settings)
	if err != nil {
		return err
	}
	extra, err := j.opponents()
	if err != nil {
		return err
	}
	run := evolve.Config{Extra: extra, Dir: j.Dir, Generations: j.Generations, Seed: j.Seed, Workers: j.Workers,
		CurveEvery: j.CurveEvery, CurveOpenings: j.CurveOpenings, Plot: j.Plot,
		Title:    fmt.Sprintf("nechecb evolve %s (%s): best of each generation", j.Name, j.Mode),
		Progress: func(p evolve.Progress) { fmt.Fprintln(j.Stdout, progressLine(p)) }}
	if j.Fleet.URL != "" {
		f, err := fleetrun.Start(ctx, j.Fleet, j.Dir, j.Stderr)
		if err != nil {
			return err
		}
		defer f.Close()
		run.Remote = f.Remote
	}
	err = evolve.Run(ctx, l, run)
	if errors.Is(err, context.Canceled) {
		return errors.New("interrupted; the complete generations are kept, --resume goes on")
	}
	return err
}

// opponents loads the CurveVs evaluators; on a fleet each travels as its
// spec's data.
func (j *Job[C]) opponents() ([]evolve.Opponent, error) {
	var extra []evolve.Opponent
	for _, spec := range j.CurveVs {
		f, err := eval.Load(spec)
		if err != nil {
			return nil, badinput.Mark(fmt.Errorf("--curve-vs: %w", err))
		}
		if j.Fleet.URL != "" {
			desc, err := unitplay.SpecEvaluator(spec)
			if err != nil {
				return nil, badinput.Mark(fmt.Errorf("--curve-vs: %w", err))
			}
			f = unitplay.Described(f, desc)
		}
		extra = append(extra, evolve.Opponent{Name: spec, Eval: f})
	}
	return extra, nil
}

// MergeResume returns the settings stored in the run folder dir with the
// flags given on the command line applied on top, except those for which
// runFlag is true (the flags that do not shape the population, which a
// resumed run may change). flagsFor registers the learner's flags bound to
// a settings value. If a flag changes anything, Prepare refuses the
// resumed run.
func MergeResume[C any](dir string, given *flag.FlagSet, flagsFor func(*C) *flag.FlagSet, runFlag func(name string) bool) (C, error) {
	var stored C
	if err := evolve.ReadSettings(dir, &stored); err != nil {
		return stored, err
	}
	fs := flagsFor(&stored)
	var err error
	given.Visit(func(f *flag.Flag) {
		if runFlag(f.Name) || err != nil {
			return
		}
		if e := fs.Set(f.Name, f.Value.String()); e != nil {
			err = badinput.Mark(fmt.Errorf("--%s: %w", f.Name, e))
		}
	})
	return stored, err
}

// progressLine writes one generation's report.
func progressLine(p evolve.Progress) string {
	var b strings.Builder
	fmt.Fprintf(&b, "gen %d: %d games, %.1f games/s, %.1f s; fitness best %.3g mean %.3g", p.Gen, p.Games, p.GamesPerSec,
		p.Elapsed.Seconds(), p.Best, p.Mean)
	if len(p.Curve) > 0 {
		fmt.Fprintf(&b, "; curve at gen %d:", p.Curve[0].Gen)
		for _, r := range p.Curve {
			fmt.Fprintf(&b, " %s %s %s (%s)", r.Opponent, elo.FormatElo(r.Elo), elo.FormatInterval(r.Lo, r.Hi), r.Tally)
		}
	}
	return b.String()
}
