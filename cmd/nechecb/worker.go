package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	"github.com/nechecb/nechecb/internal/fleet"
	"github.com/nechecb/nechecb/internal/workunit"
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
	var units, games atomic.Int64
	err = fleet.Worker(ctx, nc, fleet.WorkerOptions{Name: *name, Concurrency: *concurrency, Execute: x.Execute, Log: log,
		Played: func(u *workunit.Unit) { units.Add(1); games.Add(int64(len(u.Games))) }})
	if err != nil {
		return fail(err)
	}
	fmt.Fprintf(stderr, "nechecb worker: stopped after %d units (%d games)\n", units.Load(), games.Load())
	return 0
}
