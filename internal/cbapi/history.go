package cbapi

import (
	"fmt"
	"strings"

	"github.com/nechecb/nechecb/engine"
)

// ParseGameHist reads the value of "set gamehist": a FEN, the position
// after the game's last capture or man move, then the king moves played
// since, as "from-to". It returns the positions from the FEN on, the last
// one the position the moves reach, or an error naming what did not fit.
func ParseGameHist(text string) ([]engine.Position, error) {
	fields := strings.Fields(text)
	if len(fields) == 0 {
		return nil, fmt.Errorf("gamehist: no position given (want FEN[ from-to ...])")
	}
	start, err := engine.ParseFEN(fields[0])
	if err != nil {
		return nil, fmt.Errorf("gamehist: %v", err)
	}
	positions := make([]engine.Position, 1, len(fields))
	positions[0] = start
	for i, text := range fields[1:] {
		cur := positions[len(positions)-1]
		m, err := cur.ParseMove(text)
		if err != nil {
			return nil, fmt.Errorf("gamehist: move %d: %v", i+1, err)
		}
		positions = append(positions, cur.Play(m))
	}
	return positions, nil
}

// rootWithHistory returns the position to search from and the game's
// earlier positions: when the history's last position is root's board, that
// position (which counts the reversible plies) and the ones before it;
// otherwise root alone, since the history belongs to another game.
func rootWithHistory(root engine.Position, hist []engine.Position) (engine.Position, []engine.Position) {
	if n := len(hist); n > 0 && hist[n-1].SameBoard(&root) {
		return hist[n-1], hist[:n-1]
	}
	return root, nil
}
