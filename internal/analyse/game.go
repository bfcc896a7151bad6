package analyse

import (
	"context"
	"fmt"
	"strings"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/pdn"
	"github.com/nechecb/nechecb/internal/player"
	"github.com/nechecb/nechecb/internal/review"
)

// point is what the analysis found at one position of a game.
type point struct {
	// score is the search's value for the side to move, found at depth
	// (0 where the rules had ended the game: no search).
	score player.Score
	depth int
	// pv is the best line from the position; empty where there is no move
	// or the game was over.
	pv []engine.Move
	// db is the endgame database's verdict for the side to move.
	db player.Outcome
	// drawn: the rules drew the game here (repetition, 40-move rule).
	drawn bool
}

// analyseGame searches every position of g, the game's earlier positions
// counting for repetitions, calling onPosition after each. It fails only
// when ctx is cancelled.
func analyseGame(ctx context.Context, eng *player.Engine, lim player.Limits, g *pdn.Game, onPosition func()) ([]point, error) {
	eng.Clear() // a new game: nothing learnt from the last one
	pos := g.Record.Positions()
	out := make([]point, len(pos))
	for i := range pos {
		p := &out[i]
		p.db = eng.ProbeDB(&pos[i])
		if r := engine.ResultOf(pos[:i+1]); r.Outcome == engine.Draw {
			p.drawn = true
		} else {
			r := eng.Search(ctx, pos[i], pos[:i], lim, nil)
			if err := ctx.Err(); err != nil {
				return nil, err
			}
			p.score, p.depth, p.pv = r.Score, r.Depth, r.PV
		}
		onPosition()
	}
	return out, nil
}

// maxLine is the most plies of a best line written as a side line: the
// end of a longer line is the search's guess at its horizon.
const maxLine = 10

// judged is a move of a game as the analysis judged it.
type judged struct {
	mark string  // review.Mark of loss, "" when the move was the best
	loss float64 // expected score lost for the mover
}

// judge judges move ply (from 1) of a game from the points before and
// after it: the expected score its mover lost (internal/review), unless it
// was the move the search found best (or the search found none: the game
// had gone on past a draw by the rules).
func judge(before, after *point, played engine.Move) judged {
	if len(before.pv) == 0 || before.pv[0] == played {
		return judged{}
	}
	loss := review.Loss(expected(before), 1-expected(after))
	return judged{mark: review.Mark(loss), loss: loss}
}

// expected returns the expected score of a point for its side to move.
func expected(p *point) float64 {
	if p.drawn {
		return 0.5
	}
	return review.Expected(p.score)
}

// annotate returns g with the analysis a: the Annotator tag, a summary
// comment before the first move, and after each move its score, the
// database's verdict where the move changed it, and for a marked move its
// mark, what it lost and the best line as a side line. g's own comments,
// marks and side lines stay.
func annotate(g *pdn.Game, a []point, annotator string) *pdn.Game {
	out := *g
	out.Tags = append([]pdn.Tag(nil), g.Tags...)
	out.Comments = append([]string(nil), g.Comments...)
	out.Marks = append([]string(nil), g.Marks...)
	out.Variations = append([]pdn.Variation(nil), g.Variations...)
	out.SetTag("Annotator", annotator)
	pos := g.Record.Positions()
	var marks [2]map[string]int // by mover
	for ply, m := range g.Record.Moves() {
		before, after := &a[ply], &a[ply+1]
		mover := pos[ply].Side
		j := judge(before, after, m)
		text := scoreText(after, pos[ply+1].Side)
		if v := dbChange(before, after, mover); v != "" {
			text += "; " + v
		}
		if j.mark != "" {
			if marks[mover] == nil {
				marks[mover] = map[string]int{}
			}
			marks[mover][j.mark]++
			out.SetMark(ply+1, j.mark)
			text += fmt.Sprintf("; lost %.2f, best %s %s", j.loss, pos[ply].Notation(before.pv[0]), scoreText(before, mover))
			out.Variations = append(out.Variations, pdn.Variation{Ply: ply, Moves: before.pv[:min(len(before.pv), maxLine)]})
		}
		out.SetComment(ply+1, joinComment(g.Comment(ply+1), text))
	}
	out.SetComment(0, joinComment(g.Comment(0), summary(marks)))
	return &out
}

// joinComment puts the analysis after a comment the game already had.
func joinComment(own, analysis string) string {
	if own == "" {
		return analysis
	}
	return own + " " + analysis
}

// markNames names the marks in the summary, worst first.
var markNames = []struct{ mark, one, many string }{
	{"??", "blunder", "blunders"}, {"?", "mistake", "mistakes"}, {"?!", "inaccuracy", "inaccuracies"},
}

// summary is the comment before the first move: each side's marked moves
// and how to read the scores.
func summary(marks [2]map[string]int) string {
	var parts []string
	for _, side := range []engine.Color{engine.Black, engine.White} {
		var n []string
		for _, m := range markNames {
			c := marks[side][m.mark]
			name := m.many
			if c == 1 {
				name = m.one
			}
			n = append(n, fmt.Sprintf("%d %s (%s)", c, name, m.mark))
		}
		parts = append(parts, fmt.Sprintf("%s %s", colour(side), strings.Join(n, ", ")))
	}
	return "nechecb analyse: " + strings.Join(parts, "; ") +
		". After each move: the score in men from Black's side / the depth searched."
}

// scoreText writes a point's score from Black's side: "+0.25/12" in men
// over the depth, "Black wins in 9" (plies), "White wins (db)" for a win
// the database settled, "draw" where the rules drew the game. side is the
// point's side to move.
func scoreText(p *point, side engine.Color) string {
	if p.drawn {
		return "draw"
	}
	s := p.score
	winner, loser := colour(side), colour(side.Opponent())
	switch {
	case s.IsWin():
		return fmt.Sprintf("%s wins in %d", winner, s.Plies())
	case s.IsLoss() && s.Plies() == 0:
		return fmt.Sprintf("%s wins", loser)
	case s.IsLoss():
		return fmt.Sprintf("%s wins in %d", loser, s.Plies())
	case s.IsKnownWin():
		return fmt.Sprintf("%s wins (db)", winner)
	case s.IsKnownLoss():
		return fmt.Sprintf("%s wins (db)", loser)
	}
	v := int(s)
	if side == engine.White {
		v = -v
	}
	return fmt.Sprintf("%+.2f/%d", float64(v)/100, p.depth)
}

// dbChange says, for a move whose positions before and after both have
// the endgame database's verdict, what the move changed the result to:
// "db: draw, was Black wins" ("" when it kept it). mover moved.
func dbChange(before, after *point, mover engine.Color) string {
	if before.db == player.DBUnknown || after.db == player.DBUnknown {
		return ""
	}
	was, now := verdict(before.db, mover), verdict(after.db, mover.Opponent())
	if was == now {
		return ""
	}
	return fmt.Sprintf("db: %s, was %s", now, was)
}

// verdict writes a database verdict for side to move as the result.
func verdict(o player.Outcome, side engine.Color) string {
	switch o {
	case player.DBWin:
		return colour(side) + " wins"
	case player.DBLoss:
		return colour(side.Opponent()) + " wins"
	}
	return "draw"
}

// colour names a side with a capital, as PDN's tags do: "Black", "White".
func colour(c engine.Color) string {
	if c == engine.Black {
		return "Black"
	}
	return "White"
}
