// Package evaltest holds checks that every evaluator kind must pass, written
// once so that each kind's tests can call them: colour symmetry on random
// positions, and no allocation per evaluation. It also makes the random
// positions those checks use.
package evaltest

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/internal/cputime"
)

// RandomPositions returns n positions drawn from a generator seeded with
// seed: half come from random games played from the start (so they are
// reachable), half are random placements of men and kings (so they cover
// boards with many kings and odd material). Men never stand on their own
// crowning row. The same seed gives the same positions.
func RandomPositions(n int, seed uint64) []engine.Position {
	rng := rand.New(rand.NewPCG(seed, 0x6e656368))
	out := make([]engine.Position, 0, n)
	for i := 0; i < n; i++ {
		if i%2 == 0 {
			out = append(out, randomGame(rng))
		} else {
			out = append(out, randomPlacement(rng))
		}
	}
	return out
}

// randomGame plays up to 120 random legal plies from the start.
func randomGame(rng *rand.Rand) engine.Position {
	p := engine.StartPosition()
	var list engine.MoveList
	for plies := rng.IntN(121); plies > 0; plies-- {
		p.Generate(&list)
		if list.N == 0 {
			break
		}
		p = p.Play(list.Moves[rng.IntN(list.N)])
	}
	return p
}

// randomPlacement puts up to 12 pieces of each colour on random squares.
func randomPlacement(rng *rand.Rand) engine.Position {
	var p engine.Position
	for c, man := range [2]engine.Piece{engine.BlackMan, engine.WhiteMan} {
		king := engine.BlackKing
		if c == 1 {
			king = engine.WhiteKing
		}
		for k := rng.IntN(13); k > 0; k-- {
			sq := 1 + rng.IntN(32)
			if p.PieceAt(sq) != engine.Empty {
				continue
			}
			crowning := (man == engine.BlackMan && sq >= 29) || (man == engine.WhiteMan && sq <= 4)
			if crowning || rng.IntN(3) == 0 {
				p.SetPiece(sq, king)
			} else {
				p.SetPiece(sq, man)
			}
		}
	}
	p.Side = engine.Color(rng.IntN(2))
	p.Hash = p.ComputeHash()
	return p
}

// CheckSymmetry fails t for each of n random positions where the board
// turned round with colours and side to move swapped (Position.Rotated) gets
// a different score, or a raw value further apart than 1e-9 relative. It also
// checks that every score lies within ±eval.ScoreLimit and every raw value is
// finite.
func CheckSymmetry(t testing.TB, f eval.Factory, n int) {
	t.Helper()
	e := f()
	for i, p := range RandomPositions(n, 1) {
		r := p.Rotated()
		s, sr := e.Evaluate(&p), e.Evaluate(&r)
		v, vr := e.Raw(&p), e.Raw(&r)
		if s != sr || math.Abs(v-vr) > 1e-9*math.Max(1, math.Abs(v)) {
			t.Errorf("position %d %s: score %d raw %v, but rotated %s: score %d raw %v",
				i, p.FEN(), s, v, r.FEN(), sr, vr)
		}
		if s < -eval.ScoreLimit || s > eval.ScoreLimit {
			t.Errorf("position %d %s: score %d is outside ±%d", i, p.FEN(), s, eval.ScoreLimit)
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Errorf("position %d %s: raw value %v is not finite", i, p.FEN(), v)
		}
	}
}

// CheckNoAllocs fails t if Evaluate or Raw allocates on random positions.
func CheckNoAllocs(t testing.TB, f eval.Factory) {
	t.Helper()
	e := f()
	positions := RandomPositions(16, 2)
	i := 0
	sink := 0
	if a := testing.AllocsPerRun(100, func() {
		sink += e.Evaluate(&positions[i%len(positions)])
		i++
	}); a != 0 {
		t.Errorf("Evaluate allocates %v times per call", a)
	}
	if a := testing.AllocsPerRun(100, func() {
		sink += int(e.Raw(&positions[i%len(positions)]))
		i++
	}); a != 0 {
		t.Errorf("Raw allocates %v times per call", a)
	}
	_ = sink
}

// Bench runs e.Evaluate over a fixed set of random positions b.N times,
// reporting allocations and, where the system tells, the process's CPU time
// per evaluation as "cpu-ns/op": on a shared machine that figure is far less
// inflated by other programs than the wall-clock ns/op.
func Bench(b *testing.B, f eval.Factory) {
	e := f()
	positions := RandomPositions(64, 3)
	b.ReportAllocs()
	b.ResetTimer()
	cpu0, ok := cputime.Self()
	sink := 0
	for i := 0; i < b.N; i++ {
		sink += e.Evaluate(&positions[i&63])
	}
	if cpu1, ok1 := cputime.Self(); ok && ok1 {
		b.ReportMetric(float64(cpu1-cpu0)/float64(b.N), "cpu-ns/op")
	}
	_ = sink
}

// Board builds a position directly from lists of squares per piece, with
// side to move. It does not check legality, so tests can put men on their
// own crowning row, as some golden boards of the specs do.
func Board(side engine.Color, pieces map[engine.Piece][]int) engine.Position {
	var p engine.Position
	for pc, squares := range pieces {
		for _, s := range squares {
			p.SetPiece(s, pc)
		}
	}
	p.Side = side
	p.Hash = p.ComputeHash()
	return p
}

// ParseBoard reads a board written like a FEN, SIDE:W<squares>:B<squares>
// with "K" before a king and the squares separated by commas (no ranges),
// and builds it with Board. Unlike engine.ParseFEN it lets men stand on
// their own crowning row, as some golden boards of the specifications do;
// a square outside 1..32 or given twice is still an error.
func ParseBoard(text string) (engine.Position, error) {
	parts := strings.Split(strings.TrimSpace(text), ":")
	if len(parts) != 3 || (parts[0] != "W" && parts[0] != "B") {
		return engine.Position{}, fmt.Errorf("board %q: want SIDE:W<squares>:B<squares>", text)
	}
	side := engine.Black
	if parts[0] == "W" {
		side = engine.White
	}
	if parts[1][:min(1, len(parts[1]))] == parts[2][:min(1, len(parts[2]))] {
		return engine.Position{}, fmt.Errorf("board %q: want one W list and one B list", text)
	}
	pieces := map[engine.Piece][]int{}
	seen := map[int]bool{}
	for _, list := range parts[1:] {
		man, king := engine.WhiteMan, engine.WhiteKing
		switch {
		case strings.HasPrefix(list, "B"):
			man, king = engine.BlackMan, engine.BlackKing
		case !strings.HasPrefix(list, "W"):
			return engine.Position{}, fmt.Errorf("board %q: %q does not start with W or B", text, list)
		}
		if list = list[1:]; list == "" {
			continue
		}
		for _, item := range strings.Split(list, ",") {
			pc := man
			if rest, ok := strings.CutPrefix(item, "K"); ok {
				pc, item = king, rest
			}
			s, err := strconv.Atoi(item)
			if err != nil || s < 1 || s > 32 || seen[s] {
				return engine.Position{}, fmt.Errorf("board %q: bad or repeated square %q", text, item)
			}
			seen[s] = true
			pieces[pc] = append(pieces[pc], s)
		}
	}
	return Board(side, pieces), nil
}
