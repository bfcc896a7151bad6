package pattern

import (
	"math/bits"

	"github.com/nechecb/nechecb/engine"
)

// The geometry shared by every model. Every count here is part of the file
// format: a file of another geometry is refused.
const (
	// NumWindows is the number of windows: every 4×4 box of the board (five
	// row offsets times five column offsets), each holding 8 dark squares.
	NumWindows = 25
	// WindowSquares is the number of squares in a window.
	WindowSquares = 8
	// WindowStates is the number of contents of a window: each square is
	// empty, holds a piece of the side to move or a piece of the opponent
	// (man or king alike; the king terms tell kings apart), 3^8.
	WindowStates = 6561
	// NumGlobals is the number of global terms of every model
	// (GlobalNames).
	NumGlobals = 4
	// KingSquares is the number of king-square terms: a king of the side to
	// move on each of the 32 squares, then an opponent's king on each.
	KingSquares = 64

	// GlobalsOffset is the offset of the global terms in a knot's terms,
	// after the windows' tables (see Model.Param).
	GlobalsOffset = NumWindows * WindowStates
)

// The global terms, each counted as the side to move's minus the
// opponent's.
const (
	// GlobalMen counts men.
	GlobalMen = iota
	// GlobalKings counts kings.
	GlobalKings
	// GlobalRunaways counts men with no opposing piece anywhere in their
	// forward cone (every square a forward path from the man could reach).
	GlobalRunaways
	// GlobalSoleKings is 1 for the side that has kings when the other has
	// none.
	GlobalSoleKings
)

// GlobalNames names the global terms, indexed by number.
var GlobalNames = [NumGlobals]string{"men", "kings", "runaways", "sole_kings"}

// The ending terms of version 2 models (Model.Ending), each counted as
// the side to move's minus the opponent's unless said otherwise. They
// follow the global terms in a knot's weights.
const (
	// EndMobility counts steps (moves that capture nothing): a man's
	// forward steps and a king's steps in every direction onto empty
	// squares.
	EndMobility = iota
	// EndTheMove is the opposition when both sides have as many pieces: 1
	// when the pieces on the side to move's rows 1, 3, 5 and 7 (squares
	// 1-4, 9-12, 17-20 and 25-28 in the oriented frame) are odd in number,
	// −1 when even; 0 when one side has more pieces.
	EndTheMove
	// EndTempo sums how far each man has advanced: the number of rows
	// between its side's first row and its own (0..6).
	EndTempo
	// EndBackRank counts men on their own first row.
	EndBackRank
	// EndKingMen is the side to move's kings times the opponent's men,
	// less the opponent's kings times the side to move's men.
	EndKingMen
	// NumEnding is the number of ending terms.
	NumEnding
)

// EndingNames names the ending terms, indexed by number.
var EndingNames = [NumEnding]string{"mobility", "the_move", "tempo", "back_rank", "king_men"}

// Features are the terms of a position for the side to move, in the
// oriented frame (the side to move plays toward squares 29-32, as Black
// does). The value of a position is, for each knot of the model, the sum
// of the window weights at Windows, the global weights times Globals (and
// Ending, if the model has them) and the king-square weights of OwnKings
// and OppKings, blended by Pieces (see Model).
type Features struct {
	// Windows holds each window's index into its table.
	Windows [NumWindows]uint16
	// Globals holds the global terms.
	Globals [NumGlobals]int8
	// Ending holds the ending terms.
	Ending [NumEnding]int16
	// OwnKings and OppKings hold the kings' squares, bit s-1 for square s.
	OwnKings, OppKings uint32
	// Pieces is the number of pieces on the board.
	Pieces int
}

// windowPair[w][i] is the position (0, 1 or 2) in row top+i of the first of
// the two adjacent squares that row i of window w holds, where top is the
// window's first row.
var windowPair [NumWindows][4]uint8

// Window indices are computed from the board one pair of rows at a time.
// Rows r and r+1 hold the squares 4r+1..4r+8, bits 4r..4r+7 of the board
// packed into 32 bits (engine.PackSquares). A window whose first row is top takes
// its digits 0-3 from rows top and top+1 and its digits 4-7 from rows
// top+2 and top+3, and for a given pair of rows its four squares depend
// only on the parity of the pair's first row and the window's first
// column. So pairCode[r%2][byte] holds, for the pieces byte of one colour
// on rows r and r+1, the base-3 code (digit 1 per piece) of the four
// squares each window column takes: columns 0-3 in 16-bit lanes of the
// first word, column 4 in the second. The code of both colours is the
// side to move's plus twice the opponent's, and a window's index is its
// first pair's code plus 81 times its second's; no lane ever exceeds
// 6560, so the lanes never carry into each other.
var pairCode [2][256][2]uint64

func init() {
	for w := range NumWindows {
		top, left := w/5, w%5
		for i := range 4 {
			r := top + i
			odd := 0 // dark squares of even rows stand on odd columns
			if r%2 == 0 {
				odd = 1
			}
			windowPair[w][i] = uint8((left - odd + 1) / 2) // the first square of the row in the box
		}
	}
	for par := range 2 {
		for b := range 256 {
			for left := range 5 {
				// Rows 0 and 1 of the window (digits 0-3) starting on a row of
				// parity par: the window starting there on row par is w.
				w := 5*par + left
				code := uint64(0)
				for i, d := range [2]uint64{1, 9} {
					k := int(windowPair[w][i])
					row := b >> (4 * i) & 15
					code += d * (uint64(row>>k&1) + 3*uint64(row>>(k+1)&1))
				}
				if left < 4 {
					pairCode[par][b][0] |= code << (16 * left)
				} else {
					pairCode[par][b][1] = code
				}
			}
		}
	}
}

// WindowSquaresOf returns the squares of window w, in the order of their
// base-3 digits (digit 0 first), in the oriented frame.
func WindowSquaresOf(w int) [WindowSquares]int {
	var out [WindowSquares]int
	top := w / 5
	for i, k := range windowPair[w] {
		out[2*i] = 4*(top+i) + int(k) + 1
		out[2*i+1] = out[2*i] + 1
	}
	return out
}

// orient returns the side to move's pieces, the opponent's and the kings,
// turned round when White is to move so that the side to move always plays
// toward squares 29-32.
func orient(p *engine.Position) (own, opp, kings uint64) {
	b, w, k := p.Pieces[engine.Black]&engine.BoardMask, p.Pieces[engine.White]&engine.BoardMask, p.Kings&engine.BoardMask
	if p.Side&1 == engine.Black {
		return b, w, k
	}
	return engine.RotateSquares(w), engine.RotateSquares(b), engine.RotateSquares(k)
}

// windowIndices computes every window's index for the pieces own and opp
// into idx (see pairCode).
func windowIndices(own, opp uint64, idx *[NumWindows]int32) {
	o, x := engine.PackSquares(own), engine.PackSquares(opp)
	var lo [7]uint64
	var hi [7]uint64
	for r := range 7 {
		t := &pairCode[r&1]
		a, b := &t[o>>(4*r)&0xff], &t[x>>(4*r)&0xff]
		lo[r] = a[0] + 2*b[0]
		hi[r] = a[1] + 2*b[1]
	}
	for top := range 5 {
		l := lo[top] + 81*lo[top+2]
		out := idx[5*top : 5*top+5 : 5*top+5]
		out[0] = int32(l & 0xffff)
		out[1] = int32(l >> 16 & 0xffff)
		out[2] = int32(l >> 32 & 0xffff)
		out[3] = int32(l >> 48)
		out[4] = int32(hi[top] + 81*hi[top+2])
	}
}

// runaways returns the men of own (playing toward higher bits) with no
// piece of opp in their forward cone, and the men of opp (playing toward
// lower bits) with none of own's in theirs.
func runaways(ownMen, oppMen, own, opp uint64) (int, int) {
	// A square is blocked for own when a forward path from it meets an
	// opposing piece: it is reached from one by backward steps.
	var blockOwn, blockOpp uint64
	x, y := opp, own
	for range 7 {
		x = (x>>4 | x>>5) & engine.BoardMask
		y = (y<<4 | y<<5) & engine.BoardMask
		blockOwn |= x
		blockOpp |= y
	}
	return bits.OnesCount64(ownMen &^ blockOwn), bits.OnesCount64(oppMen &^ blockOpp)
}

// globals returns the global terms for the oriented board, in the order
// of GlobalNames.
func globals(own, opp, kings uint64) (men, kingsDiff, runaway, sole int) {
	ownMen, oppMen := own&^kings, opp&^kings
	ownK, oppK := bits.OnesCount64(own&kings), bits.OnesCount64(opp&kings)
	ra, rb := runaways(ownMen, oppMen, own, opp)
	// The sole-king term is 1 for a side with kings less 1 for a side with
	// kings: 0 when both or neither have some (min compiles without a
	// branch).
	return bits.OnesCount64(ownMen) - bits.OnesCount64(oppMen), ownK - oppK, ra - rb, min(ownK, 1) - min(oppK, 1)
}

// Extract computes the features of p for the side to move into f. It is
// the model's definition; Evaluator computes the same sum without storing
// the features.
func Extract(p *engine.Position, f *Features) {
	own, opp, kings := orient(p)
	var idx [NumWindows]int32
	windowIndices(own, opp, &idx)
	for w, i := range idx {
		f.Windows[w] = uint16(i)
	}
	men, k, run, sole := globals(own, opp, kings)
	f.Globals = [NumGlobals]int8{GlobalMen: int8(men), GlobalKings: int8(k), GlobalRunaways: int8(run), GlobalSoleKings: int8(sole)}
	f.OwnKings, f.OppKings = engine.PackSquares(own&kings), engine.PackSquares(opp&kings)
	f.Ending = ending(own, opp, kings, engine.PackSquares(own), engine.PackSquares(opp))
	f.Pieces = bits.OnesCount64(own | opp)
}

// Row masks of the packed 32-bit layout (square s on bit s−1, row r on
// bits 4r..4r+3): the rows whose number has bit 0, 1 or 2 set, and the
// side to move's system for the move (rows 0, 2, 4 and 6 counted from 0).
const (
	rowBit0   = 0xF0F0F0F0
	rowBit1   = 0xFF00FF00
	rowBit2   = 0xFFFF0000
	moveRows  = 0x0F0F0F0F
	firstRow  = 0x0000000F
	lastRow   = 0xF0000000
	fullTempo = 7
)

// rowSum returns the sum of the row numbers (0..7) of the squares of the
// packed board b.
func rowSum(b uint32) int {
	return bits.OnesCount32(b&rowBit0) + 2*bits.OnesCount32(b&rowBit1) + 4*bits.OnesCount32(b&rowBit2)
}

// steps returns the number of steps of the pieces f onto empty squares
// toward higher squares (fwd) or lower ones, in the ghost layout.
func steps(f, empty uint64, fwd bool) int {
	if fwd {
		return bits.OnesCount64(f<<4&empty) + bits.OnesCount64(f<<5&empty)
	}
	return bits.OnesCount64(f>>4&empty) + bits.OnesCount64(f>>5&empty)
}

// ending returns the ending terms of the oriented board: own, opp and
// kings in the ghost layout, o and x the same as own and opp packed.
func ending(own, opp, kings uint64, o, x uint32) [NumEnding]int16 {
	empty := engine.BoardMask &^ (own | opp)
	ownK, oppK := own&kings, opp&kings
	mob := steps(own, empty, true) + steps(ownK, empty, false) - steps(opp, empty, false) - steps(oppK, empty, true)
	nOwn, nOpp := bits.OnesCount32(o), bits.OnesCount32(x)
	move := 0
	if nOwn == nOpp {
		move = 2*(bits.OnesCount32((o|x)&moveRows)&1) - 1
	}
	kp := engine.PackSquares(kings)
	om, xm := o&^kp, x&^kp
	nOM, nXM := bits.OnesCount32(om), bits.OnesCount32(xm)
	tempo := rowSum(om) - (fullTempo*nXM - rowSum(xm))
	back := bits.OnesCount32(om&firstRow) - bits.OnesCount32(xm&lastRow)
	kingMen := (nOwn-nOM)*nXM - (nOpp-nXM)*nOM
	return [NumEnding]int16{EndMobility: int16(mob), EndTheMove: int16(move),
		EndTempo: int16(tempo), EndBackRank: int16(back), EndKingMen: int16(kingMen)}
}
