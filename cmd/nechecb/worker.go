package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/nechecb/nechecb/internal/cli"
	"github.com/nechecb/nechecb/internal/fleetrun"
)

func init() {
	register(&command{name: "worker", summary: "play work units from a NATS server (evolve/datagen --nats) until stopped",
		run: func(args []string) int { return workerCommand(args, os.Stdout, os.Stderr) }})
}

const workerUsage = "usage: nechecb worker --nats URL [--concurrency N] [--name NAME] [--db DIR] [credentials and TLS flags]\n\n" +
	"Pulls work units from the NATS server, plays them and publishes their results, until\n" +
	"interrupted (SIGINT or SIGTERM: the units in play go back to the queue). It waits for a\n" +
	"server that is not up yet and reconnects after one restarts.\n\nflags:\n"

func workerCommand(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	fs := flag.NewFlagSet("worker", flag.ContinueOnError)
	var nf fleetrun.Settings
	bindNATS(fs, &nf, false)
	w := fleetrun.WorkerConfig{Log: func(s string) { fmt.Fprintln(stderr, "nechecb worker: "+s) }}
	fs.IntVar(&w.Concurrency, "concurrency", 1, "units played at once (one CPU core each)")
	fs.StringVar(&w.Name, "name", "", "the worker's name in results and logs (default host-pid)")
	fs.BoolVar(&w.Verbose, "verbose", false, "log every unit as it starts and ends")
	fs.StringVar(&w.DB, "db", "", "endgame database folder for datagen runs with more pieces than the built-in database")
	if status, ok := parseFlags(fs, args, workerUsage, stdout, stderr); !ok {
		return status
	}
	return cli.Status(stderr, "worker", fleetrun.Work(ctx, nf, w))
}
