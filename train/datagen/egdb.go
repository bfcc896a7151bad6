package datagen

import (
	"errors"
	"fmt"
	"math/bits"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/internal/player"
)

// EmbeddedDB is the Config.DB that names the endgame database built into
// the binary (engine/egdb/embedded) instead of a folder. A folder of that
// name is given as ./embedded.
const EmbeddedDB = "embedded"

// useDB opens the endgame database db names (EmbeddedDB or a folder) for
// e's searches and ProbeDB, limited to pieces pieces when pieces is above
// 0; "" opens none. A database that does not open, reports a missing or
// damaged slice, or holds fewer pieces than asked is refused: the run's
// data would depend on it.
func useDB(e *player.Engine, db string, pieces int) error {
	if db == "" {
		return nil
	}
	var problems []error
	var err error
	if db == EmbeddedDB {
		problems, err = e.OpenEmbeddedDB(0)
	} else {
		problems, err = e.OpenDB(db, 0)
	}
	if err != nil {
		return fmt.Errorf("endgame database %s: %w", db, err)
	}
	if len(problems) > 0 {
		return fmt.Errorf("endgame database %s is not complete: %w", db, errors.Join(problems...))
	}
	if pieces > 0 {
		if have := e.DBPieces(); have < pieces {
			return fmt.Errorf("endgame database %s holds positions of up to %d pieces, the run needs %d", db, have, pieces)
		}
		e.SetDBLimits(pieces, true)
	}
	return nil
}

// CheckDB opens the endgame database db names (EmbeddedDB or a folder)
// and returns the most pieces of the positions it settles, or why it
// cannot be used for a run.
func CheckDB(db string) (int, error) {
	e := player.New(player.Options{HashMB: 1, Threads: 1}, func() eval.Evaluator { return eval.Material{} }, "material")
	if err := useDB(e, db, 0); err != nil {
		return 0, err
	}
	defer e.OpenDB("", 0) // closes it
	return e.DBPieces(), nil
}

// adjudicator returns the play.Rules.Adjudicate of a worker whose engine
// probes an endgame database: a game the rules have not ended is over as
// soon as it reaches a position the database settles, with the database's
// value. Without a database it returns nil.
func (w *worker) adjudicator() func(g *engine.Game) (engine.Result, bool) {
	if w.eng.DBPieces() == 0 {
		return nil
	}
	return w.adjudicate
}

// adjudicate ends g with the endgame database's value when the rules
// have not ended it and the database settles its current position.
func (w *worker) adjudicate(g *engine.Game) (engine.Result, bool) {
	cur := g.Current()
	o := w.eng.ProbeDB(&cur)
	if o == player.DBUnknown || g.Result().Outcome != engine.Ongoing {
		return engine.Result{}, false
	}
	return engine.Result{Outcome: outcomeOf(o, cur.Side), Reason: "endgame database"}, true
}

// outcomeOf returns the game's outcome when the database says o of a
// position with side to move.
func outcomeOf(o player.Outcome, side engine.Color) engine.Outcome {
	switch o {
	case player.DBWin:
		return engine.WinFor(side)
	case player.DBLoss:
		return engine.WinFor(side.Opponent())
	}
	return engine.Draw
}

// settled reports whether a game of a run with an endgame database of
// pieces pieces ends at p by the database: p is within the database and
// has a legal move (without one the rules end the game). A game is
// adjudicated at the first such position, so p is its last.
func settled(p *engine.Position, pieces int) bool {
	if pieces == 0 || bits.OnesCount64(p.Pieces[0]|p.Pieces[1]) > pieces {
		return false
	}
	var l engine.MoveList
	p.Generate(&l)
	return l.N > 0
}
