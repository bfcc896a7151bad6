package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/nechecb/nechecb/eval/all"
	"github.com/nechecb/nechecb/internal/cli"
	"github.com/nechecb/nechecb/internal/gui"
)

func init() {
	register(&command{name: "gui", summary: "play and analyse on a board in the browser", run: runGUI})
}

// runGUI parses the gui's flags and runs it.
func runGUI(args []string) int {
	fs := flag.NewFlagSet("gui", flag.ContinueOnError)
	opts := gui.Options{Out: os.Stdout, Err: os.Stderr}
	fs.StringVar(&opts.Addr, "addr", "127.0.0.1:0", "address to listen on (port 0: any free port); not loopback prints a warning")
	fs.BoolVar(&opts.Open, "open", true, "open the page in the default browser")
	fs.StringVar(&opts.Eval, "eval", all.DefaultSpec, "evaluator spec (the session's Eval option)")
	fs.StringVar(&opts.DB, "db", "", "endgame database directory (the session's DBPath option; empty: the built-in one, none: no database)")
	fs.StringVar(&opts.Export, "export", "", "write the browser build (the page with the engine as WebAssembly, with SIMD when Go 1.27 can be had; it works offline and installs as an app) as a static site in this folder, built from the checkout that holds the working directory, and exit")
	fs.StringVar(&opts.Book, "book", "", "opening book file, played from at level 2, good moves (the session's BookFile and Book options)")
	if status, ok := parseFlags(fs, args, "", os.Stdout, os.Stderr); !ok {
		return status
	}
	if opts.Export != "" {
		if others := cli.SetExcept(fs, "export"); len(others) > 0 {
			fmt.Fprintf(os.Stderr, "nechecb gui: --export writes a site and takes no other flag (%s): its settings are made on its page\n", strings.Join(others, ", "))
			return 2
		}
	}
	return gui.Main(opts)
}
