package engine

import "math/bits"

// kingSteps are the rotations that make one diagonal step in each direction
// in the ghost layout. A step below bit 0 wraps round to bits 59..63, which
// every caller masks away with a set of real squares.
var kingSteps = [4]int{4, 5, -4, -5}

// kingPaths returns the number of capture sequences a king standing on at
// can still make, having captured the pieces in captured; empty must include
// the square the king started from. A sequence that cannot go on counts one,
// except before the first jump (captured == 0), where it is no capture.
func kingPaths(at, opp, empty, captured uint64) uint64 {
	var n uint64
	jumpable := opp &^ captured
	for _, s := range kingSteps {
		over := bits.RotateLeft64(at, s) & jumpable
		if land := bits.RotateLeft64(over, s) & empty; land != 0 {
			n += kingPaths(land, opp, empty, captured|over)
		}
	}
	if n == 0 && captured != 0 {
		return 1
	}
	return n
}
