// Package engine owns the rules of English draughts: the bitboard position,
// move generation, copy-make, the Zobrist hash, PDN FEN and move notation,
// the game record with its draw rules, and perft.
//
// # Board layout
//
// A position is three bitboards in a 64-bit word using the "ghost square"
// layout: standard square s (1..32) lives on bit (s-1) + (s-1)/8, which leaves
// bits 8, 17 and 26 unused (the ghosts) and uses bits 0..34. With that gap every
// diagonal step is a single shift by the same amount everywhere on the board:
// +4 and +5 move toward squares 29-32 (Black's forward direction), -4 and -5
// toward squares 1-4 (White's forward direction), and a jump is the same shift
// applied twice. A step that would leave the board lands either on a ghost bit or
// outside bits 0..34, and both are removed by masking with the set of real
// squares. We chose it over a packed 32-bit layout because the packed layout
// needs a different shift on odd and even rows plus per-row masks, which costs
// branches or extra operations in the innermost loops of generation and perft.
package engine

import "math/bits"

// Color is a side: Black moves first and starts on squares 1-12.
type Color uint8

const (
	// Black starts on squares 1-12 and moves toward 29-32.
	Black Color = 0
	// White starts on squares 21-32 and moves toward 1-4.
	White Color = 1
)

// Opponent returns the other side.
func (c Color) Opponent() Color { return c ^ 1 }

// String returns "black" or "white".
func (c Color) String() string {
	if c == Black {
		return "black"
	}
	return "white"
}

const (
	ghostBits uint64 = 1<<8 | 1<<17 | 1<<26
	// BoardMask holds the 32 real squares of the ghost layout.
	BoardMask uint64 = (1<<35 - 1) &^ ghostBits
	// blackCrownRow and whiteCrownRow are the rows on which Black's and
	// White's men are crowned (crownRow holds them by colour).
	blackCrownRow uint64 = 0xF << 31 // squares 29-32
	whiteCrownRow uint64 = 0xF       // squares 1-4
)

var crownRow = [2]uint64{blackCrownRow, whiteCrownRow}

// squareOfBit maps a bit index to its square number, 0 for ghosts.
var squareOfBit [35]uint8

// bitOfSquare maps a square number 1..32 to its bit index.
var bitOfSquare [33]uint8

func init() {
	for s := 1; s <= 32; s++ {
		b := (s - 1) + (s-1)/8
		bitOfSquare[s] = uint8(b)
		squareOfBit[b] = uint8(s)
	}
}

// SquareBit returns the bitboard holding only square sq (1..32).
// It returns 0 for squares outside 1..32.
func SquareBit(sq int) uint64 {
	if sq < 1 || sq > 32 {
		return 0
	}
	return 1 << bitOfSquare[sq]
}

// BitSquare returns the square number (1..32) of bit index b, or 0 if b is
// not a real square.
func BitSquare(b int) int {
	if b < 0 || b >= len(squareOfBit) {
		return 0
	}
	return int(squareOfBit[b])
}

// Squares lists the square numbers set in bitboard bb, in ascending order.
// It allocates; it is meant for notation and tests, not for the search.
func Squares(bb uint64) []int {
	var out []int
	for bb &= BoardMask; bb != 0; bb &= bb - 1 {
		out = append(out, BitSquare(bits.TrailingZeros64(bb)))
	}
	return out
}

// Piece is the content of a square.
type Piece uint8

const (
	// Empty is an empty square.
	Empty Piece = iota
	// BlackMan is a black man.
	BlackMan
	// WhiteMan is a white man.
	WhiteMan
	// BlackKing is a black king.
	BlackKing
	// WhiteKing is a white king.
	WhiteKing
)

// Position is a board with the side to move. It is a small value: copy it to
// keep it, and make moves with Play, which returns the new position.
type Position struct {
	// Pieces holds each colour's men and kings, indexed by Color.
	Pieces [2]uint64
	// Kings holds the kings of both colours.
	Kings uint64
	// Hash is the Zobrist key of the board and side to move, kept up to date
	// by Play.
	Hash uint64
	// Side is the side to move.
	Side Color
	// Reversible counts the plies since the last capture or man move
	// (a promotion is a man move). It drives the 40-move rule; it saturates
	// at 255 and is not part of the hash or of FEN.
	Reversible uint8
}

// StartFEN is the standard starting position.
const StartFEN = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"

// StartPosition returns the standard starting position, Black to move.
func StartPosition() Position {
	var p Position
	for s := 1; s <= 12; s++ {
		p.Pieces[Black] |= SquareBit(s)
		p.Pieces[White] |= SquareBit(s + 20)
	}
	p.Side = Black
	p.Hash = p.ComputeHash()
	return p
}

// PieceAt returns the piece on square sq (1..32); Empty for other squares.
func (p *Position) PieceAt(sq int) Piece {
	b := SquareBit(sq)
	king := p.Kings&b != 0
	switch {
	case p.Pieces[Black]&b != 0 && king:
		return BlackKing
	case p.Pieces[Black]&b != 0:
		return BlackMan
	case p.Pieces[White]&b != 0 && king:
		return WhiteKing
	case p.Pieces[White]&b != 0:
		return WhiteMan
	}
	return Empty
}

// SetPiece puts piece pc on square sq (1..32), replacing what was there, and
// updates the hash. Squares outside 1..32 are ignored. It is meant for
// building test and analysis positions; it does not check legality.
func (p *Position) SetPiece(sq int, pc Piece) {
	b := SquareBit(sq)
	if b == 0 {
		return
	}
	p.Pieces[Black] &^= b
	p.Pieces[White] &^= b
	p.Kings &^= b
	switch pc {
	case BlackMan:
		p.Pieces[Black] |= b
	case WhiteMan:
		p.Pieces[White] |= b
	case BlackKing:
		p.Pieces[Black] |= b
		p.Kings |= b
	case WhiteKing:
		p.Pieces[White] |= b
		p.Kings |= b
	}
	p.Hash = p.ComputeHash()
}

// Occupied returns the bitboard of all pieces.
func (p *Position) Occupied() uint64 { return p.Pieces[Black] | p.Pieces[White] }

// EmptySquares returns the bitboard of empty squares.
func (p *Position) EmptySquares() uint64 { return BoardMask &^ (p.Pieces[Black] | p.Pieces[White]) }

// Men returns c's men.
func (p *Position) Men(c Color) uint64 { return p.Pieces[c] &^ p.Kings }

// KingsOf returns c's kings.
func (p *Position) KingsOf(c Color) uint64 { return p.Pieces[c] & p.Kings }

// Material counts the side to move's pieces minus the opponent's, a man
// worth man and a king worth king.
func (p *Position) Material(man, king int) int {
	us, them := p.Pieces[p.Side&1], p.Pieces[(p.Side&1)^1]
	return man*(bits.OnesCount64(us&^p.Kings)-bits.OnesCount64(them&^p.Kings)) +
		king*(bits.OnesCount64(us&p.Kings)-bits.OnesCount64(them&p.Kings))
}

// SameBoard reports whether p and q have the same pieces and side to move,
// ignoring the hash and the reversible-ply counter. It is the test for a
// repeated position.
func (p *Position) SameBoard(q *Position) bool {
	return p.Pieces == q.Pieces && p.Kings == q.Kings && p.Side == q.Side
}

// Rotated returns the position turned round 180 degrees with the colours
// swapped: a black piece on s becomes a white piece on 33-s and vice versa,
// and the side to move swaps. The game is the same game seen from the other
// side, so every evaluator must give it the same value for the side to move.
func (p *Position) Rotated() Position {
	var q Position
	q.Pieces[Black] = RotateSquares(p.Pieces[White])
	q.Pieces[White] = RotateSquares(p.Pieces[Black])
	q.Kings = RotateSquares(p.Kings)
	q.Side = p.Side.Opponent()
	q.Reversible = p.Reversible
	q.Hash = q.ComputeHash()
	return q
}

// RotateSquares turns the squares of bb round 180 degrees: square s goes to
// 33-s, which in the ghost layout is bit b to bit 34-b. Bits off the board
// are dropped. On packed squares (PackSquares) the same turn is
// bits.Reverse32.
func RotateSquares(bb uint64) uint64 { return bits.Reverse64(bb&BoardMask) >> 29 }

// PackSquares packs the squares of bb into 32 bits, square s on bit s-1:
// the ghost bits are squeezed out and bits off the board are dropped. It is
// the board layout of the files that store positions (training positions,
// books, endgame databases) and of the pattern evaluator's windows, so it
// must never change.
func PackSquares(bb uint64) uint32 {
	bb &= BoardMask
	return uint32(bb&0xFF | bb>>1&0xFF00 | bb>>2&0xFF0000 | bb>>3&0xFF000000)
}

// UnpackSquares is the inverse of PackSquares: bit s-1 of sq becomes
// square s of the ghost layout.
func UnpackSquares(sq uint32) uint64 {
	b := uint64(sq)
	return b&0xFF | (b&0xFF00)<<1 | (b&0xFF0000)<<2 | (b&0xFF000000)<<3
}
