package booksearch

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/internal/badinput"
	"github.com/nechecb/nechecb/internal/player"
	"github.com/nechecb/nechecb/internal/term"
)

// FileBuild names what BuildFile builds: the ballot set (see Ballots), the
// evaluator spec, the search of each move, and the book file.
type FileBuild struct {
	Ballots string
	Spec    string
	Limits  player.Limits
	HashMB  int
	// Out is the book file; Resume goes on with a partial one there, and
	// Text writes the text format.
	Out    string
	Resume bool
	Text   bool
}

// BuildFile builds the book that f names (Build), showing progress on a
// status line on log, and returns the number of positions written. A bad
// ballot set or spec, or a book file that exists without Resume, is bad
// input (internal/badinput).
func BuildFile(ctx context.Context, f FileBuild, log io.Writer) (int, error) {
	ballots, err := Ballots(f.Ballots)
	if err != nil {
		return 0, badinput.Mark(fmt.Errorf("--ballots: %w", err))
	}
	factory, err := eval.Load(f.Spec)
	if err != nil {
		return 0, badinput.Mark(err)
	}
	book, err := Open(f.Out, f.Resume)
	if errors.Is(err, ErrExists) {
		err = fmt.Errorf("%s exists: use --resume to continue it, or another file", f.Out)
	}
	if err != nil {
		return 0, badinput.Mark(err)
	}
	status := term.NewStatusLine(log)
	err = Build(ctx, book, Config{Ballots: ballots, Eval: factory, HashMB: f.HashMB, Out: f.Out, Text: f.Text, Limits: f.Limits},
		func(p Progress) { status.Update(p.String()) })
	status.Done()
	return book.Len(), err
}
