package session

import (
	"github.com/nechecb/nechecb/books"
	"github.com/nechecb/nechecb/engine"
)

// openingBook is the opening book as the Book, BookFile and Seed options set
// it up. A named file is read when BookFile is set (a file that does not
// load is refused there); the built-in book is made when Book first goes
// above 0. Its random choices follow Seed, so that the same Seed plays the
// same book moves.
type openingBook struct {
	level int    // the Book option: 0 none, 1 all moves, 2 good ones, 3 best
	file  string // the BookFile option; "" is the built-in book
	seed  uint64 // the Seed option
	book  *books.Book
	play  *books.Player
	// resolve finds a file named by the user (Config.Resolve).
	resolve func(string) string
}

// probe returns a book move for pos under the Book level.
func (b *openingBook) probe(pos engine.Position, history []engine.Position) (engine.Move, bool) {
	if b.level == 0 || b.play == nil {
		return engine.Move{}, false
	}
	return b.play.Probe(pos, history, b.level)
}

// setLevel sets the Book option, reading the book when it is needed and not
// read yet.
func (b *openingBook) setLevel(level int) error {
	if level > 0 && b.book == nil {
		if err := b.load(b.file); err != nil {
			return err
		}
	}
	b.level = level
	return nil
}

// setFile sets the BookFile option: a named file, or the built-in book with
// a book in use, is read now.
func (b *openingBook) setFile(file string) error {
	if file == "" && b.level == 0 {
		b.file, b.book, b.play = "", nil, nil
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
	bk, err := books.Open(b.resolve(file))
	if err != nil {
		return err
	}
	b.book, b.play = bk, books.NewPlayer(bk, b.seed)
	return nil
}
