package search

import (
	"math/rand/v2"
	"testing"

	"github.com/nechecb/nechecb/engine"
)

// TestSmotheredMatchesMoveList checks smothered against its definition
// read off the generated moves: in random positions without a capture, the
// side to move is smothered when it has kings, no king has a move, and at
// least half of its pieces have none.
func TestSmotheredMatchesMoveList(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var yes, no int
	for i := 0; i < 100000; i++ {
		var p engine.Position
		for sq := 1; sq <= 32; sq++ {
			switch rng.IntN(3) {
			case 0:
				p.SetPiece(sq, engine.BlackMan+engine.Piece(rng.IntN(2)))
			case 1:
				p.SetPiece(sq, engine.BlackKing+engine.Piece(rng.IntN(2)))
			}
		}
		p.Side = engine.Color(rng.IntN(2))
		if p.HasCapture() {
			continue
		}
		var l engine.MoveList
		p.GenerateQuiet(&l)
		var movers uint64
		for _, m := range l.Slice() {
			movers |= 1 << (m.From & 63)
		}
		own := p.Pieces[p.Side&1]
		kings := own & p.Kings
		want := kings != 0 && kings&movers == 0 && popcount(own&^movers) >= popcount(own)/2
		if got := smothered(&p); got != want {
			t.Fatalf("%s: smothered %v, want %v", p.FEN(), got, want)
		}
		if want {
			yes++
		} else {
			no++
		}
	}
	if yes < 50 || no < 50 {
		t.Fatalf("the random positions cover too little: %d smothered, %d not", yes, no)
	}
}
