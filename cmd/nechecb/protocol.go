package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/nechecb/nechecb/eval/all"
	"github.com/nechecb/nechecb/internal/cli"
	"github.com/nechecb/nechecb/internal/player"
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

// runProtocol serves the protocol on stdin and stdout.
func runProtocol(args []string) int {
	fs := flag.NewFlagSet("protocol", flag.ContinueOnError)
	var opts cli.Assignments
	fs.Var(&opts, "option", "set an engine option before the first command (Name=Value, repeatable)")
	if status, ok := parseFlags(fs, args, "", os.Stdout, os.Stderr); !ok {
		return status
	}
	sess, err := newSession()
	var srv *protocol.Server
	if err == nil {
		srv, err = newProtocolServer(sess, os.Stderr)
	}
	if err == nil {
		err = srv.SetOptions(opts) // bad input: status 2; the others 1
	}
	if err != nil {
		return cli.Status(os.Stderr, "protocol", err)
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
	bench := func(w io.Writer, depth int) (uint64, time.Duration, error) {
		return player.Bench(w, depth, 1, sess.Engine().Evaluator(), player.Play)
	}
	return protocol.SessionServer(sess, protocol.Config{Name: "nechecb", Version: version, Author: "the nechecb authors", Bench: bench, LogOutput: logOutput})
}
