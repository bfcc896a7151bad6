// Command nechecb is a checkers (English draughts) engine. With a
// subcommand it runs a tool (perft, bench, eval, match, book, console...);
// without one it serves the engine protocol when stdin is not a terminal and
// starts the console when it is. Exit statuses: see internal/cli.
package main

import (
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/nechecb/nechecb/internal/cli"
)

// command is one subcommand of nechecb, declared as cli.Command is: a leaf
// command has run, a group (book, tune) subs.
type command struct {
	name, summary string
	run           func(args []string) int
	subs          []*command
}

var commands = map[string]*command{}

// register adds a subcommand; each command's file calls it from init.
func register(c *command) { commands[c.name] = c }

// cliCommands returns cmds as the table cli.Dispatch reads.
func cliCommands(cmds []*command) []*cli.Command {
	if cmds == nil {
		return nil
	}
	out := make([]*cli.Command, len(cmds))
	for i, c := range cmds {
		out[i] = &cli.Command{Name: c.name, Summary: c.summary, Run: c.run, Subs: cliCommands(c.subs)}
	}
	return out
}

// sortedCommands returns the commands of m by name.
func sortedCommands(m map[string]*command) []*command {
	list := slices.Collect(maps.Values(m))
	slices.SortFunc(list, func(a, b *command) int { return strings.Compare(a.name, b.name) })
	return list
}

// defaultMode runs when nechecb is started with no subcommand. The protocol
// and console files set it; it is nil until one of them does.
var defaultMode func(args []string) int

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	all := cliCommands(sortedCommands(commands))
	about := "nechecb " + version + ", a checkers engine"
	if len(args) == 0 || strings.HasPrefix(args[0], "-") && !cli.IsHelp(args[0]) {
		if defaultMode != nil {
			return defaultMode(args)
		}
		cli.Usage(os.Stderr, "", about, all)
		return 2
	}
	return cli.Dispatch("", about, all, args, os.Stdout, os.Stderr)
}

// parseFlags parses a subcommand's flags (cli.ParseFlags).
var parseFlags = cli.ParseFlags

// exitStatus returns the exit status for a command that failed with err.
var exitStatus = cli.ExitStatus
