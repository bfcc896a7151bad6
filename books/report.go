package books

import (
	"fmt"
	"io"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/pdn"
	"github.com/nechecb/nechecb/internal/badinput"
)

// WriteProbe writes p's FEN and hash key, then the book's moves for p with
// their weights and scores, or a line saying that p is not in the book.
func (b *Book) WriteProbe(w io.Writer, p *engine.Position) {
	e := b.Probe(p)
	fmt.Fprintf(w, "fen %s\nkey %016x\n", p.FEN(), p.Hash)
	if e == nil {
		fmt.Fprintln(w, "not in the book")
		return
	}
	fmt.Fprintf(w, "count %d\n%-10s %8s %8s\n", e.Count, "move", "weight", "score")
	for _, m := range e.Moves {
		fmt.Fprintf(w, "%-10s %8d %8d\n", m.Move, m.Weight, m.Score)
	}
}

// BuildFromPDN builds a book from the games of the PDN file games with opt
// (BuildFromGames) and saves it to out, in the text format when text is
// set. Bad games are skipped and named on log, each line after prefix; with
// strict one bad game refuses the whole file. It returns the number of games
// the book was built from and the book. A file that cannot be read or holds
// no game is bad input (internal/badinput).
func BuildFromPDN(games string, strict bool, opt GameOptions, out string, text bool, log io.Writer, prefix string) (int, *Book, error) {
	read, err := pdn.ReadCollectionFile(games, strict)
	if err != nil {
		return 0, nil, badinput.Mark(err)
	}
	read.Report(log, prefix)
	if len(read.Games) == 0 {
		return 0, nil, badinput.Mark(fmt.Errorf("%s: no game to build from", games))
	}
	records := make([]GameRecord, 0, len(read.Games))
	for _, g := range read.Games {
		records = append(records, GameRecord{Start: g.Record.Start(), Moves: g.Record.Moves(),
			Outcome: engine.OutcomeOfPDN(g.Result())})
	}
	b, err := BuildFromGames(records, opt)
	if err == nil {
		err = b.Save(out, text)
	}
	if err != nil {
		return 0, nil, fmt.Errorf("%s: %w", games, err)
	}
	return len(records), b, nil
}
