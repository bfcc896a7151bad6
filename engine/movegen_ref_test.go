package engine

import (
	"math/bits"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// This file keeps the first, plain move generator as the reference that
// Generate must match move for move and in the same order: the search's
// table stores a position's best move by its index in the generated list,
// and move ordering breaks ties by that index, so the order is part of the
// search's behaviour (its bench signature).

var refDirRotation = [4]int{4, 5, -4, -5}

func refStep(b uint64, d int) uint64 { return bits.RotateLeft64(b, refDirRotation[d&3]) }

var refForwardDirs = [2][2]int{{dirDown4, dirDown5}, {dirUp4, dirUp5}}

var refReverseDir = [4]int{dirUp4, dirUp5, dirDown4, dirDown5}

// referenceGenerate is the first Generate: captures walked one direction
// at a time from every piece with a first jump, or else the steps.
func referenceGenerate(p *Position) []Move {
	us := p.Side & 1
	own, opp := p.Pieces[us], p.Pieces[us^1]
	empty := BoardMask &^ (own | opp)
	kings := own & p.Kings
	var out []Move
	for d := 0; d < 4; d++ {
		movers := kings
		if d>>1 == int(us) {
			movers = own
		}
		back := refReverseDir[d]
		for jumpers := refStep(refStep(empty, back)&opp, back) & movers; jumpers != 0; jumpers &= jumpers - 1 {
			from := bits.TrailingZeros64(jumpers)
			fromBB := uint64(1) << from
			w := refWalk{out: &out, opp: opp, empty: empty | fromBB, crown: crownRow[us], side: us, from: uint8(from), king: kings&fromBB != 0}
			over := refStep(fromBB, d)
			land := refStep(over, d)
			if !w.king && land&w.crown != 0 {
				w.record(bits.TrailingZeros64(land), over, uint32(d), 1, true)
				continue
			}
			w.walk(bits.TrailingZeros64(land), over, uint32(d), 1)
		}
	}
	if len(out) > 0 {
		return out
	}
	dirs := [2][2]int{refForwardDirs[us], refForwardDirs[us^1]}
	for k, movers := range [2]uint64{own, kings} {
		for _, d := range dirs[k] {
			for targets := refStep(movers, d) & empty; targets != 0; targets &= targets - 1 {
				to := bits.TrailingZeros64(targets)
				from := to - dirDelta[d]
				man := p.Kings&(1<<from) == 0
				out = append(out, Move{From: uint8(from), To: uint8(to), Path: uint32(d), Crowns: man && crownRow[us]&(1<<to) != 0})
			}
		}
	}
	return out
}

type refWalk struct {
	out   *[]Move
	opp   uint64
	empty uint64
	crown uint64
	side  Color
	from  uint8
	king  bool
}

func (w *refWalk) walk(cur int, captured uint64, path uint32, n uint8) {
	curBB := uint64(1) << cur
	jumpable := w.opp &^ captured
	extended := false
	for d := 0; d < 4; d++ {
		if !w.king && d>>1 != int(w.side) {
			continue
		}
		over := refStep(curBB, d) & jumpable
		if over == 0 {
			continue
		}
		land := refStep(over, d) & w.empty
		if land == 0 {
			continue
		}
		extended = true
		to := bits.TrailingZeros64(land)
		if !w.king && land&w.crown != 0 {
			w.record(to, captured|over, path|uint32(d)<<(2*n), n+1, true)
			continue
		}
		w.walk(to, captured|over, path|uint32(d)<<(2*n), n+1)
	}
	if !extended {
		w.record(cur, captured, path, n, false)
	}
}

func (w *refWalk) record(to int, captured uint64, path uint32, n uint8, crowns bool) {
	*w.out = append(*w.out, Move{Captured: captured, Path: path, From: w.from, To: uint8(to), Jumps: n, Crowns: crowns})
}

// referencePositions are positions with many kings and long capture
// sequences, which random games from the start reach too rarely.
var referencePositions = []string{
	"W:WK2,13,15,27,31:B1,6,9,12,K25",
	"B:W14,15,22,23:BK10",
	"W:WK1,K2:B6,7,14,15",
	"B:WK10,K19,K27,14,15,22,23:BK1,K5,K32",
	"W:WK5,K30:B6,7,10,14,15,18,19,22,23,26,27",
	"B:W6,7,10,14,15,18,19,22,23,26,27:BK1,K2,K29",
	"W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12",
	"B:W25,26,27,28,18,19,20,10,11,12:B1,2,3,4,K14,K15,K16,K22,K23",
}

// TestGenerateMatchesReference checks Generate, GenerateCaptures and
// GenerateQuiet against the reference generator, order included, along
// random games and in the constructed positions.
func TestGenerateMatchesReference(t *testing.T) {
	check := func(p *Position) {
		want := referenceGenerate(p)
		var l MoveList
		p.Generate(&l)
		if !slices.Equal(want, l.Slice()) {
			t.Fatalf("%s: Generate (-reference +got):\n%s", p.FEN(), cmp.Diff(want, l.Slice(), cmpopts.EquateEmpty()))
		}
		capture := len(want) > 0 && want[0].Jumps > 0
		if p.HasCapture() != capture {
			t.Fatalf("%s: HasCapture = %v, reference moves %v", p.FEN(), !capture, want)
		}
		if capture {
			p.GenerateCaptures(&l)
		} else {
			if p.GenerateCaptures(&l); l.N != 0 {
				t.Fatalf("%s: GenerateCaptures gives %v without a capture", p.FEN(), l.Slice())
			}
			p.GenerateQuiet(&l)
		}
		if !slices.Equal(want, l.Slice()) {
			t.Fatalf("%s: GenerateCaptures/GenerateQuiet (-reference +got):\n%s", p.FEN(), cmp.Diff(want, l.Slice(), cmpopts.EquateEmpty()))
		}
	}
	forRandomGames(t, 300, check)
	for _, fen := range referencePositions {
		p, err := ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		check(&p)
		r := p.Rotated()
		check(&r)
	}
}
