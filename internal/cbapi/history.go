package cbapi

import (
	"fmt"
	"strings"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/internal/session"
)

// ParseGameHist reads the value of "set gamehist": a FEN, the position
// after the game's last capture or man move, then the king moves played
// since, as "from-to". It returns the game they describe, or an error
// naming what did not fit.
func ParseGameHist(text string) (*session.Game, error) {
	fields := strings.Fields(text)
	if len(fields) == 0 {
		return nil, fmt.Errorf("gamehist: no position given (want FEN[ from-to ...])")
	}
	start, err := engine.ParseFEN(fields[0])
	if err != nil {
		return nil, fmt.Errorf("gamehist: %v", err)
	}
	g, err := session.ParseGame(start, fields[1:], (*engine.Position).ParseMove)
	if err != nil {
		return nil, fmt.Errorf("gamehist: %v", err)
	}
	return g, nil
}

// gameAt returns the game to search root in: hist (nil when there is
// none) when its current position is root's board, since that position
// counts the reversible plies and the ones before it show repetitions;
// otherwise a game that starts at root, since the history belongs to
// another game.
func gameAt(root engine.Position, hist *session.Game) *session.Game {
	if hist != nil {
		if cur := hist.Current(); cur.SameBoard(&root) {
			return hist
		}
	}
	return session.NewGame(root)
}
