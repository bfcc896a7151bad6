package engine

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestParseFENForms(t *testing.T) {
	want, err := ParseFEN(StartFEN)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		"B:W21-32:B1-12",
		"B:B1-12:W21-32",
		" B : W 32,31,30,29,28,27,26,25,24,23,22,21 : B 12,11,10,9,8,7,6,5,4,3,2,1 .",
		"B:W21-24,25-32:B1-12.",
	} {
		got, err := ParseFEN(s)
		if err != nil {
			t.Errorf("ParseFEN(%q): %v", s, err)
			continue
		}
		if got != want {
			t.Errorf("ParseFEN(%q) = %s, want %s", s, got.FEN(), want.FEN())
		}
	}
	kings, err := ParseFEN("B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29")
	if err != nil {
		t.Fatal(err)
	}
	if got := kings.FEN(); got != "B:W10,15,18,24,27,28:B12,16,20,22,25,29" && got != "B:WK10,K15,18,24,27,28:BK22,K25,K29,12,16,20" {
		// FEN writes ascending squares with K before kings.
		if got != "B:WK10,K15,18,24,27,28:B12,16,20,K22,K25,K29" {
			t.Errorf("FEN() = %s", got)
		}
	}
}

func TestParseFENErrors(t *testing.T) {
	for _, tc := range []struct{ fen, mention string }{
		{"", "empty"},
		{"X:W21:B1", "side to move"},
		{"B:W5-17:B20", "13 pieces"},
		{"B:W21,33:B1", "outside 1..32"},
		{"B:W21,0:B1", "outside 1..32"},
		{"B:W21,21:B1", "square 21 is given twice"},
		{"B:W21:B21", "square 21 is given twice"},
		{"B:W2:B1", "crowning row"},
		{"B:W21:B1:W22", "given twice"},
		{"B:W21:Bx", "not a square number"},
		{"B:W24-21:B1", "backwards"},
	} {
		_, err := ParseFEN(tc.fen)
		if err == nil || !strings.Contains(err.Error(), tc.mention) {
			t.Errorf("ParseFEN(%q) error = %v, want one mentioning %q", tc.fen, err, tc.mention)
		}
	}
}

func TestSquareNames(t *testing.T) {
	got := map[int]string{}
	for _, sq := range []int{1, 4, 5, 28, 29, 30, 31, 32} {
		got[sq] = SquareName(sq)
	}
	want := map[int]string{1: "b8", 4: "h8", 5: "a7", 28: "h2", 29: "a1", 30: "c1", 31: "e1", 32: "g1"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("square names (-want +got):\n%s", diff)
	}
}

func TestParseMoves(t *testing.T) {
	start := StartPosition()
	for _, tc := range []struct {
		fen, input, want string
	}{
		{StartFEN, "11-15", "11-15"},
		{StartFEN, "  11-15 ", "11-15"},
		{"W:W21-32:B1-10,12,15", "c3d4", "22-18"},
		{"W:W21-32:B1-10,12,15", "c3-d4", "22-18"},
		{"W:W22:B17", "22x13", "22x13"},
		{"W:W22:B17", "c3xa5", "22x13"},
		{"W:W22:B17", "22-13", "22x13"},
		{"B:W14,23:B9", "9x18x27", "9x18x27"},
		{"B:W14,23:B9", "9x27", "9x18x27"},
		{"B:W14,23:B9", "b6xd4xf2", "9x18x27"},
		{"B:W14,23:B9", "b6xf2", "9x18x27"},
		{"W:WK11:B6,7,14,15", "11x18x9x2x11", "11x18x9x2x11"},
		{"W:WK11:B6,7,14,15", "11x2x9x18x11", "11x2x9x18x11"},
	} {
		pos := start
		if tc.fen != StartFEN {
			var err error
			if pos, err = ParseFEN(tc.fen); err != nil {
				t.Fatal(err)
			}
		}
		m, err := pos.ParseMove(tc.input)
		if err != nil {
			t.Errorf("%s: ParseMove(%q): %v", tc.fen, tc.input, err)
			continue
		}
		if m.String() != tc.want {
			t.Errorf("%s: ParseMove(%q) = %s, want %s", tc.fen, tc.input, m, tc.want)
		}
	}
}

func TestParseMoveErrors(t *testing.T) {
	start := StartPosition()
	_, err := start.ParseMove("11-16x")
	var me *MoveError
	if !errors.As(err, &me) || me.Problem != "malformed" {
		t.Errorf("ParseMove(11-16x) = %v, want a malformed-move error", err)
	}
	_, err = start.ParseMove("21-17")
	if !errors.As(err, &me) || me.Problem != "illegal" {
		t.Fatalf("ParseMove(21-17) = %v, want an illegal-move error", err)
	}
	want := []string{"9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"}
	if diff := cmp.Diff(want, me.Legal, cmpSorted); diff != "" {
		t.Errorf("legal moves listed (-want +got):\n%s", diff)
	}
	if !strings.Contains(err.Error(), "legal moves: ") {
		t.Errorf("error %q does not list the legal moves", err)
	}
	// Two paths from 2 to 18: over 6 and 14, or over 7 and 15.
	amb, err := ParseFEN("B:W6,7,14,15:B2")
	if err != nil {
		t.Fatal(err)
	}
	_, err = amb.ParseMove("2x18")
	if !errors.As(err, &me) || me.Problem != "ambiguous" {
		t.Errorf("ParseMove(2x18) in %s = %v, want an ambiguous-move error", amb.FEN(), err)
	}
	_, err = start.ParseMove("d4e5")
	if !errors.As(err, &me) || me.Problem != "illegal" {
		t.Errorf("ParseMove(d4e5) = %v, want illegal", err)
	}
	_, err = start.ParseMove("a2b3")
	if !errors.As(err, &me) || me.Problem != "malformed" || !strings.Contains(err.Error(), "light square") {
		t.Errorf("ParseMove(a2b3) = %v, want a light-square error", err)
	}
}

var cmpSorted = cmp.Transformer("sort", func(in []string) []string {
	out := append([]string(nil), in...)
	for i := range out {
		for j := i + 1; j < len(out); j++ {
			if out[j] < out[i] {
				out[i], out[j] = out[j], out[i]
			}
		}
	}
	return out
})

func TestNotationShortensOnlyWhenUnambiguous(t *testing.T) {
	pos, err := ParseFEN("B:W14,23:B9")
	if err != nil {
		t.Fatal(err)
	}
	m, _ := pos.ParseMove("9x18x27")
	if got := pos.Notation(m); got != "9x27" {
		t.Errorf("Notation = %q, want 9x27", got)
	}
	loop, _ := ParseFEN("W:WK11:B6,7,14,15")
	for _, m := range loop.LegalMoves() {
		if got := loop.Notation(m); got != m.String() {
			t.Errorf("loop capture written %q, want the full path %q", got, m.String())
		}
	}
	amb, _ := ParseFEN("B:W6,7,14,15:B2")
	for _, m := range amb.LegalMoves() {
		if m.Jumps > 1 && amb.Notation(m) != m.String() {
			t.Errorf("ambiguous capture shortened to %q", amb.Notation(m))
		}
	}
}

func TestAlgebraicWriter(t *testing.T) {
	pos, _ := ParseFEN("B:W14,23:B9")
	m := pos.LegalMoves()[0]
	if got := m.Algebraic(); got != "b6xd4xf2" {
		t.Errorf("Algebraic = %q, want b6xd4xf2", got)
	}
	start := StartPosition()
	q, _ := start.ParseMove("11-15")
	if got := q.Algebraic(); got != "f6e5" {
		t.Errorf("Algebraic(11-15) = %q, want f6e5", got)
	}
}

// FuzzParseFEN checks that no input panics and that whatever reads writes
// back to a FEN that reads to the same position.
func FuzzParseFEN(f *testing.F) {
	for _, s := range []string{StartFEN, "B:W21-32:B1-12", "W:WK11:B6,7,14,15", "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29.", "W::", "B:WK1-K3:B"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseFEN(s)
		if err != nil {
			return
		}
		q, err := ParseFEN(p.FEN())
		if err != nil {
			t.Fatalf("FEN %q of %q does not read back: %v", p.FEN(), s, err)
		}
		if q != p {
			t.Fatalf("round trip of %q: %s then %s", s, p.FEN(), q.FEN())
		}
	})
}

func fuzzMoveReader(f *testing.F, seeds []string, read func(p *Position, s string) (Move, error), write func(p *Position, m Move) string) {
	fens := []string{StartFEN, "B:W14,23:B9", "W:WK11:B6,7,14,15", "W:WK2,13,15,27,31:B1,6,9,12,K25"}
	for i, s := range seeds {
		f.Add(uint8(i), s)
	}
	f.Fuzz(func(t *testing.T, which uint8, s string) {
		p, err := ParseFEN(fens[int(which)%len(fens)])
		if err != nil {
			t.Fatal(err)
		}
		m, err := read(&p, s)
		if err != nil {
			return
		}
		text := write(&p, m)
		back, err := read(&p, text)
		if err != nil {
			t.Fatalf("%q read as %s, written %q, which does not read back: %v", s, m, text, err)
		}
		after1, after2 := p.Play(m), p.Play(back)
		if !after1.SameBoard(&after2) {
			t.Fatalf("%q read as %s, written %q, read back as %s", s, m, text, back)
		}
	})
}

func FuzzParseNumeric(f *testing.F) {
	fuzzMoveReader(f, []string{"11-15", "9x18x27", "9x27", "11x11", "22x15", "1-2-3", "x"},
		func(p *Position, s string) (Move, error) { return p.ParseNumeric(s) },
		func(p *Position, m Move) string { return p.Notation(m) })
}

func FuzzParseAlgebraic(f *testing.F) {
	fuzzMoveReader(f, []string{"c3d4", "f6e5", "b6xd4xf2", "b6xf2", "a1", "h8-g7"},
		func(p *Position, s string) (Move, error) { return p.ParseAlgebraic(s) },
		func(p *Position, m Move) string { return m.Algebraic() })
}
