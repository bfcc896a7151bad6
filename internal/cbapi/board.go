// Package cbapi owns the logic of nechecb's CheckerBoard engine library: the
// API's board and move layout and its mapping to engine positions, the
// enginecommand strings and the settings they change, the game history sent
// with "set gamehist", the time allocation of getmove from maxtime, info and
// moreinfo, the status line, and the result code that getmove returns. It is
// plain Go, testable without cgo; cmd/nechecb-cb is the thin cgo layer that
// exports the C functions and copies to and from the host's memory.
//
// The API is the one CheckerBoard 1.77 speaks (protocol version 2);
// docs/checkerboard.md says how nechecb answers it.
package cbapi

import (
	"fmt"

	"github.com/nechecb/nechecb/engine"
)

// Piece codes of a board square: a colour plus Man or King.
const (
	Free  = 0
	White = 1
	Black = 2
	Man   = 4
	King  = 8
)

// Results returned by getmove, from the view of the side that moved.
const (
	ResultDraw    = 0
	ResultWin     = 1
	ResultLoss    = 2
	ResultUnknown = 3
)

// Bits of getmove's info argument.
const (
	// ResetMoves is a legacy hint that a new game started.
	ResetMoves = 1
	// ExactTime asks for exactly maxtime seconds.
	ExactTime = 2
	// incrementShift locates the two bits of the incremental-time unit.
	incrementShift = 2
)

// Board is the API's board, indexed [x][y]: x runs 0..7 from the right of
// Black's side (square 4 is [0][0]), y from Black's back row (y 0 holds
// squares 1-4) to White's.
type Board [8][8]int32

// Coor is a square's coordinates on a Board.
type Coor struct{ X, Y int32 }

// Move is the API's struct CBmove, field for field (4-byte ints, 268
// bytes): the cgo layer copies it into the host's struct.
type Move struct {
	// Jumps is the number of pieces captured.
	Jumps int32
	// NewPiece is the code arriving on To (a crowned man arrives a king);
	// OldPiece the code leaving From.
	NewPiece, OldPiece int32
	From, To           Coor
	// Path holds the start square in Path[0] and the landing square of each
	// jump from Path[1] (for a quiet move, the destination).
	Path [12]Coor
	// Del holds the squares of the captured pieces, in the order taken, and
	// DelPiece their codes.
	Del      [12]Coor
	DelPiece [12]int32
}

// SquareCoor returns the Board coordinates of English square n (1..32).
func SquareCoor(n int) Coor {
	n0 := n - 1
	y := n0 / 4
	x := 2*(3-n0%4) + y%2
	return Coor{X: int32(x), Y: int32(y)}
}

// CoorSquare returns the English square at Board coordinates x, y, or 0
// for a light square or one off the board.
func CoorSquare(x, y int) int {
	if x < 0 || x > 7 || y < 0 || y > 7 || (x+y)%2 == 1 {
		return 0
	}
	return 4*(y+1) - x/2
}

// code returns the API's code for an engine piece.
func code(pc engine.Piece) int32 {
	switch pc {
	case engine.BlackMan:
		return Black | Man
	case engine.BlackKing:
		return Black | King
	case engine.WhiteMan:
		return White | Man
	case engine.WhiteKing:
		return White | King
	}
	return Free
}

// pieceOf returns the engine piece for an API code, false for a code that
// is no piece.
func pieceOf(c int32) (engine.Piece, bool) {
	switch c {
	case Free:
		return engine.Empty, true
	case Black | Man:
		return engine.BlackMan, true
	case Black | King:
		return engine.BlackKing, true
	case White | Man:
		return engine.WhiteMan, true
	case White | King:
		return engine.WhiteKing, true
	}
	return engine.Empty, false
}

// ColorSide returns the side for getmove's color argument (2 black, 1
// white).
func ColorSide(color int) (engine.Color, error) {
	switch color {
	case Black:
		return engine.Black, nil
	case White:
		return engine.White, nil
	}
	return 0, fmt.Errorf("color %d is neither 2 (black) nor 1 (white)", color)
}

// PositionOf reads a Board with the side to move. It refuses a code that is
// no piece, a piece on a light square, more than 12 pieces a side and a man
// on its own crowning row, naming the square.
func PositionOf(b *Board, color int) (engine.Position, error) {
	var p engine.Position
	side, err := ColorSide(color)
	if err != nil {
		return p, err
	}
	var count [2]int
	for x := range 8 {
		for y := range 8 {
			c := b[x][y]
			pc, ok := pieceOf(c)
			sq := CoorSquare(x, y)
			switch {
			case !ok:
				return p, fmt.Errorf("board[%d][%d] holds %d, which is no piece code (0, 5, 6, 9 or 10)", x, y, c)
			case pc == engine.Empty:
				continue
			case sq == 0:
				return p, fmt.Errorf("board[%d][%d] is a light square but holds piece %d", x, y, c)
			case pc == engine.BlackMan && sq >= 29:
				return p, fmt.Errorf("black man on square %d (board[%d][%d]) stands on its crowning row", sq, x, y)
			case pc == engine.WhiteMan && sq <= 4:
				return p, fmt.Errorf("white man on square %d (board[%d][%d]) stands on its crowning row", sq, x, y)
			}
			owner := engine.Black
			if c&White != 0 {
				owner = engine.White
			}
			if count[owner]++; count[owner] > engine.MaxPiecesPerSide {
				return p, fmt.Errorf("%s has more than %d pieces", owner, engine.MaxPiecesPerSide)
			}
			p.SetPiece(sq, pc)
		}
	}
	p.Side = side
	p.Hash = p.ComputeHash()
	return p, nil
}

// BoardOf writes p as a Board.
func BoardOf(p *engine.Position) Board {
	var b Board
	for sq := 1; sq <= 32; sq++ {
		c := SquareCoor(sq)
		b[c.X][c.Y] = code(p.PieceAt(sq))
	}
	return b
}

// MoveOf describes m, a legal move of p, as the API's struct.
func MoveOf(p *engine.Position, m engine.Move) Move {
	var buf [16]int
	path := m.PathSquares(buf[:0])
	var out Move
	out.Jumps = int32(m.Jumps)
	out.OldPiece = code(p.PieceAt(path[0]))
	out.NewPiece = out.OldPiece
	if m.Crowns {
		out.NewPiece = out.OldPiece&^Man | King
	}
	out.From, out.To = SquareCoor(path[0]), SquareCoor(path[len(path)-1])
	for i, sq := range path {
		if i < len(out.Path) {
			out.Path[i] = SquareCoor(sq)
		}
	}
	for i := 1; i < len(path) && m.IsCapture() && i-1 < len(out.Del); i++ {
		a, b := SquareCoor(path[i-1]), SquareCoor(path[i])
		mid := Coor{X: (a.X + b.X) / 2, Y: (a.Y + b.Y) / 2}
		out.Del[i-1] = mid
		out.DelPiece[i-1] = code(p.PieceAt(CoorSquare(int(mid.X), int(mid.Y))))
	}
	return out
}
