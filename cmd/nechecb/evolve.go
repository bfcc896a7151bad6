package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"

	_ "github.com/nechecb/nechecb/eval/all" // every evaluator kind for --curve-vs
	"github.com/nechecb/nechecb/internal/cli"
	"github.com/nechecb/nechecb/internal/evolverun"
	"github.com/nechecb/nechecb/internal/player"
	"github.com/nechecb/nechecb/train/evolve"
)

func init() {
	register(&command{name: "evolve", summary: "evolve an evaluator from zero: neche genomes, Blondie24 nets or the seed CNN", subs: []*command{
		{name: "blondie", summary: "evolve Blondie24 networks, 1999 or 2001 (blondie24 v1 files)", run: evolveRun(blondieKind)},
		{name: "cnn", summary: "evolve the seed CNN (one CSV per generation, rows GenG_IIII)", run: evolveRun(cnnKind)},
		{name: "neche", summary: "evolve neche genomes (best_networks.txt, nechedbg/N_nets.txt)", run: evolveRun(necheKind)},
	}})
}

// evolveRun returns the run function of nechecb evolve with the learner
// kind makes.
func evolveRun[C any](kind func() evolveKind[C]) func(args []string) int {
	return func(args []string) int { return evolveCommand(kind(), args, os.Stdout, os.Stderr) }
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

// bindSearch binds --mover-view and --search, which every learner that
// searches has, with each mode's defaults.
func bindSearch(fs *flag.FlagSet, view *bool, profile *player.Profile, faithfulView, improvedView bool, faithful, improved player.Profile) {
	fs.BoolVar(view, "mover-view", *view, "judge the search's leaves from the side to move instead of the root player's side; play the results with the engine option MoverView=true"+cli.Modes(faithfulView, improvedView))
	fs.Var(profile, "search", "search profile: plain (the seeds' full-width alpha-beta) or play (timed play's search, every selective feature)"+cli.Modes(faithful, improved))
}

// evolveCommand runs nechecb evolve with learner k and returns the exit
// status.
func evolveCommand[C any](k evolveKind[C], args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	prog := "evolve " + k.name
	mode := cli.FlagValue(args, "mode", "faithful")
	if err := evolverun.CheckMode(mode); err != nil {
		return cli.Status(stderr, prog, err)
	}
	j := evolverun.Job[C]{Name: k.name, Mode: mode, Settings: k.defaults(mode), Learner: k.learner, Stdout: stdout, Stderr: stderr}
	var bench bool
	fs := evolveFlagSet(k, prog, &j.Settings, &j, &bench)
	header := fmt.Sprintf("usage: nechecb %s --dir RUN [--generations N] [--seed S] [--workers W] [--mode faithful|improved]\n"+
		"         [--resume] [--curve-every K] [--curve-openings N] [--plot FILE] [--bench] [--nats URL|embedded] [learner flags]\n\n"+
		"Defaults are those of the mode given (faithful unless --mode says otherwise).\n\nflags:\n", prog)
	if status, ok := parseFlags(fs, args, header, stdout, stderr); !ok {
		return status
	}
	flagsFor := func(c *C) *flag.FlagSet { return evolveFlagSet(k, prog, c, &evolverun.Job[C]{}, new(bool)) }
	seed := func(c *C) uint64 { s, _ := k.seedMode(c); return *s }
	return cli.Status(stderr, prog, evolverun.Start(ctx, j, fs, bench, flagsFor, seed))
}

// evolveFlagSet registers the shared flags, bound to j and bench, and the
// learner's, bound to cfg, on a new flag set.
func evolveFlagSet[C any](k evolveKind[C], prog string, cfg *C, j *evolverun.Job[C], bench *bool) *flag.FlagSet {
	fs := flag.NewFlagSet(prog, flag.ContinueOnError)
	fs.StringVar(&j.Dir, "dir", "", "run folder: created if missing; must be empty unless --resume (required)")
	fs.IntVar(&j.Generations, "generations", 10, "stop when this many generations are complete (a resumed run counts the earlier ones)")
	fs.IntVar(&j.Workers, "workers", 2, "games played at once; the results do not depend on it")
	fs.BoolVar(&j.Resume, "resume", false, "go on with the run in --dir from its last complete generation (flags that shape the population must agree with the run's)")
	fs.BoolVar(bench, "bench", false, "time --generations generations in a temporary folder with 1 worker and with --workers, and print the rates")
	fs.IntVar(&j.CurveEvery, "curve-every", 10, "play the current best against G1, the heuristic and generation 0's best every K generations (0: never)")
	fs.IntVar(&j.CurveOpenings, "curve-openings", 0, "standard 3-move ballots per curve measurement, each with both colours (0: all 157)")
	fs.Var((*cli.Repeated)(&j.CurveVs), "curve-vs", "an evaluator spec that joins the curve's opponents, named by its spec (repeatable)")
	fs.StringVar(&j.Plot, "plot", "", "write the curve as an SVG chart to this file after every measurement (e.g. RUN/curve.svg)")
	bindNATS(fs, &j.Fleet, true)
	seed, mode := k.seedMode(cfg)
	fs.Uint64Var(seed, "seed", *seed, "random seed: one seed reproduces the run whatever --workers")
	fs.StringVar(mode, "mode", *mode, "faithful (the seed's method) or improved")
	k.bind(fs, cfg, k.defaults("faithful"), k.defaults("improved"))
	return fs
}
