package search

import (
	"math/bits"
	"sync/atomic"
)

// bound says how a stored score relates to the true value.
type bound uint8

const (
	boundNone  bound = 0
	boundUpper bound = 1 // the true value is at most the score (fail low)
	boundLower bound = 2 // the true value is at least the score (fail high)
	boundExact bound = 3
)

// noMove is the stored move index meaning "no best move".
const noMove = 0xFF

// entry is one transposition-table slot. data packs the score, depth, move
// index, bound, age and epoch; check is the position's key XORed with
// data, so a slot torn by two threads writing at once fails the key test
// instead of returning another position's data (Hyatt's lockless hashing). Both words
// are read and written atomically, which costs nothing on amd64 loads and
// keeps the race detector quiet.
type entry struct {
	check atomic.Uint64
	data  atomic.Uint64
}

// bucketSize entries share one 64-byte cache line.
const bucketSize = 4

type bucket [bucketSize]entry

// ttData is an unpacked entry.
type ttData struct {
	score Score
	depth int
	move  uint8 // index in the position's generated move list, or noMove
	bound bound
}

// Layout of entry.data, low bits first.
const (
	scoreBits = 16
	depthBits = 8
	moveBits  = 8
	boundBits = 2
	ageBits   = 6
	ageMask   = 1<<ageBits - 1
	// epochShift places the table's epoch above the age: an entry of
	// another epoch than the table's is empty (see clear).
	epochShift = scoreBits + depthBits + moveBits + boundBits + ageBits
)

func pack(d ttData, age uint8, epoch uint16) uint64 {
	return uint64(uint16(int16(d.score))) |
		uint64(uint8(int8(d.depth)))<<scoreBits |
		uint64(d.move)<<(scoreBits+depthBits) |
		uint64(d.bound)<<(scoreBits+depthBits+moveBits) |
		uint64(age&ageMask)<<(scoreBits+depthBits+moveBits+boundBits) |
		uint64(epoch)<<epochShift
}

func unpack(v uint64) (ttData, uint8) {
	d := ttData{
		score: Score(int16(uint16(v))),
		depth: int(int8(uint8(v >> scoreBits))),
		move:  uint8(v >> (scoreBits + depthBits)),
		bound: bound(v >> (scoreBits + depthBits + moveBits) & 3),
	}
	return d, uint8(v>>(scoreBits+depthBits+moveBits+boundBits)) & ageMask
}

// table is the transposition table shared by every search thread. Its size
// is a power of two of entries; the age advances with each search so that
// entries from earlier searches are replaced first, and the epoch with
// each clear, so that entries from before it are empty.
type table struct {
	buckets []bucket
	mask    uint64
	age     uint8
	epoch   uint16
	mapped  bool // every page of buckets has been written to (see mapPages)
}

// entryBytes is the size of one entry; a test checks it against unsafe.Sizeof.
const entryBytes = 16

// newTable makes a table of at most mb megabytes (at least one bucket).
func newTable(mb int) *table {
	t := &table{}
	t.resize(mb)
	return t
}

// resize reallocates the table for mb megabytes, rounded down to a power of
// two of buckets; it clears every entry. The new memory is reserved but not
// yet mapped, so a table resized again before any search (a GUI's Hash
// after the default) costs nothing.
func (t *table) resize(mb int) {
	n := uint64(max(mb, 1)) << 20 / (entryBytes * bucketSize)
	n = 1 << (63 - bits.LeadingZeros64(n)) // round down to a power of two
	t.buckets = make([]bucket, n)
	adviseHugePages(t.buckets)
	t.mapped = false
	t.mask = n - 1
	t.age, t.epoch = 0, 1
}

// pageBuckets is the number of buckets in a 4 KB page.
const pageBuckets = 4096 / (entryBytes * bucketSize)

// mapPages writes to every page of the table once after each resize, so
// that the system maps it then rather than in the middle of a search:
// mapping tens of megabytes page by page (and, for huge pages, finding and
// zeroing each 2 MB) took most of the first 0.1 s search's time.
func (t *table) mapPages() {
	if t.mapped {
		return
	}
	for i := 0; i < len(t.buckets); i += pageBuckets {
		t.buckets[i][0].data.Store(0)
	}
	t.mapped = true
}

// entries returns the number of entries of the table.
func (t *table) entries() int { return len(t.buckets) * bucketSize }

// clear empties the table. It runs between searches, when no thread uses
// the table. It only starts a new epoch, which makes every entry written
// before it empty, so that clearing costs nothing when games of a few
// hundred nodes each clear a table of megabytes; once in 65535 clears the
// epochs wrap and the entries are zeroed.
func (t *table) clear() {
	t.age = 0
	if t.epoch++; t.epoch == 0 {
		clear(t.buckets)
		t.epoch = 1
	}
}

// live returns whether data is an entry of this epoch (not empty).
func (t *table) live(data uint64) bool {
	return data != 0 && uint16(data>>epochShift) == t.epoch
}

// newSearch maps the table if it is not yet (see mapPages) and advances the
// age at the start of a search.
func (t *table) newSearch() {
	t.mapPages()
	t.age = (t.age + 1) & ageMask
}

// probe returns the stored data for key, if any.
func (t *table) probe(key uint64) (ttData, bool) {
	b := &t.buckets[key&t.mask]
	for i := range b {
		data := b[i].data.Load()
		if b[i].check.Load()^data == key && t.live(data) {
			d, _ := unpack(data)
			return d, true
		}
	}
	return ttData{}, false
}

// store saves d for key. It replaces the slot holding key if there is one,
// otherwise the slot least worth keeping: the oldest, then the shallowest.
func (t *table) store(key uint64, d ttData) {
	b := &t.buckets[key&t.mask]
	victim := 0
	worst := 1 << 30
	for i := range b {
		data := b[i].data.Load()
		if !t.live(data) || b[i].check.Load()^data == key {
			if t.live(data) && d.move == noMove {
				old, _ := unpack(data)
				d.move = old.move // keep the known best move
			}
			victim = i
			break
		}
		old, age := unpack(data)
		// Entries of older searches count as much shallower.
		value := old.depth - 8*int((t.age-age)&ageMask)
		if value < worst {
			worst, victim = value, i
		}
	}
	data := pack(d, t.age, t.epoch)
	b[victim].check.Store(key ^ data)
	b[victim].data.Store(data)
}

// hashFull returns the permille of sampled entries written in this search.
func (t *table) hashFull() int {
	n, used := 0, 0
	for i := 0; i < len(t.buckets) && n < 1000; i++ {
		for j := range t.buckets[i] {
			data := t.buckets[i][j].data.Load()
			n++
			if _, age := unpack(data); t.live(data) && age == t.age {
				used++
			}
		}
	}
	return used * 1000 / n
}
