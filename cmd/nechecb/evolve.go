package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/nechecb/nechecb/eval"
	_ "github.com/nechecb/nechecb/eval/all" // every evaluator kind for --curve-vs
	"github.com/nechecb/nechecb/internal/elo"
	"github.com/nechecb/nechecb/train/evolve"
	"github.com/nechecb/nechecb/train/unitplay"
)

func init() {
	register(&command{name: "evolve", summary: "evolve an evaluator from zero: neche genomes, Blondie24 nets or the seed CNN", subs: []*command{
		{name: "blondie", summary: "evolve Blondie24 networks, 1999 or 2001 (blondie24 v1 files)", run: func(args []string) int {
			return evolveCommand(blondieKind(), args, os.Stdout, os.Stderr)
		}},
		{name: "cnn", summary: "evolve the seed CNN (one CSV per generation, rows GenG_IIII)", run: func(args []string) int {
			return evolveCommand(cnnKind(), args, os.Stdout, os.Stderr)
		}},
		{name: "neche", summary: "evolve neche genomes (best_networks.txt, nechedbg/N_nets.txt)", run: func(args []string) int {
			return evolveCommand(necheKind(), args, os.Stdout, os.Stderr)
		}},
	}})
}

// evolveKind is what the evolve command needs to know of one learner: its
// settings type C, their defaults in each mode, its flags, and how to make
// the learner of a run folder.
type evolveKind[C any] struct {
	name string
	// defaults returns the settings of a mode.
	defaults func(mode string) C
	// bind registers the learner's own flags on fs, bound to c; faithful
	// and improved are both modes' defaults, for the help text.
	bind func(fs *flag.FlagSet, c *C, faithful, improved C)
	// seedMode returns the settings' seed and mode.
	seedMode func(c *C) (*uint64, *string)
	// learner makes the learner of a run folder.
	learner func(dir string, c C) (evolve.Learner, error)
}

// modes writes both modes' defaults when they differ, for a flag's help.
func modes[T comparable](faithful, improved T) string {
	if faithful == improved {
		return ""
	}
	return fmt.Sprintf(" (faithful %v, improved %v)", faithful, improved)
}

// bindMoverView binds --mover-view, which every learner that searches has.
func bindMoverView(fs *flag.FlagSet, v *bool, faithful, improved bool) {
	fs.BoolVar(v, "mover-view", *v, "judge the search's leaves from the side to move instead of the root player's side; play the results with the engine option MoverView=true"+modes(faithful, improved))
}

// flagMode finds the --mode value in args before the flags are parsed, so
// that every other flag takes that mode's default.
func flagMode(args []string) string {
	for i, a := range args {
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "mode" {
			continue
		}
		if hasValue {
			return value
		}
		if i+1 < len(args) {
			return args[i+1]
		}
	}
	return "faithful"
}

// evolveFlags are the flags every learner shares.
type evolveFlags struct {
	dir                       string
	generations, workers      int
	resume, bench             bool
	curveEvery, curveOpenings int
	curveVs                   specList
	plot                      string
	nats                      natsFlags
}

// specList is a repeatable flag of evaluator specs.
type specList []string

func (l *specList) String() string { return strings.Join(*l, ", ") }

// Set adds a spec.
func (l *specList) Set(s string) error {
	*l = append(*l, s)
	return nil
}

// runFlags are the shared flags that do not shape the population, so that
// a resumed run may change them.
var runFlags = map[string]bool{"dir": true, "generations": true, "workers": true, "resume": true, "bench": true,
	"curve-every": true, "curve-openings": true, "curve-vs": true, "plot": true}

func init() {
	for _, name := range natsFlagNames {
		runFlags[name] = true
	}
}

func evolveCommand[C any](k evolveKind[C], args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	prog := "evolve " + k.name
	fail := func(err error) int {
		fmt.Fprintf(stderr, "nechecb %s: %v\n", prog, err)
		return exitStatus(err)
	}
	mode := flagMode(args)
	if mode != "faithful" && mode != "improved" {
		return fail(badInput(fmt.Errorf("--mode %q: want faithful or improved", mode)))
	}
	cfg := k.defaults(mode)
	fs, ef := evolveFlagSet(k, prog, &cfg)
	header := fmt.Sprintf("usage: nechecb %s --dir RUN [--generations N] [--seed S] [--workers W] [--mode faithful|improved]\n"+
		"         [--resume] [--curve-every K] [--curve-openings N] [--plot FILE] [--bench] [--nats URL|embedded] [learner flags]\n\n"+
		"Defaults are those of the mode given (faithful unless --mode says otherwise).\n\nflags:\n", prog)
	if status, ok := parseFlags(fs, args, header, stdout, stderr); !ok {
		return status
	}
	if ef.generations < 0 || ef.curveEvery < 0 || ef.curveOpenings < 0 {
		return fail(badInput(errors.New("--generations, --curve-every and --curve-openings may not be negative")))
	}
	if err := ef.nats.check(); err != nil {
		return fail(err)
	}
	if ef.bench {
		gens := 1 // one generation is enough to time, unless --generations says
		fs.Visit(func(f *flag.Flag) {
			if f.Name == "generations" {
				gens = max(ef.generations, 1)
			}
		})
		if ef.nats.url != "" {
			return evolveFleetBench(ctx, k, cfg, gens, ef.workers, &ef.nats, stdout, stderr, fail)
		}
		return evolveBench(ctx, k, cfg, gens, ef.workers, stdout, fail)
	}
	if ef.dir == "" {
		return fail(badInput(errors.New("--dir is required")))
	}
	if ef.resume {
		stored, err := resumeSettings(k, prog, ef.dir, fs)
		if err != nil {
			return fail(err)
		}
		cfg = stored
	}
	if err := evolve.Prepare(ef.dir, ef.resume, cfg); err != nil {
		return fail(err)
	}
	l, err := k.learner(ef.dir, cfg)
	if err != nil {
		return fail(err)
	}
	var extra []evolve.Opponent
	for _, spec := range ef.curveVs {
		f, err := eval.Load(spec)
		if err != nil {
			return fail(badInput(fmt.Errorf("--curve-vs: %w", err)))
		}
		if ef.nats.url != "" {
			// On a fleet the opponent travels as its spec's data.
			desc, err := unitplay.SpecEvaluator(spec)
			if err != nil {
				return fail(badInput(fmt.Errorf("--curve-vs: %w", err)))
			}
			f = unitplay.Described(f, desc)
		}
		extra = append(extra, evolve.Opponent{Name: spec, Eval: f})
	}
	seed, _ := k.seedMode(&cfg)
	run := evolve.Config{Extra: extra, Dir: ef.dir, Generations: ef.generations, Seed: *seed, Workers: ef.workers,
		CurveEvery: ef.curveEvery, CurveOpenings: ef.curveOpenings, Plot: ef.plot,
		Title:    fmt.Sprintf("nechecb evolve %s (%s): best of each generation", k.name, mode),
		Progress: func(p evolve.Progress) { fmt.Fprintln(stdout, progressLine(p)) }}
	if ef.nats.url != "" {
		f, err := ef.nats.startCoordinator(ctx, ef.dir, stderr)
		if err != nil {
			return fail(err)
		}
		defer f.Close()
		run.Remote = f.remote
	}
	err = evolve.Run(ctx, l, run)
	if errors.Is(err, context.Canceled) {
		return fail(fmt.Errorf("interrupted; the complete generations are kept, --resume goes on"))
	}
	if err != nil {
		return fail(err)
	}
	return 0
}

// evolveFlagSet registers the shared flags and the learner's on a new
// flag set bound to cfg.
func evolveFlagSet[C any](k evolveKind[C], prog string, cfg *C) (*flag.FlagSet, *evolveFlags) {
	fs := flag.NewFlagSet(prog, flag.ContinueOnError)
	ef := &evolveFlags{}
	fs.StringVar(&ef.dir, "dir", "", "run folder: created if missing; must be empty unless --resume (required)")
	fs.IntVar(&ef.generations, "generations", 10, "stop when this many generations are complete (a resumed run counts the earlier ones)")
	fs.IntVar(&ef.workers, "workers", 2, "games played at once; the results do not depend on it")
	fs.BoolVar(&ef.resume, "resume", false, "go on with the run in --dir from its last complete generation (flags that shape the population must agree with the run's)")
	fs.BoolVar(&ef.bench, "bench", false, "time --generations generations in a temporary folder with 1 worker and with --workers, and print the rates")
	fs.IntVar(&ef.curveEvery, "curve-every", 10, "play the current best against G1, the heuristic and generation 0's best every K generations (0: never)")
	fs.IntVar(&ef.curveOpenings, "curve-openings", 0, "standard 3-move ballots per curve measurement, each with both colours (0: all 157)")
	fs.Var(&ef.curveVs, "curve-vs", "an evaluator spec that joins the curve's opponents, named by its spec (repeatable)")
	fs.StringVar(&ef.plot, "plot", "", "write the curve as an SVG chart to this file after every measurement (e.g. RUN/curve.svg)")
	ef.nats.bind(fs, true)
	seed, mode := k.seedMode(cfg)
	fs.Uint64Var(seed, "seed", *seed, "random seed: one seed reproduces the run whatever --workers")
	fs.StringVar(mode, "mode", *mode, "faithful (the seed's method) or improved")
	k.bind(fs, cfg, k.defaults("faithful"), k.defaults("improved"))
	return fs, ef
}

// resumeSettings returns the settings of the run in dir with the
// population-shaping flags given on the command line applied on top; if
// they change anything, Prepare refuses the resumed run.
func resumeSettings[C any](k evolveKind[C], prog, dir string, given *flag.FlagSet) (C, error) {
	var stored C
	if err := evolve.ReadSettings(dir, &stored); err != nil {
		return stored, err
	}
	fs, _ := evolveFlagSet(k, prog, &stored)
	var err error
	given.Visit(func(f *flag.Flag) {
		if runFlags[f.Name] || err != nil {
			return
		}
		if e := fs.Set(f.Name, f.Value.String()); e != nil {
			err = badInput(fmt.Errorf("--%s: %w", f.Name, e))
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

// evolveBench times generations with 1 worker and with --workers.
func evolveBench[C any](ctx context.Context, k evolveKind[C], cfg C, gens, w int, stdout io.Writer, fail func(error) int) int {
	workers := []int{1}
	if w > 1 {
		workers = append(workers, w)
	}
	rows, err := evolve.Bench(ctx, func(dir string) (evolve.Learner, error) {
		if err := evolve.Prepare(dir, false, cfg); err != nil {
			return nil, err
		}
		return k.learner(dir, cfg)
	}, gens, workers)
	if err != nil {
		return fail(err)
	}
	for _, r := range rows {
		fmt.Fprintf(stdout, "%s: %d worker(s), %d generation(s), %d games, %.2f s a generation, %.1f games/s",
			k.name, r.Workers, r.Generations, r.Games, r.PerGeneration().Seconds(), r.GamesPerSec())
		if r.CPU > 0 {
			fmt.Fprintf(stdout, ", CPU %.2f s a generation", r.CPU.Seconds()/float64(max(r.Generations, 1)))
		}
		fmt.Fprintln(stdout)
	}
	if len(rows) == 2 {
		fmt.Fprintf(stdout, "%s: %d workers play %.2fx the games per second of 1\n", k.name, rows[1].Workers, rows[1].GamesPerSec()/rows[0].GamesPerSec())
	}
	return 0
}
