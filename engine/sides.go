package engine

// The per-colour counting code lives in perft_black.go, written by hand for
// Black to move, and perft_white.go, generated from it by swapping the words
// "black" and "white" (see internal/sidegen; TestSideCodeGenerated checks
// that the generated file is current). Every direction-dependent step in
// perft_black.go goes through blackAhead or blackBehind, and every
// colour-dependent constant has a name with a white twin, so the swap gives
// correct code for White. Separate code per colour lets every shift be a
// constant instead of a lookup on the side to move.

//go:generate go run ./internal/sidegen/cmd/sidegen perft_black.go perft_white.go

// blackAhead steps every bit of b s bits toward Black's crowning row
// (squares 29-32); s is 4 or 5.
func blackAhead(b uint64, s uint) uint64 { return b << (s & 7) }

// blackBehind steps every bit of b s bits away from Black's crowning row.
func blackBehind(b uint64, s uint) uint64 { return b >> (s & 7) }

// whiteAhead steps every bit of b s bits toward White's crowning row
// (squares 1-4); s is 4 or 5.
func whiteAhead(b uint64, s uint) uint64 { return b >> (s & 7) }

// whiteBehind steps every bit of b s bits away from White's crowning row.
func whiteBehind(b uint64, s uint) uint64 { return b << (s & 7) }

// blackPack packs two sets of squares that Black's pieces reach by a step
// or a jump ahead by 4 and by 5 bits (within bits 4..34 and 5..34) into one
// word without overlap, so that one popcount counts both.
func blackPack(ahead4, ahead5 uint64) uint64 { return ahead4>>4 | ahead5<<26 }

// whitePack is blackPack for White's sets (within bits 0..30 and 0..29).
func whitePack(ahead4, ahead5 uint64) uint64 { return ahead4 | ahead5<<31 }

// blackSteps are the rotations that step a black piece ahead by 4 and 5
// bits, then behind by 4 and 5 bits (kings only).
var blackSteps = [4]int{4, 5, -4, -5}

// whiteSteps are the rotations that step a white piece ahead by 4 and 5
// bits, then behind by 4 and 5 bits (kings only).
var whiteSteps = [4]int{-4, -5, 4, 5}
