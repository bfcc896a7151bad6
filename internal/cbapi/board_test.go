package cbapi

import (
	"strings"
	"testing"
	"unsafe"

	"github.com/nechecb/nechecb/engine"
)

func TestSquareCoorMatchesTheSpecAndAlgebraic(t *testing.T) {
	for sq, want := range map[int]Coor{1: {6, 0}, 4: {0, 0}, 5: {7, 1}, 29: {7, 7}, 32: {1, 7}} {
		if got := SquareCoor(sq); got != want {
			t.Errorf("square %d at %v, want %v", sq, got, want)
		}
	}
	seen := map[Coor]bool{}
	for sq := 1; sq <= 32; sq++ {
		c := SquareCoor(sq)
		// Against algebraic notation: x = 7 - file (a = 0), y = 8 - rank.
		name := engine.SquareName(sq)
		file, rank := int32(name[0]-'a'), int32(name[1]-'0')
		if c.X != 7-file || c.Y != 8-rank {
			t.Errorf("square %d (%s) at %v, want [%d][%d]", sq, name, c, 7-file, 8-rank)
		}
		if back := CoorSquare(int(c.X), int(c.Y)); back != sq {
			t.Errorf("CoorSquare(%v) = %d, want %d", c, back, sq)
		}
		if seen[c] {
			t.Errorf("square %d shares %v with another", sq, c)
		}
		seen[c] = true
	}
	light := 0
	for x := -1; x <= 8; x++ {
		for y := -1; y <= 8; y++ {
			if CoorSquare(x, y) == 0 {
				light++
			}
		}
	}
	if light != 100-32 {
		t.Errorf("%d coordinates are no square, want %d", light, 100-32)
	}
}

func TestBoardRoundTripsPositionsOfAGame(t *testing.T) {
	p := engine.StartPosition()
	for ply := 0; ply < 60; ply++ {
		b := BoardOf(&p)
		color := Black
		if p.Side == engine.White {
			color = White
		}
		q, err := PositionOf(&b, color)
		if err != nil {
			t.Fatalf("ply %d %s: %v", ply, p.FEN(), err)
		}
		if !q.SameBoard(&p) || q.Hash != p.Hash {
			t.Fatalf("ply %d: %s came back as %s", ply, p.FEN(), q.FEN())
		}
		moves := p.LegalMoves()
		if len(moves) == 0 {
			break
		}
		p = p.Play(moves[(ply*7)%len(moves)])
	}
	start := engine.StartPosition()
	b := BoardOf(&start)
	if b[6][0] != Black|Man || b[1][7] != White|Man || b[3][3] != Free {
		t.Errorf("start board: [6][0]=%d [1][7]=%d [3][3]=%d", b[6][0], b[1][7], b[3][3])
	}
}

func TestPositionOfRefusesBadBoards(t *testing.T) {
	start := engine.StartPosition()
	good := BoardOf(&start)
	cases := []struct {
		name  string
		edit  func(*Board)
		color int
		want  string
	}{
		{"13 black men", func(b *Board) { b[7][3] = Black | Man }, Black, "more than 12"},
		{"13 white pieces", func(b *Board) { b[7][3] = White | King }, Black, "white has more than 12"},
		{"black man on 29", func(b *Board) { b[7][7] = Black | Man }, Black, "square 29"},
		{"white man on 4", func(b *Board) { b[0][0] = White | Man }, White, "square 4"},
		{"code 7", func(b *Board) { b[3][3] = 7 }, Black, "holds 7"},
		{"light square", func(b *Board) { b[0][1] = Black | King }, Black, "light square"},
		{"color 0", func(*Board) {}, 0, "color 0"},
		{"color 3", func(*Board) {}, 3, "color 3"},
	}
	for _, c := range cases {
		b := good
		c.edit(&b)
		if _, err := PositionOf(&b, c.color); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one with %q", c.name, err, c.want)
		}
	}
	// A king may stand on any dark square, the crowning rows included.
	b := good
	b[7][7], b[0][0] = Free, Free
	b[7][7] = White | King
	if _, err := PositionOf(&b, White); err != nil {
		t.Errorf("a white king on 29: %v", err)
	}
}

func TestMoveOfACrowningCapture(t *testing.T) {
	p, err := engine.ParseFEN("W:W10:B6")
	if err != nil {
		t.Fatal(err)
	}
	m := p.LegalMoves()[0]
	got := MoveOf(&p, m)
	want := Move{Jumps: 1, OldPiece: White | Man, NewPiece: White | King, From: Coor{4, 2}, To: Coor{6, 0}}
	want.Path[0], want.Path[1] = Coor{4, 2}, Coor{6, 0}
	want.Del[0], want.DelPiece[0] = Coor{5, 1}, Black|Man
	if got != want {
		t.Errorf("MoveOf(%s) = %+v, want %+v", m, got, want)
	}
	// A double jump by a king, over a man and a king.
	p, _ = engine.ParseFEN("B:W14,K22:BK10")
	m = p.LegalMoves()[0]
	got = MoveOf(&p, m)
	if got.Jumps != 2 || got.OldPiece != Black|King || got.NewPiece != Black|King ||
		got.DelPiece[0] != White|Man || got.DelPiece[1] != White|King || got.To != SquareCoor(26) {
		t.Errorf("MoveOf(%s) = %+v", m, got)
	}
}

func TestMoveHasTheHostLayout(t *testing.T) {
	var m Move
	if s := unsafe.Sizeof(m); s != 268 {
		t.Errorf("Move is %d bytes, want 268", s)
	}
	for name, c := range map[string]struct{ got, want uintptr }{
		"from":     {unsafe.Offsetof(m.From), 12},
		"path":     {unsafe.Offsetof(m.Path), 28},
		"del":      {unsafe.Offsetof(m.Del), 124},
		"delpiece": {unsafe.Offsetof(m.DelPiece), 220},
	} {
		if c.got != c.want {
			t.Errorf("%s at offset %d, want %d", name, c.got, c.want)
		}
	}
	if s := unsafe.Sizeof(Board{}); s != 256 {
		t.Errorf("Board is %d bytes, want 256", s)
	}
}
