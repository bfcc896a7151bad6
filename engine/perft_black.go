package engine

import "math/bits"

// countBlack returns the number of legal moves with Black to move: own holds
// Black's pieces, opp White's, kings the kings of both colours.
func countBlack(own, opp, kings uint64) uint64 {
	empty := BoardMask &^ (own | opp)
	jump4, jump5 := blackJumpers(opp, empty)
	if blackMustCapture(own, opp, kings, empty, jump4, jump5) {
		return countCapturesBlack(own, opp, kings, empty, jump4, jump5)
	}
	ownKings := own & kings
	n := bits.OnesCount64(blackAhead(own, 4)&empty) + bits.OnesCount64(blackAhead(own, 5)&empty)
	if ownKings != 0 {
		n += bits.OnesCount64(blackBehind(ownKings, 4)&empty) + bits.OnesCount64(blackBehind(ownKings, 5)&empty)
	}
	return uint64(n)
}

// blackKingsJumpBack reports whether one of Black's kings in ownKings can
// jump away from Black's crowning row.
func blackKingsJumpBack(ownKings, opp, empty uint64) bool {
	return ownKings&(blackAhead(blackAhead(empty, 4)&opp, 4)|blackAhead(blackAhead(empty, 5)&opp, 5)) != 0
}

// countCapturesBlack returns the number of capture sequences of Black, who
// must capture. jump4 and jump5 are the squares from which a piece can jump
// ahead by 4 and 5 bits on the board as it stands.
//
// A man only ever jumps ahead, so the pieces it has jumped and the square it
// left lie behind it and cannot change whether it can jump on: the number of
// sequences from a man's landing square depends only on the board as it
// stands, and the jumps that cannot continue are counted by popcount. Kings
// are walked.
func countCapturesBlack(own, opp, kings, empty, jump4, jump5 uint64) uint64 {
	land4, land5 := blackLandings(own&^kings, jump4, jump5)
	goOn := jump4 | jump5
	n := uint64(bits.OnesCount64(blackPack(land4&^goOn, land5&^goOn)))
	if (land4|land5)&goOn != 0 {
		n += blackManPathsOn(land4&goOn, land5&goOn, jump4, jump5)
	}
	for k := own & kings; k != 0; k &= k - 1 {
		from := k & -k
		n += kingPaths(from, opp, empty|from, 0)
	}
	return n
}

// blackManPathsOn returns the number of capture sequences of Black's men
// that stand on the squares in more4 and in more5 (two sets, which may share
// a square reached along two paths) and must jump on from there. No square
// of Black's crowning row is in jump4 or jump5 (a jump from there would
// leave the board), so a man crowned on landing stops by itself.
func blackManPathsOn(more4, more5, jump4, jump5 uint64) uint64 {
	goOn := jump4 | jump5
	var n uint64
	for _, more := range [2]uint64{more4, more5} {
		for ; more != 0; more &= more - 1 {
			at := more & -more
			land4, land5 := blackLandings(at, jump4, jump5)
			n += uint64(bits.OnesCount64((land4 | land5) &^ goOn))
			if (land4|land5)&goOn != 0 {
				n += blackManPathsOn(land4&goOn, land5&goOn, jump4, jump5)
			}
		}
	}
	return n
}

// blackMustCapture reports whether Black, to move, has a capture; jump4 and
// jump5 are from blackJumpers.
func blackMustCapture(own, opp, kings, empty, jump4, jump5 uint64) bool {
	return own&(jump4|jump5) != 0 || own&kings != 0 && blackKingsJumpBack(own&kings, opp, empty)
}

// blackStep returns Black's pieces and the kings after the piece that lands
// on dest by rotation rot steps there, crowning a man that reaches the row.
func blackStep(own, kings, dest uint64, rot int) (after, afterKings uint64) {
	from := bits.RotateLeft64(dest, -rot)
	king := from & kings
	return own ^ from ^ dest, kings ^ king ^ bits.RotateLeft64(king, rot) | dest&blackCrownRow
}

// perftBlack counts the leaves of the move tree depth plies below the
// position with Black to move (depth >= 1).
func perftBlack(own, opp, kings uint64, depth int) uint64 {
	switch depth {
	case 1:
		return countBlack(own, opp, kings)
	case 2:
		return perft2Black(own, opp, kings)
	}
	empty := BoardMask &^ (own | opp)
	if jump4, jump5 := blackJumpers(opp, empty); blackMustCapture(own, opp, kings, empty, jump4, jump5) {
		w := blackWalk{own: own, opp: opp, kings: kings, empty: empty, jump4: jump4, jump5: jump5, depth: depth}
		return w.all(blackLandings(own&^kings, jump4, jump5))
	}
	n := blackStepsPerft(own, opp, kings, empty, blackAhead(own, 4)&empty, blackSteps[0], depth) +
		blackStepsPerft(own, opp, kings, empty, blackAhead(own, 5)&empty, blackSteps[1], depth)
	if ownKings := own & kings; ownKings != 0 {
		n += blackStepsPerft(own, opp, kings, empty, blackBehind(ownKings, 4)&empty, blackSteps[2], depth) +
			blackStepsPerft(own, opp, kings, empty, blackBehind(ownKings, 5)&empty, blackSteps[3], depth)
	}
	return n
}

// blackStepsPerft counts the leaves depth plies (at least 3) below the
// position with Black to move, under Black's steps by rotation rot onto the
// squares in dests.
func blackStepsPerft(own, opp, kings, empty, dests uint64, rot, depth int) uint64 {
	var n uint64
	for ; dests != 0; dests &= dests - 1 {
		after, afterKings := blackStep(own, kings, dests&-dests, rot)
		if depth == 3 {
			n += perft2White(opp, after, afterKings)
		} else {
			n += perftWhite(opp, after, afterKings, depth-1)
		}
	}
	return n
}

// perft2Black counts the leaves two plies below the position with Black to
// move, fusing the last two plies: White's moves after each of Black's steps
// and single jumps are counted in place, without building either move.
func perft2Black(own, opp, kings uint64) uint64 {
	empty := BoardMask &^ (own | opp)
	jump4, jump5 := blackJumpers(opp, empty)
	if !blackMustCapture(own, opp, kings, empty, jump4, jump5) {
		n := blackStepsCount(own, opp, kings, empty, blackAhead(own, 4)&empty, blackSteps[0]) +
			blackStepsCount(own, opp, kings, empty, blackAhead(own, 5)&empty, blackSteps[1])
		if ownKings := own & kings; ownKings != 0 {
			n += blackStepsCount(own, opp, kings, empty, blackBehind(ownKings, 4)&empty, blackSteps[2]) +
				blackStepsCount(own, opp, kings, empty, blackBehind(ownKings, 5)&empty, blackSteps[3])
		}
		return n
	}
	// Black must capture. A man's single jump that cannot go on is a step by
	// twice the distance once the jumped piece is gone; the longer sequences
	// and the kings' are walked.
	goOn := jump4 | jump5
	land4, land5 := blackLandings(own&^kings, jump4, jump5)
	var n uint64
	for dests := land4 &^ goOn; dests != 0; dests &= dests - 1 {
		dest := dests & -dests
		over := blackBehind(dest, 4)
		n += blackStepsCount(own, opp^over, kings, empty|over, dest, 2*blackSteps[0])
	}
	for dests := land5 &^ goOn; dests != 0; dests &= dests - 1 {
		dest := dests & -dests
		over := blackBehind(dest, 5)
		n += blackStepsCount(own, opp^over, kings, empty|over, dest, 2*blackSteps[1])
	}
	if (land4|land5)&goOn != 0 || own&kings != 0 {
		w := blackWalk{own: own, opp: opp, kings: kings, empty: empty, jump4: jump4, jump5: jump5, depth: 2}
		n += w.all(land4&goOn, land5&goOn)
	}
	return n
}

// blackStepsCount returns the sum of White's move counts after each of
// Black's steps by rotation rot onto the squares in dests (perft2Black also
// passes a single jump here, as a step by twice the rotation on a board
// without the jumped piece). White's count does not depend on which black
// pieces are kings, so the kings are not updated. When White has no kings
// the count is inlined: White's steps, or White's single jumps when White
// must capture, are counted by one popcount of the target squares packed
// into one word.
func blackStepsCount(own, opp, kings, empty, dests uint64, rot int) uint64 {
	var n uint64
	if opp&kings != 0 {
		for ; dests != 0; dests &= dests - 1 {
			dest := dests & -dests
			n += countWhite(opp, own^dest^bits.RotateLeft64(dest, -rot), kings)
		}
		return n
	}
	reach4, reach5 := whiteAhead(opp, 4), whiteAhead(opp, 5)
	for ; dests != 0; dests &= dests - 1 {
		dest := dests & -dests
		move := dest | bits.RotateLeft64(dest, -rot)
		after, e := own^move, empty^move
		jump4 := whiteBehind(whiteBehind(e, 4)&after, 4)
		jump5 := whiteBehind(whiteBehind(e, 5)&after, 5)
		moves4, moves5 := reach4&e, reach5&e
		if opp&(jump4|jump5) != 0 {
			goOn := jump4 | jump5
			land4 := whiteAhead(whiteAhead(opp&jump4, 4), 4)
			land5 := whiteAhead(whiteAhead(opp&jump5, 5), 5)
			if (land4|land5)&goOn != 0 {
				n += whiteManPathsOn(land4&goOn, land5&goOn, jump4, jump5)
			}
			moves4, moves5 = land4&^goOn, land5&^goOn
		}
		n += uint64(bits.OnesCount64(whitePack(moves4, moves5)))
	}
	return n
}

// blackLandings returns where the men in men land when they jump ahead by 4
// and by 5 bits; jump4 and jump5 are the squares they can jump from.
func blackLandings(men, jump4, jump5 uint64) (land4, land5 uint64) {
	return blackAhead(blackAhead(men&jump4, 4), 4), blackAhead(blackAhead(men&jump5, 5), 5)
}

// blackJumpers returns the squares from which a black piece could jump
// ahead by 4 and by 5 bits over one of opp's pieces onto an empty square.
func blackJumpers(opp, empty uint64) (jump4, jump5 uint64) {
	return blackBehind(blackBehind(empty, 4)&opp, 4), blackBehind(blackBehind(empty, 5)&opp, 5)
}

// blackWalk follows Black's capture sequences from a position depth plies
// (at least 1) above the leaves, and counts the leaves below each sequence.
// jump4 and jump5 are the squares from which a black piece can jump ahead by
// 4 and 5 bits on the board before the move.
type blackWalk struct {
	own, opp, kings, empty, jump4, jump5 uint64
	depth                                int
}

// all counts the leaves below the capture sequences of the men whose first
// jump, ahead by 4 or by 5 bits, lands on a square of land4 or land5, and
// below every capture sequence of Black's kings.
func (w *blackWalk) all(land4, land5 uint64) uint64 {
	var n uint64
	for ; land4 != 0; land4 &= land4 - 1 {
		at := land4 & -land4
		over := blackBehind(at, 4)
		n += w.man(blackBehind(over, 4), at, over)
	}
	for ; land5 != 0; land5 &= land5 - 1 {
		at := land5 & -land5
		over := blackBehind(at, 5)
		n += w.man(blackBehind(over, 5), at, over)
	}
	for k := w.own & w.kings; k != 0; k &= k - 1 {
		start := k & -k
		n += w.king(start, start, 0)
	}
	return n
}

// man follows a black man that left from and stands on at, having captured
// the pieces in captured. A man jumps only ahead, away from the squares it
// has left and jumped, so jump4 and jump5 tell where it can jump on; they
// hold no square of the crowning row, so a crowned man stops.
func (w *blackWalk) man(from, at, captured uint64) uint64 {
	if at&(w.jump4|w.jump5) == 0 {
		return w.leaves(w.own^from^at, w.opp&^captured, w.kings&^captured|at&blackCrownRow)
	}
	var n uint64
	if at&w.jump4 != 0 {
		over := blackAhead(at, 4)
		n += w.man(from, blackAhead(over, 4), captured|over)
	}
	if at&w.jump5 != 0 {
		over := blackAhead(at, 5)
		n += w.man(from, blackAhead(over, 5), captured|over)
	}
	return n
}

// king follows a black king that left from and stands on at, having captured
// the pieces in captured; it may pass its starting square again.
func (w *blackWalk) king(from, at, captured uint64) uint64 {
	var n uint64
	goesOn := false
	jumpable := w.opp &^ captured
	empty := w.empty | from
	for _, s := range kingSteps {
		over := bits.RotateLeft64(at, s) & jumpable
		if land := bits.RotateLeft64(over, s) & empty; land != 0 {
			n += w.king(from, land, captured|over)
			goesOn = true
		}
	}
	if !goesOn && captured != 0 {
		change := from ^ at
		return w.leaves(w.own^change, w.opp&^captured, w.kings&^captured^change)
	}
	return n
}

// leaves counts the leaves below the position reached by a capture
// sequence, White to move.
func (w *blackWalk) leaves(own, opp, kings uint64) uint64 {
	if w.depth == 2 {
		return countWhite(opp, own, kings)
	}
	return perftWhite(opp, own, kings, w.depth-1)
}
