// Package fakeengine is a tiny engine for tests of protocol clients: it
// speaks enough of both dialects of PROTOCOL.md to play a game, picks its
// moves by a fixed rule from the position, and can be told to misbehave on
// a given search (crash, hang, send an illegal move or garbage). Tests run
// it by re-executing their own binary (see Main).
package fakeengine

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/protocol/hubtext"
)

// EnvVar names the environment variable that turns a test binary into the
// fake engine; its value is the behaviour: "ok", or "crash@N", "hang@N",
// "illegal@N", "garbage@N", "slow@N" (300 ms) to misbehave on the N-th search (counted from 1
// over the process's life), optionally followed by ",material" to report
// material scores.
const EnvVar = "NECHECB_FAKE_ENGINE"

// Main serves the fake engine on stdin and stdout and exits, if EnvVar is
// set; otherwise it returns. Call it first thing in TestMain.
func Main() {
	mode, ok := os.LookupEnv(EnvVar)
	if !ok {
		return
	}
	Serve(os.Stdin, os.Stdout, mode)
	os.Exit(0)
}

// Serve runs the fake engine until quit or the end of input.
func Serve(in io.Reader, out io.Writer, mode string) {
	fault, at := parseMode(mode)
	w := bufio.NewWriter(out)
	say := func(format string, args ...any) {
		fmt.Fprintf(w, format+"\n", args...)
		w.Flush()
	}
	pos := engine.StartPosition()
	searches := 0
	sc := bufio.NewScanner(in)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		cmd, rest, _ := strings.Cut(line, " ")
		switch cmd {
		case "uci":
			say("id name fake")
			say("option name Eval type string default material")
			say("uciok")
		case "hub":
			say("id name=fake version=0")
			say("wait")
		case "isready":
			say("readyok")
		case "init":
			say("ready")
		case "ping":
			say("pong")
		case "setoption", "set-param":
			if strings.Contains(rest, "Bad") {
				say("info string error: setoption: unknown option")
			}
		case "position":
			pos = readUCIPosition(rest)
		case "pos":
			pos = readHubPosition(rest)
		case "go":
			searches++
			if searches == at {
				switch fault {
				case "crash":
					os.Exit(3)
				case "hang":
					time.Sleep(time.Hour)
				case "slow":
					time.Sleep(300 * time.Millisecond)
				case "illegal":
					say("bestmove 1-2")
					continue
				case "garbage":
					say("bestmove \x01banana")
					continue
				}
			}
			moves := pos.LegalMoves()
			hub := rest == "think"
			if len(moves) == 0 {
				if hub {
					say("done")
				} else {
					say("bestmove (none)")
				}
				continue
			}
			m := moves[pos.Hash%uint64(len(moves))]
			score := material(&pos)
			if hub {
				say("info depth=1 score=%.2f", float64(score)/100)
				say("done move=%s", m)
			} else {
				say("info depth 1 score cp %d pv %s", score, m)
				say("bestmove %s", m)
			}
		case "quit":
			return
		}
	}
}

func parseMode(mode string) (string, int) {
	mode, _, _ = strings.Cut(mode, ",")
	fault, n, ok := strings.Cut(mode, "@")
	if !ok {
		return "", 0
	}
	at, _ := strconv.Atoi(n)
	return fault, at
}

func material(p *engine.Position) int {
	count := func(c engine.Color) int {
		return 100*len(engine.Squares(p.Men(c))) + 130*len(engine.Squares(p.KingsOf(c)))
	}
	return count(p.Side) - count(p.Side.Opponent())
}

func readUCIPosition(rest string) engine.Position {
	spec, moves, _ := strings.Cut(rest, " moves ")
	p := engine.StartPosition()
	if fen, ok := strings.CutPrefix(spec, "fen "); ok {
		p, _ = engine.ParseFEN(fen)
	}
	return playAll(p, strings.Fields(moves))
}

func readHubPosition(rest string) engine.Position {
	_, args, _ := hubtext.ParseLine("pos " + rest)
	p := engine.StartPosition()
	if text, ok := args.Values["pos"]; ok {
		p, _, _ = hubtext.ParsePosition(text, hubtext.Pydraughts)
	}
	for _, s := range strings.Fields(args.Values["moves"]) {
		m, err := hubtext.ParseMove(&p, s)
		if err != nil {
			return p
		}
		p = p.Play(m)
	}
	return p
}

func playAll(p engine.Position, moves []string) engine.Position {
	for _, s := range moves {
		m, err := p.ParseMove(s)
		if err != nil {
			return p
		}
		p = p.Play(m)
	}
	return p
}
