package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"runtime"

	"github.com/nechecb/nechecb/internal/fleetrun"
	"github.com/nechecb/nechecb/internal/term"
	"github.com/nechecb/nechecb/train/datagen"
)

func init() {
	register(&command{name: "datagen", summary: "generate training positions by self-play (--out, --positions, --nodes|--depth, --resume)", run: func(args []string) int {
		return datagenCommand(args, os.Stdout, os.Stderr)
	}})
}

const datagenUsage = `usage: nechecb datagen --out FILE (--positions N | --games N) [--resume] [flags]

Plays self-play games from the 2- and 3-move ballots with random early plies
and appends their quiet positions (no capture for either side), each with
the game's result and a search score, deduplicated, to FILE, a chunk of
games at a time. The same flags and seed write the same file, whatever
--workers; --resume goes on with a stopped run.

With --db (a folder that nechecb egdb build wrote, or "embedded" for the
5-piece database built into the binary) both sides search with the endgame
database, and a game ends as soon as it reaches a position the database
settles, with the database's value: the positions kept before it get that
result, and no position the database settles is written. The file records
the database's piece count, so --resume needs a database of as many pieces.
Fleet workers (--nats) use the built-in database for up to 5 pieces and
refuse a larger one's units unless started with worker --db DIR.

flags:
`

func datagenCommand(args []string, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	cfg := datagen.DefaultConfig
	cfg.Workers = runtime.NumCPU()
	var target datagen.Target
	fl := flag.NewFlagSet("datagen", flag.ContinueOnError)
	out := fl.String("out", "", "positions file to write (required)")
	resume := fl.Bool("resume", false, "go on with the run that made --out, with the same settings")
	fl.IntVar(&target.Positions, "positions", 0, "stop when the file holds this many positions")
	fl.IntVar(&target.Games, "games", 0, "stop when the file covers this many games")
	fl.StringVar(&cfg.Eval, "eval", cfg.Eval, "evaluator spec the games are played with")
	fl.IntVar(&cfg.Depth, "depth", cfg.Depth, "search depth of every move (0: no depth limit)")
	fl.Uint64Var(&cfg.Nodes, "nodes", cfg.Nodes, "node limit of every move's search (0: none)")
	fl.IntVar(&cfg.LabelDepth, "label-depth", cfg.LabelDepth, "label positions with a search of this depth (0: the score of the move's search)")
	fl.IntVar(&cfg.RandomPlies, "random-plies", cfg.RandomPlies, "at most this many random moves after the ballot")
	fl.IntVar(&cfg.MaxPlies, "max-plies", cfg.MaxPlies, "adjudicate a game as drawn at this many plies")
	fl.IntVar(&cfg.HashMB, "hash", cfg.HashMB, "hash table of each search, in MB")
	fl.Uint64Var(&cfg.Seed, "seed", cfg.Seed, "random seed")
	fl.IntVar(&cfg.ChunkGames, "chunk", cfg.ChunkGames, "games per chunk written")
	fl.IntVar(&cfg.Workers, "workers", cfg.Workers, "games played at once")
	fl.StringVar(&cfg.DB, "db", "", "endgame database folder, or \"embedded\" for the built-in one (default none)")
	var nf fleetrun.Settings
	bindNATS(fl, &nf, true)
	if status, ok := parseFlags(fl, args, datagenUsage, stdout, stderr); !ok {
		return status
	}
	if *out == "" {
		fmt.Fprintln(stderr, "nechecb datagen: --out is required")
		return 2
	}
	stopFleet, err := fleetrun.StartDatagen(ctx, nf, &cfg, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "nechecb datagen: %v\n", err)
		return exitStatus(err)
	}
	defer stopFleet()
	status := term.NewStatusLine(stderr)
	err = datagen.Run(ctx, cfg, *out, *resume, target, func(p datagen.Progress) { status.Update(p.String()) })
	status.Done()
	if err != nil {
		if errors.Is(err, context.Canceled) {
			fmt.Fprintln(stderr, "nechecb datagen: interrupted; --resume goes on from the last chunk written")
			return 1
		}
		fmt.Fprintf(stderr, "nechecb datagen: %v\n", err)
		return exitStatus(err)
	}
	return 0
}
