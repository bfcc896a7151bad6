package books

import (
	"bytes"
	_ "embed"
	"sync"
)

// defaultBookData is the built-in book. It was built by searching every
// position on the way through the 3-move ballots (229 positions), each legal
// move on its own, with the heuristic evaluator:
//
//	nechecb book build --ballots 3move --depth 14 --eval heuristic -o books/default.book
//
//go:embed default.book
var defaultBookData []byte

// Default returns the built-in book. It is read once; the file is part of
// the binary and a test reads it, so a bad one is a build defect and panics.
var Default = sync.OnceValue(func() *Book {
	b, err := Read(bytes.NewReader(defaultBookData), "default.book (embedded)")
	if err != nil {
		panic("books: the built-in book: " + err.Error())
	}
	return b
})

// Open returns the book in file, or the built-in book when file is "".
func Open(file string) (*Book, error) {
	if file == "" {
		return Default(), nil
	}
	return ReadFile(file)
}
