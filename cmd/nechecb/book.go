package main

import (
	"context"
	"flag"
	"os"
	"time"

	"github.com/nechecb/nechecb/books"
	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval/all"
	"github.com/nechecb/nechecb/internal/cli"
	"github.com/nechecb/nechecb/train/booksearch"
)

func init() {
	register(&command{name: "book", summary: "opening books: build (from PDN games or by searching the ballots), probe, dump", subs: []*command{
		{name: "build", summary: "build a book from PDN games (--pdn) or by searching the ballots (--ballots)", run: runBookBuild},
		{name: "dump", summary: "write a book as text, or convert it (-o, --binary)", run: runBookDump},
		{name: "probe", summary: "look a position up in a book (--fen, --book)", run: runBookProbe},
	}})
}

func runBookProbe(args []string) int {
	fs := flag.NewFlagSet("book probe", flag.ContinueOnError)
	fen := fs.String("fen", engine.StartFEN, "position to look up")
	file := fs.String("book", "", "book file (default: the built-in book)")
	if status, ok := parseFlags(fs, args, "", os.Stdout, os.Stderr); !ok {
		return status
	}
	return cli.Status(os.Stderr, "book probe", books.ProbeFile(*file, *fen, os.Stdout))
}

func runBookDump(args []string) int {
	fs := flag.NewFlagSet("book dump", flag.ContinueOnError)
	file := fs.String("book", "", "book file, binary or text (default: the built-in book)")
	out := fs.String("o", "", "write the book to this file instead of a text dump on stdout")
	binary := fs.Bool("binary", false, "with -o, write the binary format")
	if status, ok := parseFlags(fs, args, "", os.Stdout, os.Stderr); !ok {
		return status
	}
	return cli.Status(os.Stderr, "book dump", books.DumpFile(*file, *out, *binary, os.Stdout))
}

func runBookBuild(args []string) int {
	fs := flag.NewFlagSet("book build", flag.ContinueOnError)
	b := booksearch.BookBuild{Games: books.DefaultGameOptions}
	fs.StringVar(&b.Out, "o", "", "book file to write (required)")
	fs.BoolVar(&b.Text, "text", false, "write the text format instead of the binary one")
	fs.StringVar(&b.PDN, "pdn", "", "build from the games of this PDN file (bad games are skipped and named)")
	fs.BoolVar(&b.Strict, "strict", false, "with --pdn: refuse the whole file if one game is bad")
	fs.IntVar(&b.Games.MaxPly, "maxply", b.Games.MaxPly, "plies of each game that enter the book")
	fs.IntVar(&b.Games.MinCount, "mincount", b.Games.MinCount, "games that must have played a move for it to enter the book")
	win := fs.Uint("win", uint(b.Games.WinWeight), "weight a won game adds to the move played")
	draw := fs.Uint("draw", uint(b.Games.DrawWeight), "weight a drawn game adds")
	loss := fs.Uint("loss", uint(b.Games.LossWeight), "weight a lost game adds")
	fs.StringVar(&b.Ballots, "ballots", "", "build by searching every position on the way through these ballots: 2move, 3move or both")
	fs.IntVar(&b.Limits.Depth, "depth", 0, "with --ballots: search each move to this depth")
	movetime := fs.Int("movetime", 0, "with --ballots: milliseconds of search for each move")
	fs.StringVar(&b.Spec, "eval", all.DefaultSpec, "with --ballots: evaluator spec")
	fs.IntVar(&b.HashMB, "hash", 64, "with --ballots: transposition table in MB")
	fs.BoolVar(&b.Resume, "resume", false, "with --ballots: continue the partial book in -o")
	if status, ok := parseFlags(fs, args, "", os.Stdout, os.Stderr); !ok {
		return status
	}
	b.Games.WinWeight, b.Games.DrawWeight, b.Games.LossWeight = uint32(*win), uint32(*draw), uint32(*loss)
	b.Limits.MoveTime = time.Duration(*movetime) * time.Millisecond
	return cli.Status(os.Stderr, "book build", b.Run(context.Background(), os.Stderr, "nechecb book build: "))
}
