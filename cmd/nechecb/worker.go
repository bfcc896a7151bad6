package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"sync/atomic"
	"syscall"

	"github.com/nechecb/nechecb/internal/fleet"
	"github.com/nechecb/nechecb/internal/workunit"
	"github.com/nechecb/nechecb/match"
	"github.com/nechecb/nechecb/train/unitplay"
)

func init() {
	register(&command{name: "worker", summary: "play work units from a NATS server (evolve/datagen --nats) until stopped",
		run: func(args []string) int { return workerCommand(args, os.Stdout, os.Stderr) }})
}

func workerCommand(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fail := func(err error) int {
		fmt.Fprintf(stderr, "nechecb worker: %v\n", err)
		return exitStatus(err)
	}
	fs := flag.NewFlagSet("worker", flag.ContinueOnError)
	var nf natsFlags
	nf.bind(fs, false)
	concurrency := fs.Int("concurrency", 1, "units played at once (one CPU core each)")
	name := fs.String("name", "", "the worker's name in results and logs (default host-pid)")
	verbose := fs.Bool("verbose", false, "log every unit as it starts and ends")
	header := "usage: nechecb worker --nats URL [--concurrency N] [--name NAME] [credentials and TLS flags]\n\n" +
		"Pulls work units from the NATS server, plays them and publishes their results, until\n" +
		"interrupted (SIGINT or SIGTERM: the units in play go back to the queue). It waits for a\n" +
		"server that is not up yet and reconnects after one restarts.\n\nflags:\n"
	if status, ok := parseFlags(fs, args, header, stdout, stderr); !ok {
		return status
	}
	if nf.url == "" {
		return fail(badInput(errors.New("--nats is required")))
	}
	if *concurrency < 1 {
		return fail(badInput(errors.New("--concurrency must be at least 1")))
	}
	log := func(s string) { fmt.Fprintln(stderr, "nechecb worker: "+s) }
	nc, err := fleet.Connect(nf.connectOptions(nf.url, "nechecb worker", log))
	if err != nil {
		return fail(badInput(err))
	}
	defer nc.Close()
	x, err := unitplay.NewExecutor()
	if err != nil {
		return fail(err)
	}
	defer x.Close()
	self, err := os.Executable()
	if err != nil {
		return fail(err)
	}
	dir, err := os.MkdirTemp("", "nechecb-worker-match-")
	if err != nil {
		return fail(err)
	}
	defer os.RemoveAll(dir)
	matches := match.NewUnitPlayer(self, dir)
	defer matches.Close()
	var units, games atomic.Int64
	execute := func(ctx context.Context, u *workunit.Unit) (*workunit.Result, error) {
		if u.Kind == workunit.KindMatch {
			return matches.Execute(ctx, u)
		}
		return x.Execute(ctx, u)
	}
	if n, err := strconv.Atoi(os.Getenv(stallEnv)); err == nil && n > 0 {
		execute = stallAt(n, execute)
	}
	opts := fleet.WorkerOptions{Name: *name, Concurrency: *concurrency, Execute: execute, Log: log,
		Played: func(u *workunit.Unit) {
			units.Add(1)
			games.Add(int64(len(u.Games)))
			if *verbose {
				log(fmt.Sprintf("unit %s: done", u.ID))
			}
		}}
	if *verbose {
		opts.Playing = func(u *workunit.Unit) { log(fmt.Sprintf("unit %s: playing %d games", u.ID, len(u.Games))) }
	}
	err = fleet.Worker(ctx, nc, opts)
	if err != nil {
		return fail(err)
	}
	fmt.Fprintf(stderr, "nechecb worker: stopped after %d units (%d games)\n", units.Load(), games.Load())
	return 0
}

// stallEnv names the test hook that makes a worker hang, as a machine that
// dies mid-game does: with it set to N, the worker's Nth unit never ends
// (until the worker is stopped), so that a test can kill the worker while
// it holds a unit.
const stallEnv = "NECHECB_TEST_WORKER_STALL"

// stallAt returns execute, except that the nth call blocks until its
// context ends.
func stallAt(n int, execute fleet.Execute) fleet.Execute {
	var calls atomic.Int64
	return func(ctx context.Context, u *workunit.Unit) (*workunit.Result, error) {
		if calls.Add(1) == int64(n) {
			<-ctx.Done()
			return nil, ctx.Err()
		}
		return execute(ctx, u)
	}
}
