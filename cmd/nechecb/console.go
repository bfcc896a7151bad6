package main

import (
	"flag"
	"os"

	"github.com/nechecb/nechecb/eval/all"
	"github.com/nechecb/nechecb/internal/console"
	"github.com/nechecb/nechecb/internal/session"
)

func init() {
	register(&command{name: "console", summary: "play and analyse at an interactive console", run: runConsole})
}

// runConsole parses the console's flags and runs it.
func runConsole(args []string) int {
	fs := flag.NewFlagSet("console", flag.ContinueOnError)
	var opts console.Options
	fs.BoolVar(&opts.ASCII, "ascii", false, "draw the pieces in ASCII")
	fs.BoolVar(&opts.Flip, "flip", false, "show the board from Black's side")
	fs.BoolVar(&opts.Numeric, "numeric", false, "show moves in numeric notation (11-15) rather than algebraic (c3d4)")
	fs.StringVar(&opts.FEN, "fen", "", "start from this position (FEN, e.g. \"B:W18,24,27:B12,16,20\") rather than the standard one")
	fs.StringVar(&opts.HistoryFile, "history", "", "line history file (default in the user's config directory; - for none)")
	opts.Eval = all.DefaultSpec
	console.SettingFlags(fs, session.Table(map[string]string{"Eval": opts.Eval}), &opts.Settings)
	if status, ok := parseFlags(fs, args, "", os.Stdout, os.Stderr); !ok {
		return status
	}
	return console.Run(opts)
}
