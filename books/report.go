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

// ProbeFile looks the position fen up in the book file (the built-in book
// when file is "") and writes the answer (WriteProbe). A book that does not
// open or a FEN that does not read is bad input (internal/badinput).
func ProbeFile(file, fen string, w io.Writer) error {
	b, err := Open(file)
	if err != nil {
		return badinput.Mark(err)
	}
	p, err := engine.ParseFEN(fen)
	if err != nil {
		return badinput.Mark(err)
	}
	b.WriteProbe(w, &p)
	return nil
}

// DumpFile writes the book file (the built-in book when file is "") as text
// on w, or, when out is set, saves it to out in the binary format when
// binary is set and the text one otherwise. A book that does not open is
// bad input (internal/badinput).
func DumpFile(file, out string, binary bool, w io.Writer) error {
	b, err := Open(file)
	if err != nil {
		return badinput.Mark(err)
	}
	if out != "" {
		return b.Save(out, !binary)
	}
	return b.WriteText(w)
}
