package gui

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/nechecb/nechecb/books"
	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/pdn"
	"github.com/nechecb/nechecb/internal/elo"
	"github.com/nechecb/nechecb/internal/player"
	"github.com/nechecb/nechecb/internal/session"
	"github.com/nechecb/nechecb/match"
)

// The match of TestSiteMatch: its two sides, how many games, the time a
// move of both sides, the SPRT that may end it early and where its games
// are written.
var (
	matchA     = flag.String("site-match-a", "browser:pattern", "TestSiteMatch: the first side, browser:EVAL (the exported site in Chromium) or native:EVAL (this process)")
	matchB     = flag.String("site-match-b", "native:pattern", "TestSiteMatch: the second side, as -site-match-a")
	matchPairs = flag.Int("site-match-pairs", 10, "TestSiteMatch: openings (3-move ballots), each played with both colours")
	matchGames = flag.Int("site-match-games", 0, "TestSiteMatch: games, in colour-reversed pairs (rounded up to a pair); over 0 it overrides -site-match-pairs")
	matchMs    = flag.Int("site-match-ms", 200, "TestSiteMatch: milliseconds a move, for both engines")
	matchSPRT  = flag.String("site-match-sprt", "", "TestSiteMatch: a pentanomial SPRT that ends the match when it decides, as nechecb match --sprt takes it (\"elo0=0 elo1=10\"; alpha and beta 0.05 unless given); empty: none")
	matchPDN   = flag.String("site-match-pdn", "", "TestSiteMatch: write the games to this PDN file, rewritten after each game")
)

// matchSide is one side of TestSiteMatch: an engine that plays one
// colour of a game whose moves the test keeps.
type matchSide interface {
	// start sets up a new game from the ballot, the side playing c.
	start(ballot string, c engine.Color)
	// move returns the side's move after the game's positions so far
	// (the last one the side's to move), the ply-th move of the game.
	move(positions []engine.Position) engine.Move
	// opponent tells the side the other side's move.
	opponent(m engine.Move)
}

// TestSiteMatch plays a match between two sides, each the engine of the
// exported site in headless Chromium's worker (browser:EVAL, one tab a
// side, both in one Chromium) or the same engine native in this process
// (native:EVAL), at the same time a move and the browser's hash size,
// with each 3-move ballot played twice, colours reversed, one game at a
// time, and logs the first side's result: its tally, Elo with its 95%
// interval and pentanomial counts, and the SPRT's state when one is
// asked for. A browser side's page keeps the game and its back end plays
// the side's moves; the other side's moves are played through the
// page's API. Measurements:
//
//	go test ./internal/gui -run TestSiteMatch -v -site-measure -site-match-pairs 10 -site-match-ms 200
//	go test ./internal/gui -run TestSiteMatch -v -site-measure -timeout 3h -site-match-a browser:nn -site-match-b browser:pattern \
//		-site-match-games 100 -site-match-ms 200 -site-match-sprt elo0=0,elo1=10 -site-match-pdn /tmp/gate.pdn
func TestSiteMatch(t *testing.T) {
	if !*measure {
		t.Skip("a measurement: run with -site-measure")
	}
	var sprt *elo.SPRT
	if *matchSPRT != "" {
		var err error
		if sprt, err = match.ParseSPRT(*matchSPRT); err != nil {
			t.Fatalf("-site-match-sprt: %v", err)
		}
	}
	names := [2]string{*matchA, *matchB}
	var sides [2]matchSide
	var site *site
	for i, spec := range names {
		where, evalSpec, ok := strings.Cut(spec, ":")
		switch {
		case !ok || evalSpec == "":
			t.Fatalf("side %q: want browser:EVAL or native:EVAL", spec)
		case where == "native":
			sides[i] = newNativeSide(t, evalSpec)
		case where == "browser":
			if site == nil {
				site = openSite(t, 6*time.Hour)
				sides[i] = newBrowserSide(t, site.browser, evalSpec)
			} else {
				sides[i] = newBrowserSide(t, site.newTab(), evalSpec)
			}
		default:
			t.Fatalf("side %q: want browser:EVAL or native:EVAL", spec)
		}
	}
	pairs := *matchPairs
	if *matchGames > 0 {
		pairs = (*matchGames + 1) / 2
	}
	ballots := books.ThreeMove()
	var tally elo.Tally
	var games []*pdn.Game
	for i := range min(pairs, len(ballots)) {
		pair := 0
		for _, aBlack := range []bool{true, false} {
			g := playSiteGame(t, sides, names, ballots[i], aBlack, len(games)+1)
			games = append(games, g)
			if *matchPDN != "" {
				if err := pdn.WriteFile(*matchPDN, games...); err != nil {
					t.Fatal(err)
				}
			}
			half := halfPointsOf(g, aBlack)
			tally.Add(half)
			pair += half
		}
		tally.AddPair(pair)
		e, lo, hi := tally.Elo()
		line := fmt.Sprintf("after %s: %s %s, Elo %s %s, pentanomial %v", ballots[i].Name, names[0], tally, elo.FormatElo(e), elo.FormatInterval(lo, hi), tally.Penta)
		if sprt != nil {
			d, llr := sprt.Decide(tally.Penta)
			lower, upper := sprt.Bounds()
			line += fmt.Sprintf(", SPRT elo0=%g elo1=%g alpha=%g beta=%g: LLR %.3f, bounds (%.3f, %.3f): %s", sprt.Elo0, sprt.Elo1, sprt.Alpha, sprt.Beta, llr, lower, upper, d)
			if d != elo.Continue {
				t.Log(line)
				break
			}
		}
		t.Log(line)
	}
	e, lo, hi := tally.Elo()
	t.Logf("%s against %s at %d ms a move: %s, Elo %s %s, LOS %.1f%%, %d pairs, pentanomial %v",
		names[0], names[1], *matchMs, tally, elo.FormatElo(e), elo.FormatInterval(lo, hi), 100*tally.LOS(), tally.Pairs(), tally.Penta)
}

// playSiteGame plays one game from a ballot between the two sides, the
// first Black when aBlack, and returns its record, tagged.
func playSiteGame(t *testing.T, sides [2]matchSide, names [2]string, ballot books.Ballot, aBlack bool, round int) *pdn.Game {
	t.Helper()
	black, white := 0, 1
	if !aBlack {
		black, white = 1, 0
	}
	sides[black].start(ballot.Name, engine.Black)
	sides[white].start(ballot.Name, engine.White)
	rec, err := ballot.Play()
	if err != nil {
		t.Fatalf("ballot %s: %v", ballot.Name, err)
	}
	for rec.Result().Outcome == engine.Ongoing {
		mover, other := black, white
		if rec.Current().Side == engine.White {
			mover, other = white, black
		}
		m := sides[mover].move(rec.Positions())
		if err := rec.Play(m); err != nil {
			pos := rec.Current()
			t.Fatalf("%s's move %s in %s: %v", names[mover], m, pos.FEN(), err)
		}
		sides[other].opponent(m)
	}
	r := rec.Result()
	t.Logf("game %d, %s, %s Black, %s White: %s after %d plies", round, ballot.Name, names[black], names[white], r, rec.Ply())
	g := pdn.FromRecord(rec)
	g.SetTag("Event", fmt.Sprintf("TestSiteMatch, %d ms a move", *matchMs))
	g.SetTag("Date", time.Now().UTC().Format("2006.01.02"))
	g.SetTag("Round", fmt.Sprint(round))
	g.SetTag("Black", names[black])
	g.SetTag("White", names[white])
	g.SetTag("Opening", ballot.Name)
	g.SetTag("Result", r.PDN())
	return g
}

// halfPointsOf returns the first side's half-points in a finished game.
func halfPointsOf(g *pdn.Game, aBlack bool) int {
	o := engine.OutcomeOfPDN(g.Tag("Result"))
	a := engine.White
	if aBlack {
		a = engine.Black
	}
	switch o {
	case engine.WinFor(a):
		return 2
	case engine.WinFor(a.Opponent()):
		return 0
	}
	return 1
}

// nativeSide is a side played by the engine in this process.
type nativeSide struct {
	t   *testing.T
	eng *player.Engine
}

// newNativeSide returns a native side with the evaluator spec and the
// browser's option defaults (its hash size).
func newNativeSide(t *testing.T, spec string) *nativeSide {
	sess, err := session.New(session.Config{Defaults: browserDefaults(spec)})
	if err != nil {
		t.Fatalf("native:%s: %v", spec, err)
	}
	sess.Ready()
	return &nativeSide{t: t, eng: sess.Engine()}
}

func (n *nativeSide) start(string, engine.Color) {}

func (n *nativeSide) opponent(engine.Move) {}

func (n *nativeSide) move(positions []engine.Position) engine.Move {
	pos := positions[len(positions)-1]
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := n.eng.Search(ctx, pos, positions[:len(positions)-1], player.Limits{MoveTime: time.Duration(*matchMs) * time.Millisecond}, nil)
	if !r.HasMove {
		n.t.Fatalf("the native engine found no move in %s", pos.FEN())
	}
	return r.Best
}

// browserSide is a side played by the site's engine in one tab.
type browserSide struct {
	b *browser
}

// newBrowserSide sets the evaluator of the site open in b.
func newBrowserSide(t *testing.T, b *browser, spec string) *browserSide {
	siteCall(t, b, "/api/options", map[string]string{"name": "Eval", "value": spec}, nil)
	var opts struct {
		Options []struct{ Name, Value string }
	}
	siteCall(t, b, "/api/options", nil, &opts)
	for _, o := range opts.Options {
		if o.Name == "Eval" && o.Value == spec {
			return &browserSide{b: b}
		}
	}
	t.Fatalf("browser:%s: the page's options after Eval %s: %+v", spec, spec, opts.Options)
	return nil
}

// level is the page's level of a match move.
func (s *browserSide) level() map[string]any {
	return map[string]any{"kind": "movetime", "movetimeMs": *matchMs, "depth": 8, "clockS": 300, "incS": 2}
}

func (s *browserSide) start(ballot string, c engine.Color) {
	t := s.b.t
	siteCall(t, s.b, "/api/engine", map[string]any{"black": false, "white": false, "level": s.level()}, nil)
	siteCall(t, s.b, "/api/new", map[string]string{"ballot": ballot}, nil)
	siteCall(t, s.b, "/api/engine", map[string]any{"black": c == engine.Black, "white": c == engine.White, "level": s.level()}, nil)
}

func (s *browserSide) opponent(m engine.Move) {
	siteCall(s.b.t, s.b, "/api/play", map[string][]string{"moves": {m.String()}}, nil)
}

func (s *browserSide) move(positions []engine.Position) engine.Move {
	t := s.b.t
	ply := len(positions) - 1
	var st siteState
	for {
		siteCall(t, s.b, "/api/state", nil, &st)
		if len(st.Moves) > ply {
			break
		}
		time.Sleep(20 * time.Millisecond) // the browser is thinking
	}
	if len(st.Moves) != ply+1 {
		t.Fatalf("the page has %d moves where the game has %d and one to come", len(st.Moves), ply)
	}
	pos := positions[ply]
	m, err := pos.ParseMove(st.Moves[ply].Full)
	if err != nil {
		t.Fatalf("the page's move %s: %v", st.Moves[ply].Full, err)
	}
	return m
}

// newTab opens the site in another tab of the same Chromium.
func (st *site) newTab() *browser {
	ctx, cancel := chromedp.NewContext(st.ctx)
	st.t.Cleanup(cancel)
	b := &browser{t: st.t, ctx: ctx}
	b.loadSite(st.url)
	return b
}

// siteState is the part of the page's state the match reads.
type siteState struct {
	Side  string `json:"side"`
	Moves []struct {
		Full string `json:"full"`
	} `json:"moves"`
}

// siteCall calls the page's back end through the page's own transport
// and decodes the answer into out (when not nil).
func siteCall(t *testing.T, b *browser, path string, body any, out any) {
	t.Helper()
	arg := "undefined"
	if body != nil {
		data, _ := json.Marshal(body)
		arg = string(data)
	}
	text, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](fmt.Sprintf(
		`import('./assets/api.js').then(m => m.call(%q, %s)).then(v => JSON.stringify(v))`, path, arg), chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if out != nil {
		if err := json.Unmarshal([]byte(text), out); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
	}
}
