package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/nechecb/nechecb/eval/all"
	"github.com/nechecb/nechecb/internal/session"
	"github.com/nechecb/nechecb/internal/term"
	"github.com/nechecb/nechecb/protocol"
)

func init() {
	register(&command{name: "protocol", summary: "serve the engine protocol on stdin/stdout, UCI-like or Hub (PROTOCOL.md; --option Name=Value)", run: runProtocol})
	register(&command{name: "uci", summary: "the same as protocol (for GUIs that expect it)", run: runProtocol})
	register(&command{name: "hub", summary: "the same as protocol (for Hub clients, which then send hub)", run: runProtocol})
	defaultMode = runDefault
}

// runDefault runs when nechecb has no subcommand: the console (console.go)
// on a terminal, the protocol otherwise, so that GUIs and match runners can
// start a bare nechecb.
func runDefault(args []string) int {
	if term.IsTerminal(os.Stdin) {
		return runConsole(args)
	}
	return runProtocol(args)
}

// optionFlags collects repeated --option Name=Value flags.
type optionFlags [][2]string

func (o *optionFlags) String() string { return fmt.Sprint(*o) }

func (o *optionFlags) Set(v string) error {
	name, value, ok := strings.Cut(v, "=")
	if !ok || strings.TrimSpace(name) == "" {
		return fmt.Errorf("%q is not Name=Value", v)
	}
	*o = append(*o, [2]string{strings.TrimSpace(name), value})
	return nil
}

// runProtocol serves the protocol on stdin and stdout.
func runProtocol(args []string) int {
	fs := flag.NewFlagSet("protocol", flag.ContinueOnError)
	var opts optionFlags
	fs.Var(&opts, "option", "set an engine option before the first command (Name=Value, repeatable)")
	if status, ok := parseFlags(fs, args, "", os.Stdout, os.Stderr); !ok {
		return status
	}
	sess, err := newSession()
	if err != nil {
		fmt.Fprintf(os.Stderr, "nechecb protocol: %v\n", err)
		return 1
	}
	srv, err := newProtocolServer(sess, os.Stderr)
	if err != nil {
		fmt.Fprintf(os.Stderr, "nechecb protocol: %v\n", err)
		return 1
	}
	for _, o := range opts {
		if err := srv.SetOption(o[0], o[1]); err != nil {
			fmt.Fprintf(os.Stderr, "nechecb protocol: --option %s=%s: %v\n", o[0], o[1], err)
			return 2
		}
	}
	if err := srv.Serve(os.Stdin, os.Stdout); err != nil {
		fmt.Fprintf(os.Stderr, "nechecb protocol: reading stdin: %v\n", err)
		return 1
	}
	return 0
}

// newSession makes the engine session with the binary's default evaluator.
func newSession() (*session.Session, error) {
	return session.New(session.Config{Defaults: map[string]string{"Eval": all.DefaultSpec}})
}

// newProtocolServer makes the server of the protocol commands on sess: its
// engine, its option table and its opening book, and the bench. Logs go to
// logOutput unless the LogFile option names a file.
func newProtocolServer(sess *session.Session, logOutput io.Writer) (*protocol.Server, error) {
	eng := sess.Engine()
	return protocol.NewServer(protocol.Config{
		Name: "nechecb", Version: version, Author: "the nechecb authors",
		Searcher: eng,
		Options:  protocol.SessionOptions(sess.Options()),
		Book:     sess,
		Bench: func(w io.Writer, depth int) (uint64, time.Duration, error) {
			return benchSpec(w, depth, eng.Evaluator())
		},
		LogOutput: logOutput,
	})
}
