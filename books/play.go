package books

import (
	"math/rand/v2"
	"sync"

	"github.com/nechecb/nechecb/engine"
)

// Player answers the engine's book probes during play: it picks a move with
// Choose under the Book option's level, from its own random source. It is
// safe for concurrent use.
type Player struct {
	book *Book
	mu   sync.Mutex
	rng  *rand.Rand
}

// NewPlayer returns a Player for b whose random choices follow seed.
func NewPlayer(b *Book, seed uint64) *Player {
	return &Player{book: b, rng: rand.New(rand.NewPCG(seed, 0x626f6f6b))}
}

// Probe returns a book move for pos under level (1 all moves, 2 good moves,
// 3 best only; other values use no book), or false when the book has none.
// The game's history does not matter to the book: it is keyed by position.
func (p *Player) Probe(pos engine.Position, history []engine.Position, level int) (engine.Move, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.book.Choose(&pos, Mode(level), p.rng)
}
