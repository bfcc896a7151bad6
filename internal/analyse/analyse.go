// Package analyse annotates the games of a PDN file, as nechecb analyse
// does: every position of every game is searched with the engine session
// the other front ends use (internal/session), each move gets the engine's
// score after it, the endgame database's verdict where the move changed
// it, and a mark ("?!", "?", "??") with the best line as a side line where
// it lost expected score (internal/review, as the gui's game analysis
// marks moves). The games are written with engine/pdn's writer, through a
// temporary file renamed into place, after every few games, so that an
// interrupted run leaves the games done so far and --resume goes on from
// them.
package analyse

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/pdn"
	"github.com/nechecb/nechecb/internal/badinput"
	"github.com/nechecb/nechecb/internal/fileio"
	"github.com/nechecb/nechecb/internal/player"
	"github.com/nechecb/nechecb/internal/session"
)

// DefaultMoveTime is the time a position gets when neither MoveTime nor
// Depth is given.
const DefaultMoveTime = time.Second

// Options say what to analyse and how.
type Options struct {
	// In is the PDN file to analyse; Out the file to write (empty: In with
	// ".analysed.pdn" for its ".pdn").
	In, Out string
	// Resume goes on from the games already in Out; without it an Out that
	// exists is refused.
	Resume bool
	// MoveTime is the time a position gets, or Depth the depth it is
	// searched to; at most one may be set (neither: DefaultMoveTime).
	MoveTime time.Duration
	Depth    int
	// Eval is the evaluator spec, DB the endgame database (the session's
	// Eval and DBPath options: "" for DB is the built-in database, "none"
	// no database), Threads the search threads (0: the session's default).
	Eval, DB string
	Threads  int
	// Annotator names the program in the Annotator tag: "nechecb VERSION".
	Annotator string
	// Stderr gets the progress, the games skipped and the notes.
	Stderr io.Writer
	// SaveEvery is the least time between two writes of Out while games
	// are analysed (0: 10 seconds); Out is always written at the end.
	SaveEvery time.Duration
}

// OutName returns the output file for in when none is given: in with
// ".analysed.pdn" in place of ".pdn".
func OutName(in string) string {
	return strings.TrimSuffix(in, ".pdn") + ".analysed.pdn"
}

// job is one run: its options, the engine, the games to analyse and those
// done.
type job struct {
	opts  Options
	sess  *session.Session
	limit player.Limits
	games []*pdn.Game // the readable games of In
	done  []*pdn.Game // annotated, in order: games[:len(done)]
	saved time.Time
}

// Run analyses the games of opts.In and writes them to opts.Out. What can
// be refused is refused before any search: bad options, an evaluator or
// database that does not load, an input with no readable game, an output
// that cannot be written or exists without Resume, or one Resume cannot
// go on from; those errors are marked as bad input (internal/badinput).
// A bad game of In is skipped and named on Stderr. When ctx is cancelled
// the games done are written and the error says where --resume goes on.
func Run(ctx context.Context, opts Options) error {
	j, err := prepare(opts)
	if err != nil {
		return err
	}
	return j.run(ctx)
}

// prepare checks opts and readies the job: everything before the first
// search.
func prepare(opts Options) (*job, error) {
	if opts.Stderr == nil {
		opts.Stderr = io.Discard
	}
	if opts.Out == "" {
		opts.Out = OutName(opts.In)
	}
	if opts.SaveEvery <= 0 {
		opts.SaveEvery = 10 * time.Second
	}
	j := &job{opts: opts}
	var err error
	if j.limit, err = limits(opts); err != nil {
		return nil, badinput.Mark(err)
	}
	if err := checkOut(opts); err != nil {
		return nil, badinput.Mark(err)
	}
	if j.sess, err = newSession(opts); err != nil {
		return nil, badinput.Mark(err)
	}
	coll, err := pdn.ReadCollectionFile(opts.In, false)
	if err != nil {
		return nil, badinput.Mark(err)
	}
	coll.Report(opts.Stderr, "nechecb analyse: ")
	if len(coll.Games) == 0 {
		return nil, badinput.Mark(fmt.Errorf("%s: no readable game, nothing written", opts.In))
	}
	j.games = coll.Games
	if opts.Resume {
		if j.done, err = resumed(opts.Out, j.games); err != nil {
			return nil, badinput.Mark(err)
		}
	}
	return j, nil
}

// limits returns the search limits of a position.
func limits(opts Options) (player.Limits, error) {
	switch {
	case opts.MoveTime < 0 || opts.Depth < 0:
		return player.Limits{}, errors.New("--movetime and --depth may not be negative")
	case opts.MoveTime > 0 && opts.Depth > 0:
		return player.Limits{}, errors.New("give --movetime or --depth, not both")
	case opts.Depth > 0:
		return player.Limits{Depth: opts.Depth}, nil
	case opts.MoveTime > 0:
		return player.Limits{MoveTime: opts.MoveTime}, nil
	}
	return player.Limits{MoveTime: DefaultMoveTime}, nil
}

// checkOut refuses an output that cannot be written, that is the input,
// or that exists without Resume.
func checkOut(opts Options) error {
	if same(opts.In, opts.Out) {
		return fmt.Errorf("--out %s is the input file", opts.Out)
	}
	if _, err := os.Stat(opts.Out); err == nil && !opts.Resume {
		return fmt.Errorf("%s exists: use --resume to go on from its games, or another --out", opts.Out)
	}
	return fileio.CheckWritable(opts.Out)
}

// same reports whether paths a and b name one existing file.
func same(a, b string) bool {
	fa, err1 := os.Stat(a)
	fb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(fa, fb)
}

// newSession makes the engine session of opts, writing the setters'
// remarks (the database's pieces) on Stderr.
func newSession(opts Options) (*session.Session, error) {
	sess, err := session.New(session.Config{})
	if err != nil {
		return nil, err
	}
	set := [][2]string{{"DBPath", opts.DB}}
	if opts.Eval != "" {
		set = append(set, [2]string{"Eval", opts.Eval})
	}
	if opts.Threads > 0 {
		set = append(set, [2]string{"Threads", fmt.Sprint(opts.Threads)})
	}
	for _, o := range set {
		notes, err := sess.Set(o[0], o[1])
		if err != nil {
			return nil, err
		}
		for _, n := range notes {
			fmt.Fprintf(opts.Stderr, "nechecb analyse: %s: %s\n", o[0], n)
		}
	}
	sess.Ready()
	return sess, nil
}

// resumed reads the games already in out, each of which must be the
// game of in at its place (the same start and moves). A missing out holds
// none.
func resumed(out string, in []*pdn.Game) ([]*pdn.Game, error) {
	if _, err := os.Stat(out); errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	coll, err := pdn.ReadCollectionFile(out, true)
	if err != nil {
		return nil, fmt.Errorf("--resume: %w", err)
	}
	if len(coll.Games) > len(in) {
		return nil, fmt.Errorf("--resume: %s holds %d games, the input only %d readable ones", out, len(coll.Games), len(in))
	}
	for i, g := range coll.Games {
		if !sameGame(g.Record, in[i].Record) {
			return nil, fmt.Errorf("--resume: game %d of %s is not game %d of the input (%s)", i+1, out, in[i].Number, describe(in[i]))
		}
	}
	return coll.Games, nil
}

// sameGame reports whether a and b start alike and play the same moves.
func sameGame(a, b *engine.Game) bool {
	return a.Start().Hash == b.Start().Hash && slices.Equal(a.Moves(), b.Moves())
}

// describe names a game by its players and event.
func describe(g *pdn.Game) string {
	return fmt.Sprintf("%s - %s, %s", g.Tag("Black"), g.Tag("White"), g.Tag("Event"))
}

// afterGame is called after each game analysed with the number done so
// far; tests interrupt a run there.
var afterGame = func(ctx context.Context, done int) {}

// run analyses the games not done yet and writes them all.
func (j *job) run(ctx context.Context) error {
	if n := len(j.done); n > 0 {
		fmt.Fprintf(j.opts.Stderr, "nechecb analyse: %s: %s done, going on from game %d\n", j.opts.Out, plural(n, "game"), j.games[n].Number)
	}
	prog := newProgress(j.opts.Stderr, j.games[len(j.done):])
	defer prog.done()
	for _, g := range j.games[len(j.done):] {
		a, err := analyseGame(ctx, j.sess.Engine(), j.limit, g, prog.position)
		if err != nil {
			prog.done()
			if serr := j.save(); serr != nil {
				return serr
			}
			return fmt.Errorf("interrupted: %d of %d games written to %s; --resume goes on from game %d", len(j.done), len(j.games), j.opts.Out, g.Number)
		}
		j.done = append(j.done, annotate(g, a, j.header()))
		prog.game()
		afterGame(ctx, len(j.done))
		if time.Since(j.saved) >= j.opts.SaveEvery {
			if err := j.save(); err != nil {
				return err
			}
		}
	}
	prog.done()
	if err := j.save(); err != nil {
		return err
	}
	fmt.Fprintf(j.opts.Stderr, "nechecb analyse: %s written to %s\n", plural(len(j.done), "game"), j.opts.Out)
	return nil
}

// save writes the games done to Out, through a temporary file.
func (j *job) save() error {
	j.saved = time.Now()
	if len(j.done) == 0 {
		return nil
	}
	return pdn.WriteFile(j.opts.Out, j.done...)
}

// header is what the Annotator tag says: the program, the evaluator and
// the search limit.
func (j *job) header() string {
	eng := j.sess.Engine()
	name := j.opts.Annotator
	if name == "" {
		name = "nechecb"
	}
	lim := fmt.Sprintf("depth %d", j.limit.Depth)
	if j.limit.Depth == 0 {
		lim = fmt.Sprintf("%d ms a position", j.limit.MoveTime.Milliseconds())
	}
	db := "no database"
	if n := eng.DBPieces(); n > 0 {
		db = fmt.Sprintf("%d-piece database", n)
	}
	return fmt.Sprintf("%s, eval %s, %s, %s", name, eng.Evaluator(), lim, db)
}

// plural writes n things: "1 game", "2 games".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}
