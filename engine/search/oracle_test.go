package search

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/egdb"
)

// dbOracle puts an egdb.DB behind Oracle for the tests (the program's own
// adapter lives in internal/player).
type dbOracle struct{ db *egdb.DB }

func (o dbOracle) Pieces() int { return o.db.Pieces() }

func (o dbOracle) Probe(p *engine.Position) Outcome {
	switch o.db.Probe(p) {
	case egdb.Win:
		return KnownWin
	case egdb.Loss:
		return KnownLoss
	case egdb.Draw:
		return KnownDraw
	}
	return Unknown
}

// buildDB builds the database of up to pieces pieces into a temporary
// directory and opens it.
func buildDB(t testing.TB, pieces int) *egdb.DB {
	t.Helper()
	dir := t.TempDir()
	if err := egdb.Build(context.Background(), egdb.BuildOptions{Dir: dir, Pieces: pieces, Threads: 2}); err != nil {
		t.Fatal(err)
	}
	db, err := egdb.Open(dir, 8)
	if err != nil {
		t.Fatal(err)
	}
	if len(db.Problems()) > 0 || db.Pieces() != pieces {
		t.Fatalf("database of %d pieces: %d pieces, problems %v", pieces, db.Pieces(), db.Problems())
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// randomEnding returns a random legal position of n pieces, each side
// with at least one, men off their crowning rows.
func randomEnding(r *rand.Rand, n int) string {
	used := map[int]bool{}
	var side [2][]string
	for i := range n {
		c := i % 2
		if i >= 2 {
			c = r.IntN(2)
		}
		for {
			sq := 1 + r.IntN(32)
			king := r.IntN(2) == 0
			if used[sq] || !king && (c == 0 && sq > 28 || c == 1 && sq < 5) {
				continue
			}
			used[sq] = true
			name := fmt.Sprint(sq)
			if king {
				name = "K" + name
			}
			side[c] = append(side[c], name)
			break
		}
	}
	turn := "BW"[r.IntN(2)]
	return fmt.Sprintf("%c:W%s:B%s", turn, strings.Join(side[1], ","), strings.Join(side[0], ","))
}

// TestOracleValues searches random endings the database holds and checks
// that the search's score agrees with the database and that the best move
// keeps the value: a win moves to a position the opponent loses, a draw
// to one the opponent does not win.
func TestOracleValues(t *testing.T) {
	pieces := 4
	if testing.Short() {
		pieces = 3
	}
	db := buildDB(t, pieces)
	s := New(Options{HashMB: 4}, nil)
	s.SetOracle(dbOracle{db})
	r := rand.New(rand.NewPCG(13, 2))
	counts := map[egdb.Value]int{}
	for range 300 {
		fen := randomEnding(r, 2+r.IntN(pieces-1))
		pos := mustFEN(t, fen)
		v := db.Probe(&pos)
		if pos.LegalMoves() == nil || v == egdb.Unknown {
			continue
		}
		counts[v]++
		res := depthSearch(t, s, pos, 6)
		if want := (dbOracle{db}).Probe(&pos); res.Known != want {
			t.Errorf("%s: Known %v, want %v", fen, res.Known, want)
		}
		after := pos.Play(res.Best)
		next := db.Probe(&after)
		switch {
		case v == egdb.Win && !(res.Score.IsWin() || res.Score.IsKnownWin()):
			t.Errorf("%s: database win, search scores %v", fen, res.Score)
		case v == egdb.Loss && !(res.Score.IsLoss() || res.Score.IsKnownLoss()):
			t.Errorf("%s: database loss, search scores %v", fen, res.Score)
		case v == egdb.Draw && res.Score != DrawScore:
			t.Errorf("%s: database draw, search scores %v", fen, res.Score)
		case v == egdb.Win && next != egdb.Loss:
			t.Errorf("%s: database win, best move %v leaves the opponent a %v", fen, res.Best, next)
		case v == egdb.Draw && next == egdb.Win:
			t.Errorf("%s: database draw, best move %v loses", fen, res.Best)
		}
		if res.TBHits == 0 {
			t.Errorf("%s: no tbhits", fen)
		}
	}
	if counts[egdb.Win] == 0 || counts[egdb.Draw] == 0 || counts[egdb.Loss] == 0 {
		t.Fatalf("the random positions cover too little: %v", counts)
	}
}

// TestOracleKeepsActualWins checks that a win the search proves still
// outranks the database's wins, at its own distance, and that the oracle
// settles the root's neighbourhood without a deep search.
func TestOracleKeepsActualWins(t *testing.T) {
	db := buildDB(t, 3)
	for _, c := range forcedWins {
		if !strings.Contains(c.name, "2 kings") || testing.Short() && c.depth > 32 {
			continue
		}
		pos := mustFEN(t, c.fen)
		s := New(Options{HashMB: 16}, nil)
		s.SetOracle(dbOracle{db})
		res := depthSearch(t, s, pos, c.depth)
		if !res.Score.IsWin() || res.Score.Plies() != c.plies {
			t.Errorf("%s: with the database %v, want win %d", c.name, res.Score, c.plies)
		}
		res = depthSearch(t, s, pos, 2)
		if !res.Score.IsKnownWin() || res.Known != KnownWin {
			t.Errorf("%s at depth 2: %v (known %v), want a database win", c.name, res.Score, res.Known)
		}
	}
}

// TestNoOracleBeyondItsPieces checks that positions with more pieces than
// the oracle holds, whose tree never reaches it, search exactly as without.
func TestNoOracleBeyondItsPieces(t *testing.T) {
	db := buildDB(t, 3)
	pos := engine.StartPosition()
	plain := depthSearch(t, New(Options{HashMB: 4}, nil), pos, 7)
	s := New(Options{HashMB: 4}, nil)
	s.SetOracle(dbOracle{db})
	with := depthSearch(t, s, pos, 7)
	if with.Nodes != plain.Nodes || with.Score != plain.Score || with.Best != plain.Best || with.TBHits != 0 || with.Known != Unknown {
		t.Errorf("with an unused oracle: %+v; without: %+v", with, plain)
	}
}

// TestOracleThreads searches a database ending with several threads, for
// the race detector, and checks the result and the summed hits.
func TestOracleThreads(t *testing.T) {
	db := buildDB(t, 3)
	s := New(Options{HashMB: 4, Threads: 3}, nil)
	s.SetOracle(dbOracle{db})
	pos := mustFEN(t, "W:WK1:BK31,K32")
	res := depthSearch(t, s, pos, 12)
	if res.Known != KnownLoss || !(res.Score.IsLoss() || res.Score.IsKnownLoss()) || res.TBHits == 0 {
		t.Errorf("3 threads: %v, known %v, %d tbhits; want a loss the database knows", res.Score, res.Known, res.TBHits)
	}
	s.SetOracle(nil)
	if res := depthSearch(t, s, pos, 4); res.Known != Unknown || res.TBHits != 0 || res.Score.IsKnownLoss() {
		t.Errorf("oracle removed: %v, known %v, %d tbhits", res.Score, res.Known, res.TBHits)
	}
}
