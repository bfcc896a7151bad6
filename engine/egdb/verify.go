package egdb

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nechecb/nechecb/engine"
)

// VerifyProgress is a report on a Verify under way.
type VerifyProgress struct {
	// Done and Total count the positions checked and to check.
	Done, Total uint64
	// Problems counts the inconsistencies found so far.
	Problems int
	// Elapsed is the time since Verify started.
	Elapsed time.Duration
}

// maxVerifyErrors bounds the inconsistencies Verify lists.
const maxVerifyErrors = 20

// Verify checks every opened file against its checksum, then every stored
// position against its successors, found with the engine's move generator
// and probed like any other position:
//
//   - a win has a move to a position lost for the opponent;
//   - a loss has only moves to positions won for the opponent;
//   - a draw has no move to a lost position and one at least to a drawn one.
//
// It returns the problems found (at most a few dozen), naming the file or
// the position; none means the database passed. The problems found by Open
// come first. progress, when set, is called about once a second.
func (db *DB) Verify(ctx context.Context, threads int, progress func(VerifyProgress)) []error {
	return db.verify(ctx, threads, nil, progress)
}

// verify is Verify, checking the positions only of the slices keep
// accepts (nil: all of them); every file's checksum is checked.
func (db *DB) verify(ctx context.Context, threads int, keep func(Material) bool, progress func(VerifyProgress)) []error {
	errs := db.Problems()
	for _, f := range db.files {
		if db.slots[f.h.mat.code()] != f {
			continue
		}
		if err := f.checkData(); err != nil {
			f.bad.Store(true)
			errs = append(errs, err)
		}
	}
	type chunk struct {
		f     *dbFile
		side  engine.Color
		start uint64
	}
	var chunks []chunk
	var total uint64
	for _, f := range db.files {
		if db.slots[f.h.mat.code()] != f || f.bad.Load() || keep != nil && !keep(f.h.mat) {
			continue
		}
		for c := engine.Black; c <= engine.White; c++ {
			if f.h.sides&(1<<c) == 0 {
				continue
			}
			for s := uint64(0); s < f.h.positions; s += blockSize {
				chunks = append(chunks, chunk{f, c, s})
			}
			total += f.h.positions
		}
	}
	var (
		next, done atomic.Uint64
		mu         sync.Mutex
		found      []error
		wg         sync.WaitGroup
		start      = time.Now()
	)
	var nfound atomic.Int64
	report := func(err error) {
		nfound.Add(1)
		mu.Lock()
		if len(found) < maxVerifyErrors {
			found = append(found, err)
		}
		mu.Unlock()
	}
	stop := make(chan struct{})
	var ticker sync.WaitGroup
	if progress != nil {
		ticker.Add(1)
		go func() {
			defer ticker.Done()
			t := time.NewTicker(time.Second)
			defer t.Stop()
			for {
				select {
				case <-stop:
					return
				case <-t.C:
					progress(VerifyProgress{done.Load(), total, int(nfound.Load()), time.Since(start)})
				}
			}
		}()
	}
	for range max(1, threads) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var l engine.MoveList
			for ctx.Err() == nil {
				i := next.Add(1) - 1
				if i >= uint64(len(chunks)) {
					return
				}
				ch := chunks[i]
				it := newIter(ch.f.sh, ch.side, ch.start, ch.start+blockSize)
				n := uint64(0)
				for it.next() {
					n++
					p := it.q.position()
					if err := db.checkPosition(&p, &l); err != nil {
						report(fmt.Errorf("%s: %v", ch.f.name, err))
					}
				}
				done.Add(n)
			}
		}()
	}
	wg.Wait()
	close(stop)
	ticker.Wait()
	if err := ctx.Err(); err != nil {
		found = append(found, err)
	}
	if progress != nil {
		progress(VerifyProgress{done.Load(), total, int(nfound.Load()), time.Since(start)})
	}
	return append(errs, found...)
}

// checkPosition checks the value of p against its successors' values.
func (db *DB) checkPosition(p *engine.Position, l *engine.MoveList) error {
	v := db.Probe(p)
	if v == Unknown {
		return fmt.Errorf("%s: no value", p.FEN())
	}
	p.Generate(l)
	var toLoss, toDraw, toWin int
	for _, m := range l.Slice() {
		q := p.Play(m)
		switch db.Probe(&q) {
		case Loss:
			toLoss++
		case Draw:
			toDraw++
		case Win:
			toWin++
		default:
			return fmt.Errorf("%s: after %s: no value", p.FEN(), m)
		}
	}
	ok := false
	switch v {
	case Win:
		ok = toLoss > 0
	case Loss:
		ok = toLoss+toDraw == 0
	case Draw:
		ok = toLoss == 0 && toDraw > 0
	}
	if !ok {
		return fmt.Errorf("%s: %v, but its moves lead to %d losses, %d draws and %d wins for the opponent", p.FEN(), v, toLoss, toDraw, toWin)
	}
	return nil
}

// SliceStats counts the values of one stored table.
type SliceStats struct {
	// Slice is the material; Side the side to move.
	Slice Material
	Side  engine.Color
	// Wins, Losses and Draws count the positions by their value for the
	// side to move; Captures those where it must capture (not stored).
	Wins, Losses, Draws, Captures uint64
	// Bytes is the size of the slice's file (on each of its tables).
	Bytes int64
}

// Stats returns the counts of every stored table, as written in the file
// headers, in build order.
func (db *DB) Stats() []SliceStats {
	var out []SliceStats
	for _, m := range canonicalSlices(MaxPieces) {
		f := db.slots[m.code()]
		if f == nil {
			continue
		}
		for c := engine.Black; c <= engine.White; c++ {
			if f.h.sides&(1<<c) == 0 {
				continue
			}
			t := f.h.t[c]
			out = append(out, SliceStats{m, c, t.wins, t.losses, t.draws, t.captures, f.size})
		}
	}
	return out
}
