package egdb

import (
	"sync"
	"sync/atomic"

	"github.com/nechecb/nechecb/engine"
)

// store answers the builder's questions about the values of positions in
// other slices: from a table held in memory when there is one (resident),
// else from the files already written (through a DB, which resolves the
// capture positions the files leave out by searching the captures).
type store struct {
	res [numCodes]*resident
	cur *sliceBuild // the slice being solved, when one is
	db  *DB
}

// resident is a solved slice held in memory: every position's value, both
// sides to move, capture positions included.
type resident struct {
	sh   *shape
	vals [2][]uint32
}

// bytes returns the memory the table takes.
func (r *resident) bytes() uint64 { return 8 * uint64(len(r.vals[0])) }

// residentBytes returns what a resident copy of slice m takes.
func residentBytes(m Material) uint64 { return 8 * ((shapeOf(m).size + 15) / 16) }

func (r *resident) get(side engine.Color, idx uint64) Value {
	return Value(r.vals[side][idx>>4] >> (uint(idx&15) * 2) & 3)
}

// value returns the value of q for its side to move. The slices q's
// material needs must be solved (or q's side to move must have no piece).
func (st *store) value(q *pos) Value {
	toMove, other := q.sideEmpty()
	switch {
	case toMove:
		return Loss
	case other:
		return Win
	}
	m := q.material()
	if c := st.cur; c != nil && m == c.mat {
		return c.get(q.side, c.sh.index(q.bm, q.bk, q.wm, q.wk))
	}
	r := *q
	if !m.Canonical() {
		r = q.rotated()
		m = m.Mirror()
	}
	if res := st.res[m.code()]; res != nil {
		return res.get(r.side, res.sh.index(r.bm, r.bk, r.wm, r.wk))
	}
	return st.db.probe(q.position(), *q)
}

// load makes slice m resident from its file, using threads goroutines:
// each position's value is probed, so capture positions get their true
// value from the slices their captures lead to.
func (st *store) load(m Material, threads int) (*resident, error) {
	sh := shapeOf(m)
	r := &resident{sh: sh}
	words := (sh.size + 15) / 16
	for c := range r.vals {
		r.vals[c] = make([]uint32, words)
	}
	var next atomic.Uint64
	var wg sync.WaitGroup
	var failed atomic.Bool
	chunks := (sh.size + blockSize - 1) / blockSize
	for range max(1, threads) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				ch := next.Add(1) - 1
				if ch >= 2*chunks {
					return
				}
				side := engine.Color(ch / chunks)
				start := (ch % chunks) * blockSize
				it := newIter(sh, side, start, start+blockSize)
				out := r.vals[side][start/16:]
				for i := 0; it.next(); i++ {
					v := st.db.probe(it.q.position(), it.q)
					if v == Unknown {
						failed.Store(true)
						return
					}
					out[i>>4] |= uint32(v) << (uint(i&15) * 2)
				}
			}
		}()
	}
	wg.Wait()
	if failed.Load() {
		return nil, errUnknownValue(m)
	}
	return r, nil
}
