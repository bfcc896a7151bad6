package main

import (
	"fmt"
	"io"
	"time"

	"github.com/nechecb/nechecb/books"
	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval/all"
	"github.com/nechecb/nechecb/internal/player"
	"github.com/nechecb/nechecb/protocol"
)

// newProtocolServer makes the server of the protocol commands: the engine
// eng, its options, the opening book and the bench. Logs go to logOutput
// unless the LogFile option names a file.
func newProtocolServer(eng *player.Engine, logOutput io.Writer) (*protocol.Server, error) {
	book := &openingBook{}
	return protocol.NewServer(protocol.Config{
		Name: "nechecb", Version: version, Author: "the nechecb authors",
		Searcher: eng,
		Options:  engineOptions(eng, book),
		Book:     book,
		Bench: func(w io.Writer, depth int) (uint64, time.Duration, error) {
			return benchSpec(w, depth, eng.Evaluator())
		},
		LogOutput: logOutput,
	})
}

// engineOptions declares the engine's protocol options, in the order the
// handshakes announce them (PROTOCOL.md's table, which a test compares with
// this list), each with the setter that configures eng or book. The server
// runs the setters with the defaults when it starts, and with a changed
// value at the next isready (Hub: init) or go.
//
// The hidden Exp options switch the search's selective features
// (player.Tuning) for A/B matches: nechecb match --engine "... opts=ExpNoLMR=true".
// The hidden HubPosLayout is the server's own.
func engineOptions(eng *player.Engine, book *openingBook) []protocol.Option {
	search := func(change func(*player.Options)) error {
		o := eng.Options()
		change(&o)
		eng.SetOptions(o)
		return nil
	}
	spin := func(name string, def, lo, hi int, field func(*player.Options) *int) protocol.Option {
		return protocol.SpinOption(name, def, lo, hi, func(n int) error {
			return search(func(o *player.Options) { *field(o) = n })
		})
	}
	check := func(name string, field func(*player.Options) *bool) protocol.Option {
		return protocol.CheckOption(name, false, func(on bool) error {
			return search(func(o *player.Options) { *field(o) = on })
		})
	}
	return []protocol.Option{
		spin("Hash", 64, 1, 4096, func(o *player.Options) *int { return &o.HashMB }),
		spin("Threads", 1, 1, 256, func(o *player.Options) *int { return &o.Threads }),
		spin("MultiPV", 1, 1, 64, func(o *player.Options) *int { return &o.MultiPV }),
		// The server answers go ponder whatever this says; GUIs expect it.
		protocol.CheckOption("Ponder", false, nil),
		protocol.SpinOption("MoveOverhead", 30, 0, 5000, func(ms int) error {
			return search(func(o *player.Options) { o.MoveOverhead = time.Duration(ms) * time.Millisecond })
		}),
		protocol.SpinOption("Book", 0, 0, 3, book.setLevel),
		protocol.StringOption("BookFile", "", book.setFile),
		protocol.StringOption("Eval", all.DefaultSpec, eng.LoadEvaluator).Confirm(),
		check("RandomTies", func(o *player.Options) *bool { return &o.RandomTies }),
		check("MoverView", func(o *player.Options) *bool { return &o.MoverView }),
		protocol.SpinOption("Seed", 0, 0, 1<<31-1, func(n int) error {
			book.setSeed(uint64(n))
			return search(func(o *player.Options) { o.Seed = uint64(n) })
		}),
		protocol.LogFileOption(),
		protocol.LogLevelOption(),
		protocol.StringOption("DBPath", "", func(dir string) error {
			probs, err := eng.OpenDB(dir, eng.DBCache())
			return dbNotes(probs, err, eng)
		}),
		protocol.SpinOption("DBCache", player.DefaultDBCacheMB, 1, 65536, func(mb int) error {
			probs, err := eng.SetDBCache(mb)
			return dbNotes(probs, err, eng)
		}),

		check("ExpNoLMR", func(o *player.Options) *bool { return &o.Tuning.NoLMR }).Hide(),
		spin("ExpLMRDepth", 0, 0, 64, func(o *player.Options) *int { return &o.Tuning.LMRDepth }).Hide(),
		spin("ExpLMRMoves", 0, 0, 64, func(o *player.Options) *int { return &o.Tuning.LMRMoves }).Hide(),
		spin("ExpThreat", 0, 0, 8, func(o *player.Options) *int { return &o.Tuning.ThreatPlies }).Hide(),
		check("ExpSingleReply", func(o *player.Options) *bool { return &o.Tuning.SingleReply }).Hide(),
		// Hidden: how the Hub dialect reads pos=, for clients other than
		// pydraughts; the default is pydraughts' layout.
		protocol.HubPosLayoutOption(),
	}
}

// dbNotes turns what opening an endgame database returned into a setter's
// answer: the error, or notes saying how many pieces the database covers
// and naming each file left out.
func dbNotes(problems []error, err error, eng *player.Engine) error {
	if err != nil {
		return err
	}
	if eng.DBDir() == "" {
		return nil
	}
	notes := protocol.Notes{fmt.Sprintf("%s: %d pieces", eng.DBDir(), eng.DBPieces())}
	for _, p := range problems {
		notes = append(notes, p.Error())
	}
	return notes
}

// openingBook is the opening book as the Book, BookFile and Seed options
// set it up; the protocol server probes it before searches. The file is
// read when Book is above 0 (then a file that does not load is refused),
// and its random choices follow the Seed option, so that the same Seed
// plays the same book moves.
type openingBook struct {
	level int    // the Book option: 0 none, 1 all moves, 2 good ones, 3 best
	file  string // the BookFile option; "" is the built-in book
	seed  uint64 // the Seed option
	book  *books.Book
	play  *books.Player
}

// Probe answers the server's probe: a book move under the Book level.
func (b *openingBook) Probe(pos engine.Position, history []engine.Position) (engine.Move, bool) {
	if b.level == 0 || b.play == nil {
		return engine.Move{}, false
	}
	return b.play.Probe(pos, history, b.level)
}

// setLevel sets the Book option, reading the book file when it is needed
// and not read yet.
func (b *openingBook) setLevel(level int) error {
	if level > 0 && b.book == nil {
		if err := b.load(b.file); err != nil {
			return err
		}
	}
	b.level = level
	return nil
}

// setFile sets the BookFile option; with a book in use the file is read now.
func (b *openingBook) setFile(file string) error {
	if b.level == 0 {
		b.file, b.book, b.play = file, nil, nil
		return nil
	}
	if err := b.load(file); err != nil {
		return err
	}
	b.file = file
	return nil
}

// setSeed sets the Seed option: the book's choices start again from it.
func (b *openingBook) setSeed(seed uint64) {
	b.seed = seed
	if b.book != nil {
		b.play = books.NewPlayer(b.book, seed)
	}
}

// load reads the book of file (the built-in book for "").
func (b *openingBook) load(file string) error {
	bk, err := books.Open(file)
	if err != nil {
		return err
	}
	b.book, b.play = bk, books.NewPlayer(bk, b.seed)
	return nil
}
