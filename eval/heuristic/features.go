package heuristic

import (
	"math/bits"

	"github.com/nechecb/nechecb/engine"
)

// Feature numbers. Every feature is counted for each side from that side's
// own point of view (its back row is row 0, its crowning row is row 7) and
// enters the evaluation as own count minus the opponent's count.
const (
	// Men is the number of men.
	Men = iota
	// Kings is the number of kings times 1.5, the seed's built-in factor.
	Kings
	// SafeMen is the number of men on the border of the board (the side
	// files a and h, row 0 and row 7), where no piece can jump them.
	SafeMen
	// SafeKings is the number of kings on the border of the board.
	SafeKings
	// Defenders is the number of pieces (men and kings) on the two rows
	// nearest the side's own back row (rows 0 and 1).
	Defenders
	// Attackers is the number of pieces on the three rows nearest the
	// opponent's back row (rows 5, 6 and 7).
	Attackers
	// PromotionDistance is the sum over men of the rows still to go before
	// crowning, 7 − row. It is the mirror of the classic tempo count
	// (the sum of the men's rows), which is therefore not a separate feature.
	PromotionDistance
	// OpenPromotion is the number of empty squares on the side's crowning
	// row (the opponent's back row).
	OpenPromotion
	// Mobility is the number of simple (non-capturing) moves: pairs of a
	// piece and a direction it may move in whose target square is empty,
	// whoever is to move and whether or not a capture is compulsory.
	Mobility
	// Jumps is the number of single jumps available: pairs of a piece and a
	// direction it may move in with an opposing piece next to it and an
	// empty square behind that piece, whoever is to move.
	Jumps
	// BackRank is the number of men still on the side's own back row, which
	// guard it against the opponent's crowning.
	BackRank
	// Bridge is 1 when the side holds the bridge, men on both of its
	// back-row squares 1 and 3 (for White, 32 and 30), the classic two-man
	// back-rank guard; else 0.
	Bridge
	// CentreMen is the number of men on the eight central squares 10, 11,
	// 14, 15, 18, 19, 22 and 23.
	CentreMen
	// CentreKings is the number of kings on the central squares.
	CentreKings
	// Runaways is the number of men with a free path to the crowning row: no
	// opposing piece stands in the man's forward cone, the squares it could
	// pass through on any way to the crowning row.
	Runaways
	// TrappedKings is the number of kings with no empty neighbouring square.
	TrappedKings
	// DoubleCornerKings is the number of kings in a double corner (squares 1,
	// 5, 28 and 32), the weaker side's refuge in king endings.
	DoubleCornerKings
	// KingsVsMen is 1 when the side has a king and the opponent has none,
	// else 0.
	KingsVsMen
	// NumFeatures is the number of features.
	NumFeatures
)

// FeatureNames holds each feature's name in weight files, indexed by feature
// number.
var FeatureNames = [NumFeatures]string{
	Men:               "men",
	Kings:             "kings",
	SafeMen:           "safe_men",
	SafeKings:         "safe_kings",
	Defenders:         "defenders",
	Attackers:         "attackers",
	PromotionDistance: "promotion_distance",
	OpenPromotion:     "open_promotion",
	Mobility:          "mobility",
	Jumps:             "jumps",
	BackRank:          "back_rank",
	Bridge:            "bridge",
	CentreMen:         "centre_men",
	CentreKings:       "centre_kings",
	Runaways:          "runaways",
	TrappedKings:      "trapped_kings",
	DoubleCornerKings: "double_corner_kings",
	KingsVsMen:        "kings_vs_men",
}

// featureScale multiplies each raw count; only kings carry a factor.
var featureScale = [NumFeatures]float64{
	Men: 1, Kings: 1.5, SafeMen: 1, SafeKings: 1, Defenders: 1, Attackers: 1,
	PromotionDistance: 1, OpenPromotion: 1, Mobility: 1, Jumps: 1, BackRank: 1,
	Bridge: 1, CentreMen: 1, CentreKings: 1, Runaways: 1, TrappedKings: 1,
	DoubleCornerKings: 1, KingsVsMen: 1,
}

// Vector holds one value per feature.
type Vector [NumFeatures]float64

// frame holds the board geometry seen from one side: its rows counted from
// its own back row, its forward and backward steps, and the masks that
// depend on the direction of play.
type frame struct {
	// rows[r] holds the squares r rows away from the side's back row.
	rows [8]uint64
	// defence, attack, runRows and ahead are unions of rows: 0-1, 5-7, 3-6
	// and 4-7.
	defence, attack, runRows, ahead uint64
	// distBits[k] holds the squares whose distance to the crowning row,
	// 7 − row, has bit k set.
	distBits [3]uint64
	// bridge holds the side's bridge squares (Black 1 and 3, White 32 and 30).
	bridge uint64
	// fwd and back are the bit rotations of the side's forward and backward
	// diagonal steps.
	fwd, back [2]int
}

var (
	frames                 [2]frame
	borderMask, centreMask uint64
	doubleCornerMask       uint64
)

func squares(list ...int) uint64 {
	var b uint64
	for _, s := range list {
		b |= engine.SquareBit(s)
	}
	return b
}

func init() {
	// Border, centre and double corners are the same seen from either side.
	centreMask = squares(10, 11, 14, 15, 18, 19, 22, 23)
	doubleCornerMask = squares(1, 5, 28, 32)
	frames[engine.Black].fwd, frames[engine.Black].back = [2]int{4, 5}, [2]int{-4, -5}
	frames[engine.White].fwd, frames[engine.White].back = [2]int{-4, -5}, [2]int{4, 5}
	frames[engine.Black].bridge = squares(1, 3)
	frames[engine.White].bridge = squares(32, 30)
	for s := 1; s <= 32; s++ {
		row, col := engine.SquareCoords(s)
		if row == 0 || row == 7 || col == 0 || col == 7 {
			borderMask |= engine.SquareBit(s)
		}
		for c := range frames {
			fr := &frames[c]
			ownRow := row // rows counted from the side's back row
			if engine.Color(c) == engine.White {
				ownRow = 7 - row
			}
			fr.rows[ownRow] |= engine.SquareBit(s)
			for k := range fr.distBits {
				if (7-ownRow)>>k&1 != 0 {
					fr.distBits[k] |= engine.SquareBit(s)
				}
			}
		}
	}
	for c := range frames {
		fr := &frames[c]
		fr.defence = fr.rows[0] | fr.rows[1]
		fr.attack = fr.rows[5] | fr.rows[6] | fr.rows[7]
		fr.runRows = fr.rows[3] | fr.rows[4] | fr.rows[5] | fr.rows[6]
		fr.ahead = fr.rows[4] | fr.rows[5] | fr.rows[6] | fr.rows[7]
	}
}

// step moves every piece of b one diagonal step by bit rotation k, keeping
// real squares only (a step off the board wraps to bits the mask removes).
func step(b uint64, k int) uint64 { return bits.RotateLeft64(b, k) & engine.BoardMask }

// sideSum returns the weighted sum, with weights w, of the feature counts of
// the side owning own, seen through its frame fr, against the opponent's
// pieces opp; kings holds both sides' kings. It is the one definition of the
// features: the evaluation calls it with the blended weights, Features and
// SideFeatures with weights that pack the counts (packWeights).
func sideSum(w *[NumFeatures]int64, fr *frame, own, opp, kings uint64) int64 {
	men := own &^ kings
	var sum int64
	empty := engine.BoardMask &^ (own | opp)
	f0, f1 := fr.fwd[0], fr.fwd[1]
	sum += w[Men] * pop(men)
	sum += w[SafeMen] * pop(men&borderMask)
	sum += w[Defenders] * pop(own&fr.defence)
	sum += w[Attackers] * pop(own&fr.attack)
	sum += w[PromotionDistance] * (4*pop(men&fr.distBits[2]) + 2*pop(men&fr.distBits[1]) + pop(men&fr.distBits[0]))
	sum += w[OpenPromotion] * pop(empty&fr.rows[7])
	sum += w[Mobility] * (pop(step(own, f0)&empty) + pop(step(own, f1)&empty))
	sum += w[Jumps] * (pop(step(step(own, f0)&opp, f0)&empty) + pop(step(step(own, f1)&opp, f1)&empty))
	sum += w[BackRank] * pop(men&fr.rows[0])
	sum += w[Bridge] * b2i(men&fr.bridge == fr.bridge)
	sum += w[CentreMen] * pop(men&centreMask)
	// A man is a runaway when no opposing piece can be reached from it by
	// forward steps, that is when it is not reached from any opposing piece
	// by backward steps. Men on rows 3-6 only have rows 4-7 ahead of them.
	b0, b1 := fr.back[0], fr.back[1]
	if runners := men & fr.runRows; runners != 0 {
		x := opp & fr.ahead
		x = step(x, b0) | step(x, b1)
		blocked := x
		x = step(x, b0) | step(x, b1)
		blocked |= x
		x = step(x, b0) | step(x, b1)
		blocked |= x
		blocked |= step(x, b0) | step(x, b1)
		sum += w[Runaways] * pop(runners&^blocked)
	}
	ownKings := own & kings
	if ownKings == 0 {
		return sum
	}
	sum += w[Kings] * pop(ownKings)
	sum += w[SafeKings] * pop(ownKings&borderMask)
	sum += w[Mobility] * (pop(step(ownKings, b0)&empty) + pop(step(ownKings, b1)&empty))
	sum += w[Jumps] * (pop(step(step(ownKings, b0)&opp, b0)&empty) + pop(step(step(ownKings, b1)&opp, b1)&empty))
	sum += w[CentreKings] * pop(ownKings&centreMask)
	nextToEmpty := step(empty, 4) | step(empty, 5) | step(empty, -4) | step(empty, -5)
	sum += w[TrappedKings] * pop(ownKings&^nextToEmpty)
	sum += w[DoubleCornerKings] * pop(ownKings&doubleCornerMask)
	sum += w[KingsVsMen] * b2i(opp&kings == 0)
	return sum
}

func pop(b uint64) int64 { return int64(bits.OnesCount64(b)) }

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// packWeights[g] weights feature 8g+j by 256^j and the others by 0. Every
// count of one side lies in [0, 255], so sideSum with these weights packs
// eight counts into the bytes of one sum without carries.
var packWeights = func() (out [(NumFeatures + 7) / 8][NumFeatures]int64) {
	for i := range NumFeatures {
		out[i/8][i] = 1 << (8 * (i % 8))
	}
	return out
}()

// sideFeatures returns side's feature counts (no kings factor).
func sideFeatures(p *engine.Position, side engine.Color) [NumFeatures]int64 {
	side &= 1
	own, opp := p.Pieces[side]&engine.BoardMask, p.Pieces[side^1]&engine.BoardMask
	var out [NumFeatures]int64
	for g := range packWeights {
		packed := uint64(sideSum(&packWeights[g], &frames[side], own, opp, p.Kings&engine.BoardMask))
		for j := 0; j < 8 && 8*g+j < NumFeatures; j++ {
			out[8*g+j] = int64(packed >> (8 * j) & 0xff)
		}
	}
	return out
}

// Features returns the feature vector of p for the side to move: each
// feature's own count minus the opponent's, with the kings factor applied.
// The evaluation is the dot product of this vector with the blended weights.
// It is meant for tuning and inspection, not for the search.
func Features(p *engine.Position) Vector {
	us, them := sideFeatures(p, p.Side), sideFeatures(p, p.Side.Opponent())
	var v Vector
	for i := range v {
		v[i] = float64(us[i]-them[i]) * featureScale[i]
	}
	return v
}

// SideFeatures returns the raw counts of one side's features (no kings
// factor), for tests and inspection.
func SideFeatures(p *engine.Position, side engine.Color) [NumFeatures]int {
	var out [NumFeatures]int
	for i, x := range sideFeatures(p, side) {
		out[i] = int(x)
	}
	return out
}
