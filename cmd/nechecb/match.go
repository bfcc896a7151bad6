package main

import (
	"context"
	"errors"
	"flag"
	"os"
	"time"

	"github.com/nechecb/nechecb/internal/cli"
	"github.com/nechecb/nechecb/internal/fleetrun"
	"github.com/nechecb/nechecb/internal/gui"
	"github.com/nechecb/nechecb/match"
)

func init() {
	register(&command{name: "match", summary: "play engines against each other from ballot openings (--engine, --openings, --tc/--depth, --pdn)", run: runMatch})
}

const matchUsage = `usage: nechecb match --engine SPEC --engine SPEC... [flags]

SPEC describes one engine as space-separated key=value pairs; a value in
double quotes may hold spaces (quote the whole SPEC for the shell):
  name=NAME        its name in the table and the PDN (default: the program's file name)
  cmd=PROG         the program to run; cmd="PROG ARGS" runs it with arguments
  opts=N=V;N=V     engine options, set when it starts (opts may be repeated)
  proto=uci|hub    the protocol dialect (default uci)
  dir=DIR          the directory to run it in
for example:
  --engine 'name=A cmd="./nechecb protocol" opts=Hash=16;Eval=heuristic'
  --engine "name=B cmd=./nechecb proto=hub"
nechecb plays with its built-in 5-piece endgame database unless DBPath=none;
against an engine without databases (Cake, with its own off) give it none:
  --engine 'name=nechecb cmd="./nechecb protocol" opts=DBPath=none'

flags:
`

func runMatch(args []string) int {
	fs := flag.NewFlagSet("match", flag.ContinueOnError)
	var engines match.Engines
	fs.Var(&engines, "engine", "an engine `SPEC` as above, e.g. 'name=A cmd=\"./nechecb protocol\" opts=Eval=neche:x.txt#last;Hash=16' (two or more)")
	gauntlet := fs.Bool("gauntlet", false, "pair the first engine with each other one (default: round-robin)")
	openings := fs.String("openings", "3move", "3move, 2move, FILE.pdn (bad games skipped and named) or a file of FEN lines")
	strict := fs.Bool("strict", false, "refuse an --openings PDN file that holds a bad game")
	rounds := fs.Int("rounds", 1, "passes over the openings")
	games := fs.Int("games", 0, "stop after this many games (0: rounds x openings x pairings x 2)")
	random := fs.Bool("random", false, "shuffle the openings (with --seed)")
	seed := fs.Uint64("seed", 1, "seed for --random")
	tc := fs.String("tc", "", "time control BASE+INC in seconds, e.g. 10+0.1")
	movetime := fs.Int("movetime", 0, "milliseconds per move")
	nodes := fs.Int64("nodes", 0, "nodes per move (a time-free control for screening)")
	depth := fs.Int("depth", 0, "fixed search depth")
	margin := fs.Int("timemargin", 0, "milliseconds an engine may overstep its clock")
	maxMoves := fs.Int("maxmoves", 200, "moves a side before a game is adjudicated a draw")
	adjScore := fs.Int("adjscore", 0, "score adjudication: centipawns both engines must agree on (with --adjmoves)")
	adjMoves := fs.Int("adjmoves", 0, "score adjudication: moves each side the scores must agree (0: off)")
	adjClaims := fs.Bool("adjclaims", false, "end a game when both engines claim the same result")
	concurrency := fs.Int("concurrency", 1, "games played at once")
	timeout := fs.Duration("timeout", 30*time.Second, "how long to wait for an engine beyond its thinking time before it counts as hung")
	pdnPath := fs.String("pdn", "", "PDN file every game is appended to (default: the games are not recorded)")
	resume := fs.Bool("resume", false, "continue the match recorded in --pdn")
	faults := fs.Int("faults", 3, "stop the match (exit 1) when an engine fails this many games in a row (0: never)")
	sprt := fs.String("sprt", "", `stop early by SPRT: "elo0=0 elo1=5 alpha=0.05 beta=0.05"`)
	plot := fs.String("plot", "", "write the Elo estimate over the games as an SVG file")
	event := fs.String("event", "nechecb match", "PDN Event tag")
	quiet := fs.Bool("quiet", false, "no progress line")
	watch := gui.Options{Out: os.Stdout, Err: os.Stderr, Linger: true}
	useGUI := fs.Bool("gui", false, "show the games under way, the table and the SPRT line live in the browser")
	fs.StringVar(&watch.Addr, "gui-addr", "127.0.0.1:0", "with --gui: address to listen on (port 0: any free port); not loopback prints a warning")
	fs.BoolVar(&watch.Open, "open", true, "with --gui: open the page in the default browser")
	var nf fleetrun.Settings
	bindNATS(fs, &nf, true)
	if status, ok := parseFlags(fs, args, matchUsage, os.Stdout, os.Stderr); !ok {
		return status
	}
	job := match.Job{
		Config: match.Config{
			Engines: engines, Gauntlet: *gauntlet, Rounds: *rounds, Games: *games, Random: *random, Seed: *seed,
			MaxMoves: *maxMoves, Concurrency: *concurrency, Timeout: *timeout, PDN: *pdnPath, Resume: *resume, Event: *event, FaultLimit: *faults,
			Limits:       match.Limits{MoveTime: time.Duration(*movetime) * time.Millisecond, Depth: *depth, Nodes: *nodes, Margin: time.Duration(*margin) * time.Millisecond},
			Adjudication: match.Adjudication{Score: *adjScore, ScoreMoves: *adjMoves, Claims: *adjClaims},
		},
		TimeControl: *tc, SPRT: *sprt, Openings: *openings, Strict: *strict, Plot: *plot, Quiet: *quiet,
		Fleet: func(ctx context.Context, c *match.Config) (func(), error) {
			return fleetrun.StartMatch(ctx, nf, c, os.Stderr)
		},
		CheckFleet: func(c *match.Config) error { return fleetrun.CheckMatch(nf, c) },
		Stdout:     os.Stdout, Stderr: os.Stderr,
	}
	// The settings are checked before the watch page's address is
	// printed, so that a wrong one ends the command at once.
	prep, err := match.Prepare(job)
	switch {
	case err != nil:
	case *useGUI:
		watch.Fleet = nf.URL != ""
		err = gui.WatchMatch(watch, func(w *gui.Watch) error {
			prep.SetObserver(w)
			return prep.Run()
		})
	default:
		err = prep.Run()
	}
	if errors.Is(err, match.ErrInterrupted) {
		return 1 // the match is not complete; the notice is written
	}
	return cli.Status(os.Stderr, "match", err)
}
