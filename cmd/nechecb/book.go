package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/nechecb/nechecb/books"
	"github.com/nechecb/nechecb/engine"
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
	b, err := books.Open(*file)
	if err != nil {
		fmt.Fprintf(os.Stderr, "nechecb book probe: %v\n", err)
		return 2
	}
	p, err := engine.ParseFEN(*fen)
	if err != nil {
		fmt.Fprintf(os.Stderr, "nechecb book probe: %v\n", err)
		return 2
	}
	b.WriteProbe(os.Stdout, &p)
	return 0
}

func runBookDump(args []string) int {
	fs := flag.NewFlagSet("book dump", flag.ContinueOnError)
	file := fs.String("book", "", "book file, binary or text (default: the built-in book)")
	out := fs.String("o", "", "write the book to this file instead of a text dump on stdout")
	binary := fs.Bool("binary", false, "with -o, write the binary format")
	if status, ok := parseFlags(fs, args, "", os.Stdout, os.Stderr); !ok {
		return status
	}
	b, err := books.Open(*file)
	if err != nil {
		fmt.Fprintf(os.Stderr, "nechecb book dump: %v\n", err)
		return 2
	}
	if *out != "" {
		err = b.Save(*out, !*binary)
	} else {
		err = b.WriteText(os.Stdout)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "nechecb book dump: %v\n", err)
		return 1
	}
	return 0
}

func runBookBuild(args []string) int {
	fs := flag.NewFlagSet("book build", flag.ContinueOnError)
	out := fs.String("o", "", "book file to write (required)")
	text := fs.Bool("text", false, "write the text format instead of the binary one")
	games := fs.String("pdn", "", "build from the games of this PDN file (bad games are skipped and named)")
	strict := fs.Bool("strict", false, "with --pdn: refuse the whole file if one game is bad")
	opt := books.DefaultGameOptions
	fs.IntVar(&opt.MaxPly, "maxply", opt.MaxPly, "plies of each game that enter the book")
	fs.IntVar(&opt.MinCount, "mincount", opt.MinCount, "games that must have played a move for it to enter the book")
	win := fs.Uint("win", uint(opt.WinWeight), "weight a won game adds to the move played")
	draw := fs.Uint("draw", uint(opt.DrawWeight), "weight a drawn game adds")
	loss := fs.Uint("loss", uint(opt.LossWeight), "weight a lost game adds")
	search := addSearchBuildFlags(fs)
	if status, ok := parseFlags(fs, args, "", os.Stdout, os.Stderr); !ok {
		return status
	}
	if *out == "" {
		fmt.Fprintln(os.Stderr, "nechecb book build: -o FILE is required")
		return 2
	}
	if (*games == "") == !search.requested() {
		fmt.Fprintln(os.Stderr, "nechecb book build: give either --pdn FILE or --ballots SET with --depth or --movetime")
		return 2
	}
	if search.requested() {
		return search.run(*out, *text)
	}
	opt.WinWeight, opt.DrawWeight, opt.LossWeight = uint32(*win), uint32(*draw), uint32(*loss)
	n, b, err := books.BuildFromPDN(*games, *strict, opt, *out, *text, os.Stderr, "nechecb book build: ")
	if err != nil {
		fmt.Fprintf(os.Stderr, "nechecb book build: %v\n", err)
		return exitStatus(err)
	}
	fmt.Fprintf(os.Stderr, "nechecb book build: %d games, %d positions written to %s\n", n, b.Len(), *out)
	return 0
}
