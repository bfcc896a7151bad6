// Package cli is what every command of the nechecb binary shares: the
// table of commands and subcommands with its dispatch and usage, the
// parsing of a command's flags, the flag types that several commands use,
// and the exit status of an error. The binary (cmd/nechecb) declares the
// commands and their flags; the work is done in the packages they call.
//
// The exit status of every command: 0 when it did its work, 2 for bad usage
// or input (an unknown flag or subcommand, a bad value, an evaluator spec or
// input file that cannot be read), 1 for a failure while running (a write
// that fails, an engine that dies, an interrupted job).
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/nechecb/nechecb/internal/badinput"
)

// Command is one command of the binary. A leaf command has Run; a group
// (book, tune) has Subs instead, and Dispatch picks among them the same way
// it picks among the top-level commands.
type Command struct {
	// Name is the word that selects the command; Summary is its line in
	// the usage.
	Name, Summary string
	// Run runs the command with the arguments after its name and returns
	// the exit status.
	Run func(args []string) int
	// Subs are a group's subcommands.
	Subs []*Command
}

// IsHelp reports whether arg asks for usage.
func IsHelp(arg string) bool { return arg == "-h" || arg == "--help" || arg == "help" }

// Dispatch runs the command of subs that args[0] names, with the rest of
// args; path is the group's (e.g. "book"; "" for the binary itself, whose
// usage begins with about). -h, --help or help prints the group's usage to
// stdout with status 0; a missing or unknown command prints one error line
// to stderr with status 2. A group within the group (book build, tune
// texel) is dispatched the same way.
func Dispatch(path, about string, subs []*Command, args []string, stdout, stderr io.Writer) int {
	prog := strings.TrimSpace("nechecb " + path)
	names := make([]string, len(subs))
	for i, c := range subs {
		names[i] = c.Name
	}
	if len(args) == 0 {
		fmt.Fprintf(stderr, "%s: want a subcommand: %s (try '%s -h')\n", prog, strings.Join(names, ", "), prog)
		return 2
	}
	if IsHelp(args[0]) {
		Usage(stdout, path, about, subs)
		return 0
	}
	for _, c := range subs {
		if c.Name != args[0] {
			continue
		}
		if c.Subs != nil {
			return Dispatch(strings.TrimSpace(path+" "+c.Name), "", c.Subs, args[1:], stdout, stderr)
		}
		return c.Run(args[1:])
	}
	fmt.Fprintf(stderr, "%s: unknown command %q (want %s; try '%s -h')\n", prog, args[0], strings.Join(names, ", "), prog)
	return 2
}

// Usage lists a group's commands (see Dispatch for path and about); for
// the binary itself it also says what happens with no command.
func Usage(w io.Writer, path, about string, subs []*Command) {
	if path == "" {
		fmt.Fprintf(w, "%s\n\nusage: nechecb [command] [flags]\n\ncommands:\n", about)
	} else {
		fmt.Fprintf(w, "usage: nechecb %s <subcommand> [flags]\n\nsubcommands:\n", path)
	}
	for _, c := range subs {
		fmt.Fprintf(w, "  %-12s %s\n", c.Name, c.Summary)
	}
	if path != "" {
		fmt.Fprintf(w, "\n'nechecb %s <subcommand> -h' shows a subcommand's flags.\n", path)
		return
	}
	fmt.Fprintf(w, "\nWith no command, nechecb serves the engine protocol (PROTOCOL.md) when\nstdin is not a terminal, and starts the console when it is. Every command\ntakes -h. Exit status: 0 done, 1 a runtime failure, 2 bad usage or input.\n")
}

// ParseFlags parses a command's flags, which every command does the same
// way. -h or --help prints header (or a plain usage line when it is empty)
// and the flags to stdout and gives status 0; a bad flag or a stray argument
// prints one error line to stderr and gives status 2. The command goes on
// only when ok is true.
func ParseFlags(fs *flag.FlagSet, args []string, header string, stdout, stderr io.Writer) (status int, ok bool) {
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

// ExitStatus returns the exit status for a command that failed with err: 2
// for an error in the user's input (see internal/badinput), 1 for any other.
func ExitStatus(err error) int {
	if badinput.Is(err) {
		return 2
	}
	return 1
}

// Status returns the exit status of the command prog (e.g. "book build")
// that ended with err: 0 when err is nil; otherwise it writes err on one
// line of stderr and returns ExitStatus(err).
func Status(stderr io.Writer, prog string, err error) int {
	if err == nil {
		return 0
	}
	fmt.Fprintf(stderr, "nechecb %s: %v\n", prog, err)
	return ExitStatus(err)
}
