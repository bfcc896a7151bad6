package booksearch

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/nechecb/nechecb/books"
	"github.com/nechecb/nechecb/internal/badinput"
)

// BookBuild is what nechecb book build asks for: a book built from the
// games of a PDN file, or by searching the ballots (FileBuild, with
// FileBuild.Ballots set).
type BookBuild struct {
	FileBuild
	// PDN is the file of games; Strict refuses the whole file when a game
	// in it is bad; Games are the build's settings.
	PDN    string
	Strict bool
	Games  books.GameOptions
}

// Run builds the book and writes what was built on log, after prefix; bad
// games are named there too. A missing Out, both or neither of PDN and
// Ballots, or a search limit that is not exactly one of a depth and a move
// time is bad input (internal/badinput), as are the errors of BuildFile
// and books.BuildFromPDN that say so.
func (b BookBuild) Run(ctx context.Context, log io.Writer, prefix string) error {
	switch search := b.Ballots != ""; {
	case b.Out == "":
		return badinput.Mark(errors.New("-o FILE is required"))
	case (b.PDN == "") == !search:
		return badinput.Mark(errors.New("give either --pdn FILE or --ballots SET with --depth or --movetime"))
	case search && (b.Limits.Depth > 0) == (b.Limits.MoveTime > 0):
		return badinput.Mark(errors.New("give exactly one of --depth N and --movetime MS"))
	case search:
		n, err := BuildFile(ctx, b.FileBuild, log)
		if err == nil {
			fmt.Fprintf(log, "%s%d positions written to %s\n", prefix, n, b.Out)
		}
		return err
	}
	n, book, err := books.BuildFromPDN(b.PDN, b.Strict, b.Games, b.Out, b.Text, log, prefix)
	if err == nil {
		fmt.Fprintf(log, "%s%d games, %d positions written to %s\n", prefix, n, book.Len(), b.Out)
	}
	return err
}
