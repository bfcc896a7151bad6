package engine

import (
	"math/rand/v2"
	"testing"
)

// forRandomGames plays n random games from the start and calls visit on every
// position reached, the start included.
func forRandomGames(t *testing.T, n int, visit func(p *Position)) {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	for g := 0; g < n; g++ {
		p := StartPosition()
		var l MoveList
		for ply := 0; ply < 200; ply++ {
			visit(&p)
			p.Generate(&l)
			if l.N == 0 {
				break
			}
			p = p.Play(l.Moves[rng.IntN(l.N)])
		}
	}
}

func TestIncrementalHashMatchesScratch(t *testing.T) {
	forRandomGames(t, 300, func(p *Position) {
		if got, want := p.Hash, p.ComputeHash(); got != want {
			t.Fatalf("%s: incremental hash %x, from scratch %x", p.FEN(), got, want)
		}
	})
}

func TestPlayLeavesParentUnchanged(t *testing.T) {
	forRandomGames(t, 100, func(p *Position) {
		before := *p
		var l MoveList
		p.Generate(&l)
		for _, m := range l.Slice() {
			_ = p.Play(m)
		}
		if *p != before {
			t.Fatalf("Play changed its receiver %s", before.FEN())
		}
	})
}

func TestBoardInvariants(t *testing.T) {
	forRandomGames(t, 300, func(p *Position) {
		switch {
		case p.Pieces[Black]&p.Pieces[White] != 0:
			t.Fatalf("%s: a square holds both colours", p.FEN())
		case p.Occupied()&^BoardMask != 0:
			t.Fatalf("%s: a piece off the board", p.FEN())
		case p.Kings&^p.Occupied() != 0:
			t.Fatalf("%s: a king bit on an empty square", p.FEN())
		case p.Men(Black)&blackCrownRow != 0 || p.Men(White)&whiteCrownRow != 0:
			t.Fatalf("%s: an uncrowned man on its crowning row", p.FEN())
		}
	})
}

func TestRotatedTwiceIsIdentity(t *testing.T) {
	forRandomGames(t, 50, func(p *Position) {
		r := p.Rotated()
		back := r.Rotated()
		if !back.SameBoard(p) || back.Hash != p.Hash {
			t.Fatalf("%s: rotating twice gives %s", p.FEN(), back.FEN())
		}
		if Perft(p, 3) != Perft(&r, 3) {
			t.Fatalf("%s: perft differs from its rotation %s", p.FEN(), r.FEN())
		}
	})
}

// TestLoopCapture plays king captures that end on their start square: the
// king stays, every captured piece goes, and the hash agrees.
func TestLoopCapture(t *testing.T) {
	for _, fen := range []string{"B:W14,15,22,23:BK10", "W:WK1,K2:B6,7,14,15"} {
		p, err := ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		var l MoveList
		p.Generate(&l)
		loops := 0
		for _, m := range l.Slice() {
			if m.From != m.To {
				continue
			}
			loops++
			q := p.Play(m)
			from := uint64(1) << m.From
			if q.Pieces[p.Side]&q.Kings&from == 0 || q.Pieces[p.Side.Opponent()] != p.Pieces[p.Side.Opponent()]&^m.Captured || q.Hash != q.ComputeHash() {
				t.Errorf("%s: %v gives %s", fen, m, q.FEN())
			}
		}
		if loops == 0 {
			t.Errorf("%s: no capture ends on its start square", fen)
		}
	}
}
