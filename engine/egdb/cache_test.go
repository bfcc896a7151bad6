package egdb

import (
	"sync"
	"testing"
	"time"
)

// smallCacheDB opens the test database with a block cache of budget bytes,
// far below what its blocks take decoded.
func smallCacheDB(t *testing.T, budget int64) *DB {
	t.Helper()
	testDB(t) // built
	db, err := Open(testDBDir, 1)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	db.cache.budget = budget
	return db
}

// checkCache checks that the cache holds no more than its budget and that
// its record of the cached blocks matches the slots: every cached block is
// in its slot and every full slot holds a cached block. It returns how many
// blocks are cached.
func checkCache(t *testing.T, db *DB) int {
	t.Helper()
	c := db.cache
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.held > c.budget {
		t.Errorf("the cache holds %d bytes, over its budget of %d", c.held, c.budget)
	}
	var held int64
	inRing := map[*cachedBlock]bool{}
	for _, blk := range c.ring {
		held += cachedBlockBytes
		inRing[blk] = true
		if blk.slot.Load() != blk {
			t.Errorf("a cached block is not in its slot")
		}
	}
	if held != c.held {
		t.Errorf("the cached blocks take %d bytes, the cache counts %d", held, c.held)
	}
	full := 0
	for _, f := range db.files {
		for c := range f.blocks {
			for i := range f.blocks[c] {
				if blk := f.blocks[c][i].Load(); blk != nil {
					full++
					if !inRing[blk] {
						t.Errorf("%s table %d block %d: a slot holds a block the cache does not count", f.name, c, i)
					}
				}
			}
		}
	}
	if full != len(c.ring) {
		t.Errorf("%d full slots, %d cached blocks", full, len(c.ring))
	}
	return len(c.ring)
}

func TestCacheEvictsWithinBudget(t *testing.T) {
	ref := testDB(t)
	const budget = 4 * cachedBlockBytes // four blocks
	db := smallCacheDB(t, budget)
	ps := probePositions(3000, ref.Pieces(), false)
	for round := range 2 {
		for i := range ps {
			if got, want := db.Probe(&ps[i]), ref.Probe(&ps[i]); got != want {
				t.Fatalf("round %d: %s: %v with a small cache, %v with a large one", round, ps[i].FEN(), got, want)
			}
		}
		if n := checkCache(t, db); n == 0 {
			t.Fatalf("round %d: nothing cached", round)
		}
	}
	// The positions touch more blocks than the budget holds, so the cache
	// must have evicted some: the large one holds more.
	if small, large := checkCache(t, db), checkCache(t, ref); small >= large {
		t.Errorf("the small cache holds %d blocks, the large one %d: nothing was evicted", small, large)
	}
}

func TestCacheEvictsUnderConcurrentProbes(t *testing.T) {
	ref := testDB(t)
	db := smallCacheDB(t, 8*cachedBlockBytes)
	ps := probePositions(500, ref.Pieces(), true)
	want := make([]Value, len(ps))
	for i := range ps {
		want[i] = ref.Probe(&ps[i])
	}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range len(ps) {
				i := (k*13 + g*101) % len(ps)
				if got := db.Probe(&ps[i]); got != want[i] {
					t.Errorf("%s: %v from goroutine %d, %v alone", ps[i].FEN(), got, g, want[i])
					return
				}
			}
		}()
	}
	wg.Wait()
	checkCache(t, db)
}

func TestCachedProbeIsLockFree(t *testing.T) {
	db := smallCacheDB(t, 1<<20)
	ps := probePositions(200, 3, true)
	for i := range ps {
		db.Probe(&ps[i])
	}
	// With the cache's mutex held, probes of cached blocks still answer.
	db.cache.mu.Lock()
	defer db.cache.mu.Unlock()
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := range ps {
			db.Probe(&ps[i])
		}
	}()
	select {
	case <-done:
	case <-time.After(time.Minute): // 200 cached probes take microseconds
		t.Fatal("probes of cached blocks wait for the cache's mutex")
	}
}
