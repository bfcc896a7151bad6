package search

import "fmt"

// Score is a search value for the side to move on the evaluator's scale
// (100 = one man). Wins and losses lie outside every evaluation and carry
// their distance: a win in n plies is WinScore-n, a loss in n plies
// -(WinScore-n), so a larger score is always a faster win or a slower loss.
type Score int32

const (
	// MaxPly bounds the depth of the search path, extensions included.
	MaxPly = 128
	// WinScore is the value of winning at the root itself; a win found n
	// plies deep scores WinScore-n.
	WinScore Score = 30000
	// infinity is above every reachable score; it bounds the windows.
	infinity Score = 32000
	// DrawScore is the value of a drawn position.
	DrawScore Score = 0
	// winBound is the least score that still means a forced win.
	winBound = WinScore - 2*MaxPly
)

// WinIn returns the score of a win in plies plies.
func WinIn(plies int) Score { return WinScore - Score(plies) }

// LossIn returns the score of a loss in plies plies.
func LossIn(plies int) Score { return -WinScore + Score(plies) }

// IsWin reports whether s is a forced win for the side to move.
func (s Score) IsWin() bool { return s >= winBound && s <= WinScore }

// IsLoss reports whether s is a forced loss for the side to move.
func (s Score) IsLoss() bool { return s <= -winBound && s >= -WinScore }

// Plies returns the distance in plies to the end of the game for a win or a
// loss, and 0 for any other score.
func (s Score) Plies() int {
	switch {
	case s.IsWin():
		return int(WinScore - s)
	case s.IsLoss():
		return int(WinScore + s)
	}
	return 0
}

// String writes a win or loss as "win N" or "loss N" (N in plies) and any
// other score as a signed number.
func (s Score) String() string {
	switch {
	case s.IsWin():
		return fmt.Sprintf("win %d", s.Plies())
	case s.IsLoss():
		return fmt.Sprintf("loss %d", s.Plies())
	}
	return fmt.Sprintf("%+d", int32(s))
}

// toTable converts a score found ply plies below the root into the form
// stored in the table, distance counted from the stored node.
func toTable(s Score, ply int) Score {
	switch {
	case s >= winBound:
		return s + Score(ply)
	case s <= -winBound:
		return s - Score(ply)
	}
	return s
}

// fromTable undoes toTable for a node ply plies below the root.
func fromTable(s Score, ply int) Score {
	switch {
	case s >= winBound:
		return s - Score(ply)
	case s <= -winBound:
		return s + Score(ply)
	}
	return s
}
