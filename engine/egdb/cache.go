package egdb

import (
	"sync"
	"sync/atomic"
)

// The cache of decoded blocks. Each opened table has a slot per block
// (tableBlocks), which holds the block decoded, two bits a position, while it
// is in the cache and nil otherwise. A probe whose block is cached reads its
// slot with one atomic load and takes no lock, so goroutines probing at once
// do not wait for one another, and it allocates nothing. A probe that
// misses decodes the block into a newly allocated one, outside any lock, then adds it
// under the cache's mutex, evicting blocks by the CLOCK rule (a block used
// since the hand last passed it gets another turn) until the decoded blocks
// fit in the budget. An evicted block's slot is emptied but its array is
// never reused, so a probe that loaded it just before still reads the right
// values. Any block may be cached whatever the others: there are no sets,
// so blocks never push one another out while the budget has room.
//
// The slots cost 8 bytes a block of every opened table, as much as the
// block index already held, and are not counted in the budget.

// cachedBlock is a decoded block in the cache. Its values are part of it,
// not behind a pointer of their own: a probe finds them with one memory
// access fewer.
type cachedBlock struct {
	used atomic.Bool
	slot *atomic.Pointer[cachedBlock]
	data [blockWords]uint32 // the values, two bits a position, sixteen to a word
}

// cachedBlockOverhead approximates what a cached block takes besides its
// values, for the budget.
const cachedBlockOverhead = 64

// cachedBlockBytes is what a cached block takes from the budget, whatever
// the number of its positions.
const cachedBlockBytes = 4*blockWords + cachedBlockOverhead

// value returns the value of position i of the block.
func (b *cachedBlock) value(i uint64) Value {
	if !b.used.Load() { // a load first: most hits find it set and write nothing
		b.used.Store(true)
	}
	return Value(b.data[i>>4&(blockWords-1)] >> (uint(i&15) * 2) & 3)
}

// tableBlocks holds the cache slots of the blocks of one table.
type tableBlocks []atomic.Pointer[cachedBlock]

// blockCache bounds the decoded blocks held by all the tables of a DB.
type blockCache struct {
	budget int64 // bytes

	mu   sync.Mutex
	held int64          // bytes of the blocks in ring
	ring []*cachedBlock // every cached block, in no particular order
	hand int            // the CLOCK hand, an index into ring
}

// blockWords is the size of a decoded block: two bits a position.
const blockWords = blockSize / 16

// codeBufs holds buffers for the code of a block being read.
var codeBufs = sync.Pool{New: func() any { b := make([]byte, maxBlockBytes); return &b }}

// newBlockCache returns a cache of about mb megabytes (at least one).
func newBlockCache(mb int) *blockCache {
	return &blockCache{budget: int64(max(1, mb)) << 20}
}

// load returns block b of the table of side t of file f, reading and
// decoding it into the cache unless a probe from another goroutine has
// just done so; slot is the block's slot.
func (c *blockCache) load(slot *atomic.Pointer[cachedBlock], f *sliceFile, t int, b uint64) (*cachedBlock, error) {
	blk := &cachedBlock{slot: slot}
	bp := codeBufs.Get().(*[]byte)
	buf, err := f.readBlock(t, b, *bp, blk.data[:])
	*bp = buf
	codeBufs.Put(bp)
	if err != nil {
		return nil, err
	}
	blk.used.Store(true)
	c.mu.Lock()
	defer c.mu.Unlock()
	if cur := slot.Load(); cur != nil {
		return cur, nil // another goroutine was first
	}
	for c.held+cachedBlockBytes > c.budget && len(c.ring) > 0 {
		c.evictOne()
	}
	c.ring = append(c.ring, blk)
	c.held += cachedBlockBytes
	slot.Store(blk)
	return blk, nil
}

// evictOne moves the hand on until it finds a block not used since its
// last pass, and evicts that block; after two turns of the ring (probes
// kept using every block behind the hand) it evicts the block at the hand
// whatever. c.mu must be held and ring not empty.
func (c *blockCache) evictOne() {
	for step := 0; ; step++ {
		if c.hand >= len(c.ring) {
			c.hand = 0
		}
		blk := c.ring[c.hand]
		if blk.used.Swap(false) && step < 2*len(c.ring) {
			c.hand++
			continue
		}
		blk.slot.Store(nil)
		c.held -= cachedBlockBytes
		last := len(c.ring) - 1
		c.ring[c.hand] = c.ring[last]
		c.ring[last] = nil
		c.ring = c.ring[:last]
		return
	}
}
