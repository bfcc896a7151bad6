package pattern

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/eval/evaltest"
)

// referenceFeatures computes the features of p straight from their
// definitions, square by square through PieceAt and SquareCoords, with none
// of the bitboard tables the package uses: the yardstick for Extract and
// Evaluator.
func referenceFeatures(p *engine.Position) Features {
	// at returns the content of oriented square s: 1 for a piece of the side
	// to move, 2 for an opponent's, 0 for none, and whether it is a king.
	at := func(s int) (int, bool) {
		sq := s
		if p.Side == engine.White {
			sq = 33 - s
		}
		pc := p.PieceAt(sq)
		if pc == engine.Empty {
			return 0, false
		}
		black := pc == engine.BlackMan || pc == engine.BlackKing
		king := pc == engine.BlackKing || pc == engine.WhiteKing
		if black == (p.Side == engine.Black) {
			return 1, king
		}
		return 2, king
	}
	var f Features
	for w := range NumWindows {
		idx, d := 0, 1
		for _, s := range WindowSquaresOf(w) {
			c, _ := at(s)
			idx += c * d
			d *= 3
		}
		f.Windows[w] = uint16(idx)
	}
	// inCone reports whether square t lies in the forward cone of a man of
	// side who (1: plays toward higher rows, 2: toward lower ones) on s.
	inCone := func(who, s, t int) bool {
		r, c := engine.SquareCoords(s)
		rt, ct := engine.SquareCoords(t)
		dr := rt - r
		if who == 2 {
			dr = -dr
		}
		return dr > 0 && abs(ct-c) <= dr
	}
	var men, kings, runaways [3]int
	pieces := 0
	for s := 1; s <= 32; s++ {
		who, king := at(s)
		if who == 0 {
			continue
		}
		pieces++
		if king {
			kings[who]++
			if who == 1 {
				f.OwnKings |= 1 << (s - 1)
			} else {
				f.OppKings |= 1 << (s - 1)
			}
			continue
		}
		men[who]++
		free := true
		for t := 1; t <= 32; t++ {
			if other, _ := at(t); other == 3-who && inCone(who, s, t) {
				free = false
			}
		}
		if free {
			runaways[who]++
		}
	}
	f.Globals[GlobalMen] = int8(men[1] - men[2])
	f.Globals[GlobalKings] = int8(kings[1] - kings[2])
	f.Globals[GlobalRunaways] = int8(runaways[1] - runaways[2])
	switch {
	case kings[1] > 0 && kings[2] == 0:
		f.Globals[GlobalSoleKings] = 1
	case kings[2] > 0 && kings[1] == 0:
		f.Globals[GlobalSoleKings] = -1
	}
	f.Pieces = pieces
	f.Ending = referenceEnding(at, men, kings)
	return f
}

// referenceEnding computes the ending terms square by square from at (see
// referenceFeatures) and the counts of men and kings by side (index 1: the
// side to move, 2: the opponent).
func referenceEnding(at func(int) (int, bool), men, kings [3]int) [NumEnding]int16 {
	var mob, rows, tempo, back [3]int
	for s := 1; s <= 32; s++ {
		who, king := at(s)
		if who == 0 {
			continue
		}
		r, c := engine.SquareCoords(s)
		ahead := 1 // the side to move plays toward row 7
		if who == 2 {
			ahead = -1
		}
		for _, dr := range []int{-1, 1} {
			for _, dc := range []int{-1, 1} {
				t := engine.SquareAt(r+dr, c+dc)
				if t == 0 {
					continue
				}
				if other, _ := at(t); other == 0 && (king || dr == ahead) {
					mob[who]++
				}
			}
		}
		if r%2 == 0 {
			rows[who]++
		}
		if !king {
			adv := r
			if who == 2 {
				adv = 7 - r
			}
			tempo[who] += adv
			if adv == 0 {
				back[who]++
			}
		}
	}
	move := 0
	if men[1]+kings[1] == men[2]+kings[2] {
		move = -1
		if (rows[1]+rows[2])%2 == 1 {
			move = 1
		}
	}
	return [NumEnding]int16{
		EndMobility: int16(mob[1] - mob[2]),
		EndTheMove:  int16(move),
		EndTempo:    int16(tempo[1] - tempo[2]),
		EndBackRank: int16(back[1] - back[2]),
		EndKingMen:  int16(kings[1]*men[2] - kings[2]*men[1]),
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// gamePositions plays n whole games from the start and returns every
// position of them: a few random plies for variety, then each side plays
// the move ev likes best one ply ahead (a random one among equals), until
// the side to move has no move or 300 plies are played.
func gamePositions(n int, ev eval.Evaluator, seed uint64) []engine.Position {
	rng := rand.New(rand.NewPCG(seed, 11))
	var out []engine.Position
	var list engine.MoveList
	for range n {
		p := engine.StartPosition()
		random := 2 + rng.IntN(8)
		for ply := 0; ply < 300; ply++ {
			out = append(out, p)
			if p.Generate(&list); list.N == 0 {
				break
			}
			best, bestScore, ties := 0, math.MinInt, 0
			for i := range list.N {
				q := p.Play(list.Moves[i])
				s := -ev.Evaluate(&q)
				if ply < random {
					s = 0
				}
				switch {
				case s > bestScore:
					best, bestScore, ties = i, s, 1
				case s == bestScore:
					if ties++; rng.IntN(ties) == 0 {
						best = i
					}
				}
			}
			p = p.Play(list.Moves[best])
		}
	}
	return out
}

// TestMatchesReference checks, over every position of whole games and over
// random boards, that Extract gives the features of the definition and
// that the evaluator's score and raw value are those of the definition's
// features, with the embedded weights and with random ones.
func TestMatchesReference(t *testing.T) {
	games := 40
	if testing.Short() {
		games = 8
	}
	def := Default()
	positions := gamePositions(games, NewEvaluator(def), 1)
	positions = append(positions, evaltest.RandomPositions(2000, 9)...)
	kings := 0
	for _, p := range positions {
		if p.Kings != 0 {
			kings++
		}
	}
	if kings == 0 || kings == len(positions) {
		t.Fatalf("%d of %d positions have kings: the sample does not cover both", kings, len(positions))
	}
	for name, w := range map[string]*Weights{"embedded": def, "random": randomWeights(8), "random v2": randomModel(V2, 8)} {
		e := NewEvaluator(w)
		var f Features
		for _, p := range positions {
			want := referenceFeatures(&p)
			if Extract(&p, &f); f != want {
				t.Fatalf("%s: Extract gives %+v, the definition %+v", p.FEN(), f, want)
			}
			v := w.Value(&want)
			if got := e.Raw(&p); got != v {
				t.Fatalf("%s (%s): Raw %v, the definition %v", p.FEN(), name, got, v)
			}
			if got, want := e.Evaluate(&p), eval.Clamp(int(math.Floor(v+0.5))); got != want {
				t.Fatalf("%s (%s): Evaluate %d, the definition %d", p.FEN(), name, got, want)
			}
		}
	}
	t.Logf("%d positions, %d with kings", len(positions), kings)
}
