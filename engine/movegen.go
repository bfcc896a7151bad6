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

// dirDelta is the bit offset of one step in each direction. Rotating a
// bitboard left by it makes the step without a branch on the sign; steps off
// the top of the board wrap round to bits 59..63, which every caller masks
// away with a set of real squares.
var dirDelta = [4]int{4, 5, -4, -5}

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

// Generate fills l with the legal moves of p: the capture sequences if any
// capture exists, otherwise the quiet moves. It does not allocate.
func (p *Position) Generate(l *MoveList) {
	if p.GenerateCaptures(l); l.N == 0 {
		p.GenerateQuiet(l)
	}
}

// jumpSets holds one bitboard per jump direction: by 4 and 5 bits toward
// squares 29-32 (down4, down5), then toward squares 1-4 (up4, up5). (A
// struct of four words rather than an array: Go keeps small structs in
// registers and arrays in memory.)
type jumpSets struct{ down4, down5, up4, up5 uint64 }

// any reports whether any of the sets is non-empty.
func (j jumpSets) any() bool { return j.down4|j.down5|j.up4|j.up5 != 0 }

// jumpSources returns the squares from which a piece could jump over one of
// opp's pieces onto a square of empty, on the board as it stands, in each
// direction.
func jumpSources(opp, empty uint64) jumpSets {
	return jumpSets{(empty >> 4 & opp) >> 4, (empty >> 5 & opp) >> 5, (empty << 4 & opp) << 4, (empty << 5 & opp) << 5}
}

// firstJumps returns the jump sources of the board (src, see jumpSources)
// and, among them, the side to move's pieces that may jump each way (first):
// men and kings ahead, only kings behind.
func (p *Position) firstJumps() (src, first jumpSets) {
	us := p.Side & 1
	own, opp := p.Pieces[us], p.Pieces[us^1]
	src = jumpSources(opp, BoardMask&^(own|opp))
	ahead, behind := own, own&p.Kings
	if us == White {
		ahead, behind = behind, ahead
	}
	return src, jumpSets{src.down4 & ahead, src.down5 & ahead, src.up4 & behind, src.up5 & behind}
}

// Quiet reports whether neither side has a capture in p, whoever is to
// move: the positions a static evaluation can be trusted on.
func (p *Position) Quiet() bool {
	if p.HasCapture() {
		return false
	}
	q := *p
	q.Side = q.Side.Opponent()
	return !q.HasCapture()
}

// HasCapture reports whether the side to move has a capture.
func (p *Position) HasCapture() bool {
	_, first := p.firstJumps()
	return first.any()
}

// GenerateQuiet fills l with the steps (non-capturing moves) of the side to
// move. They are its legal moves only when it has no capture: callers that
// have not asked HasCapture use Generate. The order is that of Generate:
// by direction (the side's two forward directions, then the kings' two
// backward ones), and by destination square within a direction.
func (p *Position) GenerateQuiet(l *MoveList) {
	us := p.Side & 1
	own := p.Pieces[us]
	empty := BoardMask &^ (own | p.Pieces[us^1])
	kings := own & p.Kings
	men := own &^ kings
	n := 0
	if us == Black {
		n = addSteps(l, n, own<<4&empty, men<<4&blackCrownRow, 4, dirDown4)
		n = addSteps(l, n, own<<5&empty, men<<5&blackCrownRow, 5, dirDown5)
		if kings != 0 {
			n = addSteps(l, n, kings>>4&empty, 0, -4, dirUp4)
			n = addSteps(l, n, kings>>5&empty, 0, -5, dirUp5)
		}
	} else {
		n = addSteps(l, n, own>>4&empty, men>>4&whiteCrownRow, -4, dirUp4)
		n = addSteps(l, n, own>>5&empty, men>>5&whiteCrownRow, -5, dirUp5)
		if kings != 0 {
			n = addSteps(l, n, kings<<4&empty, 0, 4, dirDown4)
			n = addSteps(l, n, kings<<5&empty, 0, 5, dirDown5)
		}
	}
	l.N = n
}

// addSteps writes one step in direction dir (delta bits) onto every square
// of targets into l from slot n on, crowning on the squares of crowns, and
// returns the next free slot. A side has at most 32 pieces with 4 steps
// each, so the 256 slots of a list cannot overflow.
func addSteps(l *MoveList, n int, targets, crowns uint64, delta int, dir uint32) int {
	for ; targets != 0; targets &= targets - 1 {
		to := bits.TrailingZeros64(targets)
		l.Moves[uint8(n)] = Move{Path: dir, From: uint8(to - delta), To: uint8(to), Crowns: crowns>>to&1 != 0}
		n++
	}
	return n
}

// captureGen holds the state of one GenerateCaptures call.
type captureGen struct {
	list *MoveList
	// fwdJumps holds the squares from which a jump in each of the side to
	// move's two forward directions (fwd, fwd+1) is possible on the board
	// before the move (see jumpSources); manGoesOn is their union. A man
	// only moves ahead, away from the pieces it has captured and the square
	// it left, so the board before the move decides whether it jumps on.
	fwdJumps  [2]uint64
	manGoesOn uint64
	opp       uint64
	empty     uint64
	kings     uint64 // the side to move's kings
	kingEmpty uint64 // empty squares for the walking king, its start included
	crown     uint64 // the side to move's crowning row
	fwd       uint32 // the side to move's first forward direction
	from      uint8
}

// GenerateCaptures fills l with the capture sequences of the side to move,
// which are its legal moves when it has any; l is left empty when it has
// none, so that it also tells whether the side must capture. Sequences are
// listed by the direction of the first jump (toward squares 29-32 by 4 and 5
// bits, then toward squares 1-4), then by start square, then by the
// directions of the later jumps in the same order.
func (p *Position) GenerateCaptures(l *MoveList) {
	l.N = 0
	if src, first := p.firstJumps(); first.any() {
		p.captureSequences(l, src, first)
	}
}

// captureSequences adds to l the capture sequences of the side to move,
// given the board's jump sources and the side's pieces with a first jump in
// each direction (see firstJumps), in that order.
func (p *Position) captureSequences(l *MoveList, src, first jumpSets) {
	us := p.Side & 1
	own, opp := p.Pieces[us], p.Pieces[us^1]
	empty := BoardMask &^ (own | opp)
	kings := own & p.Kings
	j0, j1, j2, j3 := src.down4, src.down5, src.up4, src.up5
	down4, down5, up4, up5 := first.down4, first.down5, first.up4, first.up5
	// Where the men's first jumps land, and where a man can jump on.
	lands, manGoesOn, crown := down4<<8|down5<<10, j0|j1, uint64(blackCrownRow)
	if us == White {
		lands, manGoesOn, crown = up4>>8|up5>>10, j2|j3, whiteCrownRow
	}
	if (down4|down5|up4|up5)&kings == 0 && lands&(crown|manGoesOn) == 0 {
		// Only men's single jumps that neither crown nor go on, the
		// common case: written at once, without a walk.
		n := addSingleJumps(l, 0, down4, 4, dirDown4)
		n = addSingleJumps(l, n, down5, 5, dirDown5)
		n = addSingleJumps(l, n, up4, -4, dirUp4)
		l.N = addSingleJumps(l, n, up5, -5, dirUp5)
		return
	}
	g := captureGen{list: l, fwdJumps: [2]uint64{j0, j1}, manGoesOn: manGoesOn, opp: opp, empty: empty, kings: kings, crown: crown, fwd: dirDown4}
	if us == White {
		g.fwdJumps, g.fwd = [2]uint64{j2, j3}, dirUp4
	}
	if down4 != 0 {
		g.firstJumps(down4, dirDown4)
	}
	if down5 != 0 {
		g.firstJumps(down5, dirDown5)
	}
	if up4 != 0 {
		g.firstJumps(up4, dirUp4)
	}
	if up5 != 0 {
		g.firstJumps(up5, dirUp5)
	}
}

// addSingleJumps writes into l from slot n on a single jump in direction dir
// (delta bits per step) from every square of from, and returns the next
// free slot. A side has at most 32 pieces with 4 jumps each, so the 256
// slots of a list cannot overflow.
func addSingleJumps(l *MoveList, n int, from uint64, delta int, dir uint32) int {
	for ; from != 0; from &= from - 1 {
		f := bits.TrailingZeros64(from)
		l.Moves[uint8(n)] = Move{Captured: 1 << ((f + delta) & 63), Path: dir, From: uint8(f), To: uint8(f + 2*delta), Jumps: 1}
		n++
	}
	return n
}

// firstJumps adds the capture sequences of the pieces in jumpers, whose
// first jump goes in direction d.
func (g *captureGen) firstJumps(jumpers uint64, d uint32) {
	rot := dirDelta[d&3]
	for ; jumpers != 0; jumpers &= jumpers - 1 {
		fromBB := jumpers & -jumpers
		over := bits.RotateLeft64(fromBB, rot)
		land := bits.RotateLeft64(over, rot)
		g.from = uint8(bits.TrailingZeros64(fromBB))
		switch {
		case g.kings&fromBB != 0:
			g.kingEmpty = g.empty | fromBB
			g.king(land, over, d, 1)
		case land&(g.crown|g.manGoesOn) == 0:
			// A man's single jump, the common case: no walk.
			g.record(land, over, d, 1, false)
		default:
			g.man(land, over, d, 1)
		}
	}
}

// man extends the capture sequence of a man standing on at, having captured
// captured along path with n jumps, and records it where it ends: on the
// crowning row, or where no jump goes on.
func (g *captureGen) man(at, captured uint64, path uint32, n uint8) {
	if at&g.crown != 0 {
		g.record(at, captured, path, n, true)
		return
	}
	if at&g.manGoesOn == 0 {
		g.record(at, captured, path, n, false)
		return
	}
	for i, jumps := range g.fwdJumps {
		if at&jumps != 0 {
			d := g.fwd + uint32(i)
			over := bits.RotateLeft64(at, dirDelta[d&3])
			g.man(bits.RotateLeft64(over, dirDelta[d&3]), captured|over, path|d<<(2*n), n+1)
		}
	}
}

// king extends the capture sequence of a king standing on at, having
// captured captured along path with n jumps, and records it where no jump
// goes on. A king may cross its start square again but never jumps a
// captured piece twice.
func (g *captureGen) king(at, captured uint64, path uint32, n uint8) {
	jumpable := g.opp &^ captured
	extended := false
	for d, rot := range dirDelta {
		over := bits.RotateLeft64(at, rot) & jumpable
		if land := bits.RotateLeft64(over, rot) & g.kingEmpty; land != 0 {
			extended = true
			g.king(land, captured|over, path|uint32(d)<<(2*n), n+1)
		}
	}
	if !extended {
		g.record(at, captured, path, n, false)
	}
}

func (g *captureGen) record(at, captured uint64, path uint32, n uint8, crowns bool) {
	if l := g.list; l.N < MaxMoves {
		l.Moves[l.N] = Move{Captured: captured, Path: path, From: g.from, To: uint8(bits.TrailingZeros64(at)), Jumps: n, Crowns: crowns}
		l.N++
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
	var q Position
	p.PlayInto(&q, &m)
	return q
}

// PlayInto writes the position after move m, which must be legal in p, into
// dst (which may be p itself). It is Play without copying the result, for
// callers that keep positions in place, such as a search stack.
func (p *Position) PlayInto(dst *Position, m *Move) {
	us := p.Side & 1
	from, to := m.From&63, m.To&63
	fromBB, toBB := uint64(1)<<from, uint64(1)<<to // the same square after a loop capture
	kings := p.Kings
	keys := &zobristPiece[us]
	h := p.Hash ^ zobristSide
	rev := uint8(0)
	switch {
	case kings&fromBB != 0:
		h ^= keys[1][from] ^ keys[1][to]
		kings = kings&^fromBB | toBB
		if m.Jumps == 0 && p.Reversible < 255 {
			rev = p.Reversible + 1
		}
	case m.Crowns:
		h ^= keys[0][from] ^ keys[1][to]
		kings |= toBB
	default:
		h ^= keys[0][from] ^ keys[0][to]
	}
	opp := p.Pieces[us^1]
	if captured := m.Captured; captured != 0 {
		oppKeys := &zobristPiece[us^1]
		for c := captured & kings; c != 0; c &= c - 1 {
			h ^= oppKeys[1][bits.TrailingZeros64(c)&63]
		}
		for c := captured &^ kings; c != 0; c &= c - 1 {
			h ^= oppKeys[0][bits.TrailingZeros64(c)&63]
		}
		opp &^= captured
		kings &^= captured
	}
	dst.Pieces[us] = p.Pieces[us]&^fromBB | toBB
	dst.Pieces[us^1] = opp
	dst.Kings = kings
	dst.Hash = h
	dst.Side = us ^ 1
	dst.Reversible = rev
}
