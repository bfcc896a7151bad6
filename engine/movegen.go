package engine

import "math/bits"

// MaxMoves bounds the moves of one position that a MoveList can hold. No
// position reachable in a game comes near it; in a constructed position with
// more capture paths than this, the extra paths are dropped.
const MaxMoves = 256

// Direction numbers used in Move.Path. Directions 0 and 1 go toward squares
// 29-32, directions 2 and 3 toward squares 1-4.
const (
	dirDown4 = iota // +4 bits
	dirDown5        // +5 bits
	dirUp4          // -4 bits
	dirUp5          // -5 bits
)

var dirDelta = [4]int{4, 5, -4, -5}

// dirRotation is the rotation that makes one step in each direction.
var dirRotation = [4]int{4, 5, -4, -5}

// step moves every bit of b one diagonal step in direction d. It is a
// rotation, so it has no branch even when d is not a constant: steps off the
// top of the board wrap round to bits 59..63, which every caller masks away
// with a set of real squares.
func step(b uint64, d int) uint64 {
	return bits.RotateLeft64(b, dirRotation[d&3])
}

// Move is one legal move: a quiet step or a whole capture sequence. Two
// capture sequences round a loop may share From, To and Captured and differ
// only in Path; both are legal moves.
type Move struct {
	// Captured holds the bits of the captured pieces.
	Captured uint64
	// Path holds the direction of each step, two bits per step, first step in
	// the lowest bits.
	Path uint32
	// From and To are bit indexes of the start and end squares.
	From, To uint8
	// Jumps is the number of pieces captured; 0 for a quiet move.
	Jumps uint8
	// Crowns is set when a man is crowned by this move.
	Crowns bool
}

// FromSquare returns the square number the move starts on.
func (m Move) FromSquare() int { return BitSquare(int(m.From)) }

// ToSquare returns the square number the move ends on.
func (m Move) ToSquare() int { return BitSquare(int(m.To)) }

// IsCapture reports whether the move captures.
func (m Move) IsCapture() bool { return m.Jumps > 0 }

// PathSquares appends the squares of the move's path (start, every landing
// square) to dst and returns it.
func (m Move) PathSquares(dst []int) []int {
	b := int(m.From)
	dst = append(dst, BitSquare(b))
	steps := int(m.Jumps)
	mult := 2
	if steps == 0 {
		steps, mult = 1, 1
	}
	for i := 0; i < steps; i++ {
		d := int(m.Path>>(2*i)) & 3
		b += mult * dirDelta[d]
		dst = append(dst, BitSquare(b))
	}
	return dst
}

// MoveList is a fixed-size list of moves, meant to live on a per-ply stack.
type MoveList struct {
	N     int
	Moves [MaxMoves]Move
}

// Slice returns the moves in the list.
func (l *MoveList) Slice() []Move { return l.Moves[:l.N] }

func (l *MoveList) add(m Move) {
	if l.N < MaxMoves {
		l.Moves[l.N] = m
		l.N++
	}
}

// forwardDirs are the two directions a man of each colour moves in.
var forwardDirs = [2][2]int{{dirDown4, dirDown5}, {dirUp4, dirUp5}}

// Generate fills l with the legal moves of p: the capture sequences if any
// capture exists, otherwise the quiet moves. It does not allocate.
func (p *Position) Generate(l *MoveList) {
	l.N = 0
	if p.HasCapture() {
		p.walkCaptures(l)
		return
	}
	p.generateQuiet(l)
}

// HasCapture reports whether the side to move has a capture.
func (p *Position) HasCapture() bool {
	us := p.Side
	own, opp := p.Pieces[us], p.Pieces[us.Opponent()]
	empty := BoardMask &^ (own | opp)
	kings := own & p.Kings
	var j uint64
	if us == Black {
		j = step(step(own, dirDown4)&opp, dirDown4) | step(step(own, dirDown5)&opp, dirDown5) |
			step(step(kings, dirUp4)&opp, dirUp4) | step(step(kings, dirUp5)&opp, dirUp5)
	} else {
		j = step(step(own, dirUp4)&opp, dirUp4) | step(step(own, dirUp5)&opp, dirUp5) |
			step(step(kings, dirDown4)&opp, dirDown4) | step(step(kings, dirDown5)&opp, dirDown5)
	}
	return j&empty != 0
}

// generateQuiet adds every non-capturing move of the side to move.
func (p *Position) generateQuiet(l *MoveList) {
	us := p.Side
	own := p.Pieces[us]
	empty := p.EmptySquares()
	kings := own & p.Kings
	fwd := forwardDirs[us]
	back := forwardDirs[us^1]
	for _, d := range fwd {
		p.addSteps(l, step(own, d)&empty, d)
	}
	for _, d := range back {
		p.addSteps(l, step(kings, d)&empty, d)
	}
}

// addSteps adds one quiet move in direction d for every target in targets.
func (p *Position) addSteps(l *MoveList, targets uint64, d int) {
	crown := crownRow[p.Side]
	for ; targets != 0; targets &= targets - 1 {
		to := bits.TrailingZeros64(targets)
		from := to - dirDelta[d]
		man := p.Kings&(1<<from) == 0
		l.add(Move{From: uint8(from), To: uint8(to), Path: uint32(d), Crowns: man && crown&(1<<to) != 0})
	}
}

// captureWalk holds the state of one piece's capture search.
type captureWalk struct {
	list   *MoveList // where sequences go; nil to count only
	opp    uint64    // opponent pieces
	empty  uint64    // empty squares, the moving piece's start included
	crown  uint64    // the moving side's crowning row
	side   Color
	from   uint8
	king   bool
	counts uint64 // number of sequences found
}

// reverseDir is the direction opposite to each direction.
var reverseDir = [4]int{dirUp4, dirUp5, dirDown4, dirDown5}

// walkCaptures enumerates all capture sequences, adding them to l, or only
// counting them when l is nil. It returns the count.
func (p *Position) walkCaptures(l *MoveList) uint64 {
	return p.walkPieces(l, p.Pieces[p.Side&1])
}

// walkPieces enumerates the capture sequences of the side to move's pieces in
// pieces, starting only from those that have a first jump, found with shifts
// per direction.
func (p *Position) walkPieces(l *MoveList, pieces uint64) uint64 {
	us := p.Side & 1
	own := p.Pieces[us] & pieces
	kings := own & p.Kings
	empty := p.EmptySquares()
	w := captureWalk{list: l, opp: p.Pieces[us^1], crown: crownRow[us], side: us}
	for d := 0; d < 4; d++ {
		movers := kings
		if d>>1 == int(us) {
			movers = own
		}
		back := reverseDir[d]
		for jumpers := step(step(empty, back)&w.opp, back) & movers; jumpers != 0; jumpers &= jumpers - 1 {
			from := bits.TrailingZeros64(jumpers)
			fromBB := uint64(1) << from
			over := step(fromBB, d)
			land := step(over, d)
			w.from = uint8(from)
			w.king = kings&fromBB != 0
			w.empty = empty | fromBB
			to := bits.TrailingZeros64(land)
			if !w.king && land&w.crown != 0 {
				w.record(to, over, uint32(d), 1, true)
				continue
			}
			w.walk(to, over, uint32(d), 1)
		}
	}
	return w.counts
}

// walk extends a capture sequence standing on bit cur, having captured
// captured along path with n jumps so far; it records the sequence when it
// cannot be extended.
func (w *captureWalk) walk(cur int, captured uint64, path uint32, n uint8) {
	curBB := uint64(1) << cur
	jumpable := w.opp &^ captured
	extended := false
	for d := 0; d < 4; d++ {
		if !w.king && d>>1 != int(w.side) {
			continue
		}
		over := step(curBB, d) & jumpable
		if over == 0 {
			continue
		}
		land := step(over, d) & w.empty
		if land == 0 {
			continue
		}
		extended = true
		to := bits.TrailingZeros64(land)
		newCaptured := captured | over
		newPath := path | uint32(d)<<(2*n)
		if !w.king && land&w.crown != 0 {
			w.record(to, newCaptured, newPath, n+1, true)
			continue
		}
		w.walk(to, newCaptured, newPath, n+1)
	}
	if !extended {
		w.record(cur, captured, path, n, false)
	}
}

func (w *captureWalk) record(to int, captured uint64, path uint32, n uint8, crowns bool) {
	w.counts++
	if w.list != nil {
		w.list.add(Move{Captured: captured, Path: path, From: w.from, To: uint8(to), Jumps: n, Crowns: crowns})
	}
}

// CountMoves returns the number of legal moves of p without building them.
func (p *Position) CountMoves() uint64 {
	if p.Side == Black {
		return countBlack(p.Pieces[Black], p.Pieces[White], p.Kings)
	}
	return countWhite(p.Pieces[White], p.Pieces[Black], p.Kings)
}

// Play returns the position after move m, which must be legal in p.
// It is copy-make: p itself is unchanged.
func (p *Position) Play(m Move) Position {
	q := *p
	q.Hash = p.hashAfter(&m)
	q.applyBoard(&m)
	return q
}

// applyBoard makes m on the bitboards, side and counter, leaving Hash alone.
func (p *Position) applyBoard(m *Move) {
	us := p.Side & 1
	fromBB, toBB := uint64(1)<<m.From, uint64(1)<<m.To
	wasKing := p.Kings >> m.From & 1
	crowned := wasKing
	if m.Crowns {
		crowned = 1
	}
	p.Pieces[us] = p.Pieces[us]&^fromBB | toBB
	p.Pieces[us^1] &^= m.Captured
	p.Kings = p.Kings&^(fromBB|m.Captured) | crowned<<m.To
	rev := uint8(0)
	if wasKing != 0 && m.Jumps == 0 && p.Reversible < 255 {
		rev = p.Reversible + 1
	}
	p.Reversible = rev
	p.Side = us ^ 1
}
