package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"

	"github.com/nechecb/nechecb/engine/egdb"
	"github.com/nechecb/nechecb/internal/cli"
)

func init() {
	register(&command{name: "egdb", summary: "endgame databases: build, probe, verify, stats (--dir)", subs: egdbCommands(os.Stdout, os.Stderr)})
}

// egdbCommands are the subcommands of nechecb egdb, writing to stdout and
// stderr.
func egdbCommands(stdout, stderr io.Writer) []*command {
	return []*command{
		{name: "build", summary: "build the databases up to --pieces into --dir", run: func(args []string) int { return egdbBuild(args, stdout, stderr) }},
		{name: "probe", summary: "look up --fen and each of its moves", run: func(args []string) int { return egdbProbe(args, stdout, stderr) }},
		{name: "stats", summary: "count the positions of every table", run: func(args []string) int { return egdbStats(args, stdout, stderr) }},
		{name: "verify", summary: "check every file's checksums and every position's value", run: func(args []string) int { return egdbVerify(args, stdout, stderr) }},
	}
}

// egdbCommand runs nechecb egdb with args; it returns the exit status: 2
// for bad usage or input, 1 when the work itself fails.
func egdbCommand(args []string, stdout, stderr io.Writer) int {
	return cli.Dispatch("egdb", "", cliCommands(egdbCommands(stdout, stderr)), args, stdout, stderr)
}

func egdbBuild(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("egdb build", flag.ContinueOnError)
	var o egdb.BuildOptions
	fs.IntVar(&o.Pieces, "pieces", 6, "largest number of pieces")
	fs.StringVar(&o.Dir, "dir", "", "directory for the slice files (required)")
	fs.IntVar(&o.Threads, "threads", runtime.NumCPU(), "goroutines to share the work")
	fs.IntVar(&o.MemoryMB, "memory", egdb.DefaultMemoryMB, "memory budget in MB for the tables held for lookups")
	fs.BoolVar(&o.Resume, "resume", false, "keep the slice files already in --dir and build the rest")
	every := fs.Duration("progress", 0, "how often to report progress on stderr (default: every second on a terminal, every 30s otherwise; negative: never)")
	if status, ok := parseFlags(fs, args, "", stdout, stderr); !ok {
		return status
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	status := cli.Status(stderr, "egdb build", egdb.BuildReporting(ctx, o, *every, stdout, stderr))
	if status == 1 && ctx.Err() != nil {
		fmt.Fprintf(stderr, "nechecb egdb build: the slices written so far are kept; go on with --resume\n")
	}
	return status
}

func egdbProbe(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("egdb probe", flag.ContinueOnError)
	dir := fs.String("dir", "", "database directory (required)")
	fen := fs.String("fen", "", "position to look up (required)")
	cache := fs.Int("cache", 16, "block cache in MB")
	if status, ok := parseFlags(fs, args, "", stdout, stderr); !ok {
		return status
	}
	return cli.Status(stderr, "egdb probe", egdb.ProbeDir(*dir, *fen, *cache, stdout, stderr, "nechecb egdb probe"))
}

func egdbVerify(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("egdb verify", flag.ContinueOnError)
	dir := fs.String("dir", "", "database directory (required)")
	threads := fs.Int("threads", runtime.NumCPU(), "goroutines to share the work")
	cache := fs.Int("cache", 256, "block cache in MB")
	if status, ok := parseFlags(fs, args, "", stdout, stderr); !ok {
		return status
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	passed, err := egdb.VerifyDir(ctx, *dir, *threads, *cache, stdout, stderr, "nechecb egdb verify")
	if status := cli.Status(stderr, "egdb verify", err); status != 0 || passed {
		return status
	}
	return 1
}

func egdbStats(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("egdb stats", flag.ContinueOnError)
	dir := fs.String("dir", "", "database directory (required)")
	if status, ok := parseFlags(fs, args, "", stdout, stderr); !ok {
		return status
	}
	return cli.Status(stderr, "egdb stats", egdb.StatsDir(*dir, stdout, stderr, "nechecb egdb stats"))
}
