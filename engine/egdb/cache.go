package egdb

import (
	"math/bits"
	"sync"
)

// blockCache keeps decoded blocks, set-associative: a block's key picks
// one set of cacheWays blocks, which a mutex guards; a miss replaces the
// least recently used block of the set. Sets are many, so goroutines
// probing different blocks seldom wait for one another, and a probe that
// hits allocates nothing.
type blockCache struct {
	sets  []cacheSet
	shift uint // 64 - log2(len(sets))
}

const (
	cacheWays       = 8
	blockWords      = blockSize / 16 // a decoded block: two bits a position
	blockBytesInRAM = 4 * blockWords
)

type cacheSet struct {
	mu    sync.Mutex
	clock uint64
	ways  [cacheWays]cacheWay
	buf   []byte // the code of the block being read
	_     [32]byte
}

type cacheWay struct {
	key  uint64 // 0 when empty
	used uint64
	data []uint32
}

// newBlockCache returns a cache of about mb megabytes (at least one set).
func newBlockCache(mb int) *blockCache {
	blocks := max(1, mb) << 20 / blockBytesInRAM
	n := max(1, blocks/cacheWays)
	n = 1 << (bits.Len(uint(n)) - 1) // a power of two
	return &blockCache{sets: make([]cacheSet, n), shift: uint(64 - bits.Len(uint(n)) + 1)}
}

// set returns the set of key.
func (c *blockCache) set(key uint64) *cacheSet {
	if len(c.sets) == 1 {
		return &c.sets[0]
	}
	return &c.sets[(key*0x9E3779B97F4A7C15)>>c.shift]
}

// get returns the value of position i (within its block) of the block with
// key, which is block b of the table of side t of file f; a miss reads and
// decodes the block.
func (c *blockCache) get(key uint64, i int, f *sliceFile, t int, b uint64) (Value, error) {
	s := c.set(key)
	s.mu.Lock()
	for w := range s.ways {
		if way := &s.ways[w]; way.key == key {
			s.clock++
			way.used = s.clock
			v := Value(way.data[i>>4] >> (uint(i&15) * 2) & 3)
			s.mu.Unlock()
			return v, nil
		}
	}
	victim := &s.ways[0]
	for w := range s.ways {
		if way := &s.ways[w]; way.key == 0 || way.used < victim.used {
			victim = way
			if way.key == 0 {
				break
			}
		}
	}
	if victim.data == nil {
		victim.data = make([]uint32, blockWords)
	}
	victim.key = 0
	buf, err := f.readBlock(t, b, s.buf, victim.data)
	s.buf = buf
	if err != nil {
		s.mu.Unlock()
		return Unknown, err
	}
	s.clock++
	victim.key, victim.used = key, s.clock
	v := Value(victim.data[i>>4] >> (uint(i&15) * 2) & 3)
	s.mu.Unlock()
	return v, nil
}
