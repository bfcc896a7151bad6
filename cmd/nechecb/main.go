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

	"github.com/nechecb/nechecb/internal/badinput"
)

// command is one subcommand of nechecb. A leaf command has run; a group
// (book, tune) has subs instead, and dispatch picks among them the same way
// it picks among the top-level commands.
type command struct {
	name    string
	summary string
	run     func(args []string) int
	subs    []*command
}

var commands = map[string]*command{}

// register adds a subcommand; each command's file calls it from init.
func register(c *command) { commands[c.name] = c }

// defaultMode runs when nechecb is started with no subcommand. The protocol
// and console files set it; it is nil until one of them does.
var defaultMode func(args []string) int

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	if len(args) == 0 || strings.HasPrefix(args[0], "-") && !isHelp(args[0]) {
		if defaultMode != nil {
			return defaultMode(args)
		}
		usage(os.Stderr)
		return 2
	}
	return dispatch("", sortedCommands(commands), args, os.Stdout, os.Stderr)
}

// isHelp reports whether arg asks for usage.
func isHelp(arg string) bool { return arg == "-h" || arg == "--help" || arg == "help" }

// sortedCommands returns the registered commands by name.
func sortedCommands(m map[string]*command) []*command {
	list := make([]*command, 0, len(m))
	for _, c := range m {
		list = append(list, c)
	}
	sort.Slice(list, func(i, j int) bool { return list[i].name < list[j].name })
	return list
}

// dispatch runs the subcommand of the group at path ("" for nechecb itself,
// else e.g. "book") that args[0] names, with the rest of args. -h, --help
// or help prints the group's usage to stdout with status 0; a missing or
// unknown subcommand prints one error line to stderr with status 2. A group
// within the group (book build, tune texel) is dispatched the same way.
func dispatch(path string, subs []*command, args []string, stdout, stderr io.Writer) int {
	prog := strings.TrimSpace("nechecb " + path)
	names := make([]string, len(subs))
	for i, c := range subs {
		names[i] = c.name
	}
	if len(args) == 0 {
		fmt.Fprintf(stderr, "%s: want a subcommand: %s (try '%s -h')\n", prog, strings.Join(names, ", "), prog)
		return 2
	}
	if isHelp(args[0]) {
		groupUsage(stdout, path, subs)
		return 0
	}
	for _, c := range subs {
		if c.name != args[0] {
			continue
		}
		if c.subs != nil {
			return dispatch(strings.TrimSpace(path+" "+c.name), c.subs, args[1:], stdout, stderr)
		}
		return c.run(args[1:])
	}
	fmt.Fprintf(stderr, "%s: unknown command %q (want %s; try '%s -h')\n", prog, args[0], strings.Join(names, ", "), prog)
	return 2
}

// groupUsage lists a group's subcommands; for nechecb itself it also says
// what happens with no command.
func groupUsage(w io.Writer, path string, subs []*command) {
	if path == "" {
		fmt.Fprintf(w, "nechecb %s, a checkers engine\n\nusage: nechecb [command] [flags]\n\ncommands:\n", version)
	} else {
		fmt.Fprintf(w, "usage: nechecb %s <subcommand> [flags]\n\nsubcommands:\n", path)
	}
	for _, c := range subs {
		fmt.Fprintf(w, "  %-12s %s\n", c.name, c.summary)
	}
	if path != "" {
		fmt.Fprintf(w, "\n'nechecb %s <subcommand> -h' shows a subcommand's flags.\n", path)
		return
	}
	fmt.Fprintf(w, "\nWith no command, nechecb serves the engine protocol (PROTOCOL.md) when\nstdin is not a terminal, and starts the console when it is. Every command\ntakes -h. Exit status: 0 done, 1 a runtime failure, 2 bad usage or input.\n")
}

func usage(w io.Writer) { groupUsage(w, "", sortedCommands(commands)) }

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

// The exit status of every command: 0 when it did its work, 2 for bad usage
// or input (an unknown flag or subcommand, a bad value, an evaluator spec or
// input file that cannot be read), 1 for a failure while running (a write
// that fails, an engine that dies, an interrupted job).

// badInput marks err as an error in the user's input (exit status 2).
func badInput(err error) error { return badinput.Mark(err) }

// exitStatus returns the exit status for a command that failed with err: 2
// for an error in the user's input (see internal/badinput), 1 for any other.
func exitStatus(err error) int {
	if badinput.Is(err) {
		return 2
	}
	return 1
}
