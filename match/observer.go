package match

import (
	"bytes"
	"strings"

	"github.com/nechecb/nechecb/engine"
)

// Observer watches a match while it is played: a live display of the
// games and the table. Its methods are called from the goroutines that play
// the games and from the one that records them, so they must be safe for
// concurrent use, and quick, since the game waits for them. A game played
// on a fleet is seen only when it ends (GameEnded, Standings).
type Observer interface {
	// GameStarted is called when game index (the schedule's number, from
	// 1) begins from start, Black and White being the engines' names.
	GameStarted(index int, black, white, opening string, start engine.Position)
	// MovePlayed is called after each move of game index: ply counts the
	// moves played so far, move is the last one, played in before, and
	// after the position it reached.
	MovePlayed(index, ply int, before engine.Position, move engine.Move, after engine.Position)
	// GameEnded is called when game index is recorded, with its result.
	GameEnded(index int, result engine.Result)
	// Standings is called before the first game and after each recorded
	// one with the lines of the table the match prints at its end, and the
	// SPRT's line ("" without --sprt).
	Standings(table []string, sprt string)
}

// observeMove tells the observer, if any, of the move just played in g.
func (c *Config) observeMove(index int, g *engine.Game) {
	if c.Observer == nil || g.Ply() == 0 {
		return
	}
	ply := g.Ply()
	c.Observer.MovePlayed(index, ply, g.Positions()[ply-1], g.Moves()[ply-1], g.Current())
}

// observeStandings tells the observer, if any, the table as it stands.
func (st *state) observeStandings() {
	if st.cfg.Observer == nil {
		return
	}
	sum := st.summary()
	var b bytes.Buffer
	sum.writeStandings(&b)
	st.cfg.Observer.Standings(strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n"), sum.sprtLine())
}
