package analyse

import (
	"fmt"
	"io"
	"time"

	"github.com/nechecb/nechecb/engine/pdn"
	"github.com/nechecb/nechecb/internal/term"
)

// progress shows the games and positions analysed and the time left on
// one status line.
type progress struct {
	line                     *term.StatusLine
	games, positions         int // to do
	gamesDone, positionsDone int
	start                    time.Time
}

// newProgress starts the progress of analysing games.
func newProgress(w io.Writer, games []*pdn.Game) *progress {
	p := &progress{line: term.NewStatusLine(w), games: len(games), start: time.Now()}
	for _, g := range games {
		p.positions += g.Record.Ply() + 1
	}
	return p
}

// position counts one position analysed.
func (p *progress) position() {
	p.positionsDone++
	p.show()
}

// game counts one game done.
func (p *progress) game() {
	p.gamesDone++
	p.show()
}

// show draws the line.
func (p *progress) show() {
	eta := "?"
	if p.positionsDone > 0 {
		per := time.Since(p.start) / time.Duration(p.positionsDone)
		eta = (per * time.Duration(p.positions-p.positionsDone)).Round(time.Second).String()
	}
	p.line.Update(fmt.Sprintf("analyse %s game %d/%d, %d/%d positions, eta %s",
		term.Bar(p.positionsDone, p.positions, 30), p.gamesDone, p.games, p.positionsDone, p.positions, eta))
}

// done ends the line.
func (p *progress) done() { p.line.Done() }
