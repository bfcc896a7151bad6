// Command nechecb is a checkers (English draughts) engine. With a
// subcommand it runs a tool (perft, bench, eval, match, book, console...);
// without one it serves the engine protocol when stdin is not a terminal and
// starts the console when it is.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
)

// command is one subcommand of nechecb.
type command struct {
	name    string
	summary string
	run     func(args []string) int
}

var commands = map[string]*command{}

// register adds a subcommand; each command's file calls it from init.
func register(c *command) { commands[c.name] = c }

// version is the engine's version, reported by the protocol and the console.
const version = "0.1.0"

// defaultMode runs when nechecb is started with no subcommand. The protocol
// and console files set it; it is nil until one of them does.
var defaultMode func(args []string) int

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") && args[0] != "-h" && args[0] != "--help" {
		if defaultMode != nil {
			return defaultMode(args)
		}
		usage(os.Stderr)
		return 2
	}
	if args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		usage(os.Stdout)
		return 0
	}
	c, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(os.Stderr, "nechecb: unknown command %q (try 'nechecb help')\n", args[0])
		return 2
	}
	return c.run(args[1:])
}

func usage(w *os.File) {
	fmt.Fprintf(w, "nechecb %s, a checkers engine\n\nusage: nechecb [command] [flags]\n\ncommands:\n", version)
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-10s %s\n", n, commands[n].summary)
	}
	fmt.Fprintf(w, "\nWith no command, nechecb serves the engine protocol (PROTOCOL.md) when\nstdin is not a terminal, and starts the console when it is.\n")
}

// parseFlags parses a subcommand's flags, which every command does the same
// way. -h or --help prints header (or a plain usage line when it is empty)
// and the flags to stdout and gives status 0; a bad flag or a stray argument
// prints one error line to stderr and gives status 2. The command goes on only
// when ok is true.
func parseFlags(fs *flag.FlagSet, args []string, header string, stdout, stderr io.Writer) (status int, ok bool) {
	fs.SetOutput(io.Discard)
	err := fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		if header == "" {
			header = "usage: nechecb " + fs.Name() + " [flags]\n\nflags:\n"
		}
		fmt.Fprint(stdout, header)
		fs.SetOutput(stdout)
		fs.PrintDefaults()
		return 0, false
	case err != nil:
		fmt.Fprintf(stderr, "nechecb %s: %v\n", fs.Name(), err)
		return 2, false
	case fs.NArg() > 0:
		fmt.Fprintf(stderr, "nechecb %s: unexpected argument %q\n", fs.Name(), fs.Arg(0))
		return 2, false
	}
	return 0, true
}
