package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/egdb"
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
	return dispatch("egdb", egdbCommands(stdout, stderr), args, stdout, stderr)
}

func egdbBuild(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("egdb build", flag.ContinueOnError)
	pieces := fs.Int("pieces", 6, "largest number of pieces")
	dir := fs.String("dir", "", "directory for the slice files (required)")
	threads := fs.Int("threads", runtime.NumCPU(), "goroutines to share the work")
	memory := fs.Int("memory", egdb.DefaultMemoryMB, "memory budget in MB for the tables held for lookups")
	resume := fs.Bool("resume", false, "keep the slice files already in --dir and build the rest")
	every := fs.Duration("progress", 0, "how often to report progress on stderr (default: every second on a terminal, every 30s otherwise; negative: never)")
	if status, ok := parseFlags(fs, args, "", stdout, stderr); !ok {
		return status
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "nechecb egdb build: "+format+"\n", a...)
		return 2
	}
	switch {
	case *dir == "":
		return fail("--dir is required")
	case *pieces < 2 || *pieces > egdb.MaxPieces:
		return fail("--pieces %d is outside 2..%d", *pieces, egdb.MaxPieces)
	case *threads < 1 || *threads > 1024:
		return fail("--threads %d is outside 1..1024", *threads)
	case *memory < 16:
		return fail("--memory %d is below 16 MB", *memory)
	}
	if existing, _ := filepath.Glob(filepath.Join(*dir, "*"+egdb.FileExt)); len(existing) > 0 && !*resume {
		return fail("%s already holds slice files: go on with --resume, or choose an empty directory", *dir)
	}
	o := egdb.BuildOptions{Dir: *dir, Pieces: *pieces, Threads: *threads, MemoryMB: *memory, Resume: *resume}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if err := egdb.BuildReporting(ctx, o, *every, stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "nechecb egdb build: %v\n", err)
		if ctx.Err() != nil {
			fmt.Fprintf(stderr, "nechecb egdb build: the slices written so far are kept; go on with --resume\n")
		}
		return 1
	}
	return 0
}

// openDB opens the database for probe, verify and stats, printing its
// problems on stderr.
func openDB(name, dir string, cacheMB int, stderr io.Writer) (*egdb.DB, int) {
	if dir == "" {
		fmt.Fprintf(stderr, "nechecb %s: --dir is required\n", name)
		return nil, 2
	}
	if cacheMB < 1 {
		fmt.Fprintf(stderr, "nechecb %s: --cache %d is below 1 MB\n", name, cacheMB)
		return nil, 2
	}
	db, err := egdb.Open(dir, cacheMB)
	if err != nil {
		fmt.Fprintf(stderr, "nechecb %s: %v\n", name, err)
		return nil, 2
	}
	for _, p := range db.Problems() {
		fmt.Fprintf(stderr, "nechecb %s: %v\n", name, p)
	}
	return db, 0
}

func egdbProbe(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("egdb probe", flag.ContinueOnError)
	dir := fs.String("dir", "", "database directory (required)")
	fen := fs.String("fen", "", "position to look up (required)")
	cache := fs.Int("cache", 16, "block cache in MB")
	if status, ok := parseFlags(fs, args, "", stdout, stderr); !ok {
		return status
	}
	if *fen == "" {
		fmt.Fprintln(stderr, "nechecb egdb probe: --fen is required")
		return 2
	}
	p, err := engine.ParseFEN(*fen)
	if err != nil {
		fmt.Fprintf(stderr, "nechecb egdb probe: %v\n", err)
		return 2
	}
	db, status := openDB("egdb probe", *dir, *cache, stderr)
	if db == nil {
		return status
	}
	defer db.Close()
	v := db.WriteProbe(stdout, &p)
	// A position the database does not cover is an answer, not a
	// failure: "unknown" on stdout, the reason on stderr, exit 0.
	if v == egdb.Unknown {
		fmt.Fprintf(stderr, "nechecb egdb probe: the database (%d pieces) does not cover this position\n", db.Pieces())
	}
	return 0
}

func egdbVerify(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("egdb verify", flag.ContinueOnError)
	dir := fs.String("dir", "", "database directory (required)")
	threads := fs.Int("threads", runtime.NumCPU(), "goroutines to share the work")
	cache := fs.Int("cache", 256, "block cache in MB")
	if status, ok := parseFlags(fs, args, "", stdout, stderr); !ok {
		return status
	}
	if *threads < 1 || *threads > 1024 {
		fmt.Fprintf(stderr, "nechecb egdb verify: --threads %d is outside 1..1024\n", *threads)
		return 2
	}
	db, status := openDB("egdb verify", *dir, *cache, stderr)
	if db == nil {
		return status
	}
	defer db.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	if !db.VerifyReporting(ctx, *threads, stdout, stderr) {
		return 1
	}
	return 0
}

func egdbStats(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("egdb stats", flag.ContinueOnError)
	dir := fs.String("dir", "", "database directory (required)")
	if status, ok := parseFlags(fs, args, "", stdout, stderr); !ok {
		return status
	}
	db, status := openDB("egdb stats", *dir, 1, stderr)
	if db == nil {
		return status
	}
	defer db.Close()
	egdb.WriteStats(stdout, db.Stats())
	return 0
}
