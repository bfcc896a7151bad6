package books

import (
	"fmt"
	"math"
	"math/rand/v2"
	"sort"

	"github.com/nechecb/nechecb/engine"
)

// # The book
//
// A Book maps positions to the moves to play there. Each position is held
// both by its Zobrist key (engine.Position.Hash, stable across runs, used
// for lookup) and by its board (so the book can be dumped as canonical FEN
// and every stored move checked against the rules when a file is read).
// Each position carries a Count (how often it was seen while the book was
// built: games through it, or 1 for a searched position) and its moves. A
// move carries a Weight (how much it is liked when choosing at random; from
// game results or searches) and a Score (centipawns for the side to move,
// 100 = one man: the search score of a searched book, or 100*(wins-losses)/
// games for a book built from games).
//
// The binary file (version 1, little-endian) is:
//
//	magic    8 bytes  "nechbook"
//	version  uint16   1
//	reserved uint16   0
//	entries  uint32   number of positions
//	then each position, in increasing key order:
//	  black, white, kings  3 x uint32  square s is bit s-1
//	  side     uint8    0 Black to move, 1 White
//	  count    uint32
//	  moves    uint8    number of moves, 1..255
//	  then each move:
//	    length  uint8   number of squares on its path, 2..11
//	    path    length x uint8, the squares from start to end
//	    weight  uint32
//	    score   int16
//	crc      uint32   CRC-32 (IEEE) of every byte before it
//
// The text dump (WriteText, Read) is one line per position after a
// header line "nechecb book 1":
//
//	<key as 16 hex digits> <FEN> <count> <move>:<weight>:<score> ...
//
// with moves in full-path numeric notation; blank lines and lines starting
// with '#' are ignored. Both readers refuse a file that is not exactly this,
// naming the byte offset or line and what was wrong.

// Mode says how the engine uses the book in play; the values are the ones of
// the Book option (and of CheckerBoard's "book" setting).
type Mode int

const (
	// ModeNone does not use the book.
	ModeNone Mode = 0
	// ModeAll picks any book move, at random in proportion to its weight.
	ModeAll Mode = 1
	// ModeGood picks, in proportion to weight, among the moves scoring no
	// more than GoodMargin below the best.
	ModeGood Mode = 2
	// ModeBest plays the best-scoring move (highest weight on a tie).
	ModeBest Mode = 3
)

// GoodMargin is how far below the best score (in centipawns) a move may be
// and still count as good for ModeGood.
const GoodMargin = 25

// MoveEntry is one move of a book position.
type MoveEntry struct {
	// Move is the move, legal in the entry's position.
	Move engine.Move
	// Weight is the move's weight for a random choice; 0 is never chosen
	// at random (it may still be the best under ModeBest if it is the only
	// move).
	Weight uint32
	// Score is the move's value for the side to move, in centipawns.
	Score int16
}

// Entry is one book position and its moves.
type Entry struct {
	// Position is the position; its Hash is the book key.
	Position engine.Position
	// Count is how often the position was seen while building.
	Count uint32
	// Moves are the position's book moves, best score first.
	Moves []MoveEntry
}

// Book is an opening book. The zero value is not usable; make one with New
// or read one. A Book is not safe for concurrent change, but concurrent
// Probe and Choose calls are fine.
type Book struct {
	entries map[uint64][]*Entry // by key; more than one only on a key collision
	size    int
}

// New returns an empty book.
func New() *Book { return &Book{entries: map[uint64][]*Entry{}} }

// Len returns the number of positions in the book.
func (b *Book) Len() int { return b.size }

// Probe returns the entry for p, or nil if the book does not hold it.
func (b *Book) Probe(p *engine.Position) *Entry {
	if b == nil {
		return nil
	}
	for _, e := range b.entries[p.Hash] {
		if e.Position.SameBoard(p) {
			return e
		}
	}
	return nil
}

// Set stores e, replacing any entry for the same position. It checks that
// every move is legal in the position and given once, and sorts the moves
// best first.
func (b *Book) Set(e Entry) error {
	if len(e.Moves) == 0 || len(e.Moves) > 255 {
		return fmt.Errorf("book: %s: %d moves (want 1..255)", e.Position.FEN(), len(e.Moves))
	}
	e.Position.Hash = e.Position.ComputeHash()
	e.Position.Reversible = 0
	legal := e.Position.LegalMoves()
	seen := map[engine.Move]bool{}
	for _, m := range e.Moves {
		if !containsMove(legal, m.Move) {
			return fmt.Errorf("book: %s: move %s is not legal", e.Position.FEN(), m.Move)
		}
		if seen[m.Move] {
			return fmt.Errorf("book: %s: move %s given twice", e.Position.FEN(), m.Move)
		}
		seen[m.Move] = true
	}
	e.Moves = append([]MoveEntry(nil), e.Moves...)
	sortMoves(e.Moves)
	list := b.entries[e.Position.Hash]
	for i, old := range list {
		if old.Position.SameBoard(&e.Position) {
			list[i] = &e
			return nil
		}
	}
	b.entries[e.Position.Hash] = append(list, &e)
	b.size++
	return nil
}

// Entries returns every entry in a fixed order: by key, then by FEN.
func (b *Book) Entries() []*Entry {
	out := make([]*Entry, 0, b.size)
	for _, list := range b.entries {
		out = append(out, list...)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Position.Hash != out[j].Position.Hash {
			return out[i].Position.Hash < out[j].Position.Hash
		}
		return out[i].Position.FEN() < out[j].Position.FEN()
	})
	return out
}

// Choose picks a book move for p under mode, drawing random numbers from
// rng. It returns false when the mode is ModeNone, the position is not in
// the book, or no move qualifies.
func (b *Book) Choose(p *engine.Position, mode Mode, rng *rand.Rand) (engine.Move, bool) {
	e := b.Probe(p)
	if e == nil || mode <= ModeNone {
		return engine.Move{}, false
	}
	best := e.Moves[0] // sorted best first
	switch {
	case mode >= ModeBest:
		return best.Move, true
	case mode == ModeGood:
		return pickWeighted(e.Moves, int(best.Score)-GoodMargin, rng)
	default:
		return pickWeighted(e.Moves, math.MinInt, rng)
	}
}

// pickWeighted draws one of the moves scoring at least minScore, in
// proportion to weight.
func pickWeighted(moves []MoveEntry, minScore int, rng *rand.Rand) (engine.Move, bool) {
	var total uint64
	for _, m := range moves {
		if int(m.Score) >= minScore {
			total += uint64(m.Weight)
		}
	}
	if total == 0 {
		return engine.Move{}, false
	}
	r := rng.Uint64N(total)
	for _, m := range moves {
		if int(m.Score) < minScore {
			continue
		}
		if r < uint64(m.Weight) {
			return m.Move, true
		}
		r -= uint64(m.Weight)
	}
	return engine.Move{}, false // unreachable: r < total
}

// sortMoves orders moves by score, then weight, then notation, all
// descending in value, so the first is the best and the order is fixed.
func sortMoves(moves []MoveEntry) {
	sort.SliceStable(moves, func(i, j int) bool {
		a, b := moves[i], moves[j]
		if a.Score != b.Score {
			return a.Score > b.Score
		}
		if a.Weight != b.Weight {
			return a.Weight > b.Weight
		}
		return a.Move.String() < b.Move.String()
	})
}

func containsMove(list []engine.Move, m engine.Move) bool {
	for _, l := range list {
		if l == m {
			return true
		}
	}
	return false
}

// ClampScore fits a centipawn score into a book's int16.
func ClampScore(s int) int16 {
	return int16(max(math.MinInt16, min(math.MaxInt16, s)))
}
