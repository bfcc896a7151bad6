package main

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/nechecb/nechecb/books"
	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/egdb"
	"github.com/nechecb/nechecb/engine/egdb/embedded"
)

// API result codes and info bits, as CheckerBoard has them.
const (
	cbDraw, cbWin, cbLoss, cbUnknown = 0, 1, 2, 3
	cbResetMoves, cbExactTime        = 1, 2
)

// moved is the harness's answer to one getmove.
type moved struct {
	index, result int
	ms            float64
	status        string
}

func parseMoved(t *testing.T, line string) moved {
	t.Helper()
	f := strings.SplitN(line, " ", 5)
	if len(f) < 4 || f[0] != "moved" {
		t.Fatalf("harness: %q, want a moved line", line)
	}
	var m moved
	var err1, err2, err3 error
	m.index, err1 = strconv.Atoi(f[1])
	m.result, err2 = strconv.Atoi(f[2])
	m.ms, err3 = strconv.ParseFloat(f[3], 64)
	if err1 != nil || err2 != nil || err3 != nil {
		t.Fatalf("harness: %q", line)
	}
	if len(f) == 5 {
		m.status = f[4]
	}
	return m
}

// timeMode is how one game's clock works.
type timeMode struct {
	name    string
	maxtime float64 // seconds
	info    int
	// clock and inc, in ms, run CheckerBoard's incremental clock when clock > 0.
	clock, inc float64
}

var timeModes = []timeMode{
	{name: "average 0.02 s", maxtime: 0.02},
	{name: "exact 0.02 s", maxtime: 0.02, info: cbExactTime},
	{name: "incremental 2 s + 0.02 s (ms units)", maxtime: 0.1, info: 1 << 2, clock: 2000, inc: 20},
}

// gameRecord is one harness game, for the log.
type gameRecord struct {
	ballot, mode string
	plies        int
	result       engine.Result
	claims       []string
	thinking     int // moves whose final status line shows a search
	ms           float64
}

// playGame plays one game of the library against itself from ballot, each
// move through "set gamehist" and getmove, and checks every returned board
// and result code against the rules.
func playGame(t *testing.T, h *harness, ballot books.Ballot, mode timeMode) gameRecord {
	t.Helper()
	// The plugin's default database is the one built in; a draw it claims
	// from there is checked against the same database.
	db, err := embedded.Open(8)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	g, err := ballot.Play()
	if err != nil {
		t.Fatal(err)
	}
	rec := gameRecord{ballot: ballot.Name, mode: mode.name}
	clock := mode.clock
	claimed := map[engine.Color]int{} // a win or loss each side claimed, if any
	for ply := 0; g.Result().Outcome == engine.Ongoing; ply++ {
		if ply >= 600 {
			t.Fatalf("%s: no end after %d plies", ballot.Name, ply)
		}
		cur := g.Current()
		moves := cur.LegalMoves()
		info, moreinfo := mode.info, 0
		if ply == 0 {
			info |= cbResetMoves
		}
		if clock > 0 {
			moreinfo = int(math.Max(clock, 5))<<16 | int(mode.inc)
		}
		h.send(fmt.Sprintf("move %d %g %d %d %d", colorArg(&cur), mode.maxtime, info, moreinfo, len(moves)), gameHist(g))
		h.send(successors(&cur, moves)...)
		ans := parseMoved(t, h.read())
		if ans.index < 0 {
			t.Fatalf("%s ply %d (%s): the returned board is no legal move's (%d): %s", ballot.Name, ply, cur.FEN(), ans.index, ans.status)
		}
		if err := g.Play(moves[ans.index]); err != nil {
			t.Fatal(err)
		}
		rec.ms += ans.ms
		if strings.Contains(ans.status, "depth ") {
			rec.thinking++
		}
		if clock > 0 {
			clock += mode.inc - ans.ms
		}
		after := g.Result()
		switch {
		case after.Outcome == engine.Draw && ans.result != cbDraw:
			t.Errorf("%s ply %d: the move draws (%s) but getmove returned %d", ballot.Name, ply, after.Reason, ans.result)
		case after.Outcome == engine.WinFor(cur.Side) && ans.result != cbWin:
			t.Errorf("%s ply %d: the move wins (%s) but getmove returned %d", ballot.Name, ply, after.Reason, ans.result)
		case ans.result == cbDraw && strings.Contains(ans.status, "draw: endgame database"):
			if v := db.Probe(&cur); v != egdb.Draw {
				t.Errorf("%s ply %d: getmove claimed a database draw where the database says %s: %s", ballot.Name, ply, v, ans.status)
			}
		case ans.result == cbDraw && after.Outcome != engine.Draw:
			t.Errorf("%s ply %d: getmove returned a draw the rules do not make: %s", ballot.Name, ply, ans.status)
		case ans.result == cbWin || ans.result == cbLoss:
			if _, ok := claimed[cur.Side]; !ok {
				claimed[cur.Side] = ans.result
				rec.claims = append(rec.claims, fmt.Sprintf("%s claims %s at ply %d", cur.Side, map[int]string{cbWin: "a win", cbLoss: "a loss"}[ans.result], ply))
			}
		}
	}
	rec.plies, rec.result = g.Ply(), g.Result()
	for side, claim := range claimed {
		lost := rec.result.Outcome == engine.WinFor(side.Opponent())
		won := rec.result.Outcome == engine.WinFor(side)
		if (claim == cbWin && lost) || (claim == cbLoss && won) {
			t.Errorf("%s: %s claimed %d but the game ended %s", ballot.Name, side, claim, rec.result)
		}
	}
	return rec
}

func TestHarnessPlaysWholeGamesLikeCheckerBoard(t *testing.T) {
	h := startHarness(t)
	standard, err := books.Standard("3move")
	if err != nil {
		t.Fatal(err)
	}
	// Under -short one whole game, in the first time mode; six without,
	// every mode twice.
	n := 6
	if testing.Short() {
		n = 1
	}
	for i := 0; i < n; i++ {
		ballot := standard[(i*37)%len(standard)]
		rec := playGame(t, h, ballot, timeModes[i%len(timeModes)])
		moves := rec.plies - len(ballot.Moves)
		t.Logf("%s, %s: %s %s after %d plies (%d by the engine, %d searched, %.1f ms a move) %s",
			rec.ballot, rec.mode, rec.result.PDN(), rec.result, rec.plies, moves, rec.thinking, rec.ms/float64(max(moves, 1)), strings.Join(rec.claims, "; "))
		if rec.thinking == 0 {
			t.Errorf("%s: no move of the game shows a search", rec.ballot)
		}
	}
}

func TestHarnessBadInputsComeBackCleanly(t *testing.T) {
	h := startHarness(t)
	h.send("bad")
	checks := 0
	for {
		line := h.read()
		if strings.HasPrefix(line, "bad-done ") {
			if line != "bad-done 0" {
				t.Errorf("harness: %s", line)
			}
			break
		}
		f := strings.SplitN(line, " ", 4)
		if len(f) < 3 || f[0] != "check" {
			t.Fatalf("harness: %q", line)
		}
		checks++
		if f[2] != "ok" {
			t.Errorf("bad input %s: %s", f[1], line)
		}
	}
	if checks != 22 {
		t.Errorf("%d checks ran, want 22", checks)
	}
	// The engine still plays after all that.
	start := engine.StartPosition()
	moves := start.LegalMoves()
	h.send(fmt.Sprintf("move 2 0.02 0 0 %d", len(moves)), "set gamehist "+start.FEN())
	h.send(successors(&start, moves)...)
	if ans := parseMoved(t, h.read()); ans.index < 0 || ans.result != cbUnknown {
		t.Errorf("first move after the bad inputs: %+v", ans)
	}
}

func TestHarnessPlayNowBringsTheMoveBack(t *testing.T) {
	h := startHarness(t)
	// A 30 s search of a middle-game position; "play now" 200 ms in.
	pos, err := engine.ParseFEN("B:W17,21,22,23,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,10,11,12,15")
	if err != nil {
		t.Fatal(err)
	}
	moves := pos.LegalMoves()
	var worst float64
	for run := 0; run < 3; run++ {
		h.send(fmt.Sprintf("playnow %d 30 %d 200 %d", colorArg(&pos), cbExactTime, len(moves)))
		h.send(successors(&pos, moves)...)
		line := h.read()
		var index, result int
		var total, latency float64
		var reads, unterminated, thinking int
		var status string
		n, err := fmt.Sscanf(line, "playnow %d %d %g %g %d %d %d", &index, &result, &total, &latency, &reads, &unterminated, &thinking)
		if n != 7 {
			t.Fatalf("harness: %q (%v)", line, err)
		}
		if f := strings.SplitN(line, " ", 9); len(f) == 9 {
			status = f[8]
		}
		t.Logf("play now: returned %.2f ms after the flag (%.1f ms in all); status read %d times while thinking, %d with a search line, %d unterminated",
			latency, total, reads, thinking, unterminated)
		switch {
		case index < 0:
			t.Errorf("the board returned after play now is no legal move's: %s", status)
		case total < 200:
			t.Errorf("the search ended after %.1f ms, before play now", total)
		case latency > 1000:
			// A search that missed the flag would run its 30 s; the bound
			// is loose so that a loaded machine does not fail the test (the
			// latency itself is logged above: a few ms on a quiet machine).
			t.Errorf("the move came %.1f ms after play now, want under 1000", latency)
		case unterminated > 0 || thinking == 0:
			t.Errorf("status line: %d unterminated reads, %d with a search line, of %d", unterminated, thinking, reads)
		case !strings.HasPrefix(status, "best "):
			t.Errorf("final status %q", status)
		}
		worst = max(worst, latency)
	}
	t.Logf("play now: worst latency %.2f ms", worst)
}
