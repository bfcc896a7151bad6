package egdb

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/nechecb/nechecb/engine"
)

// DB is an opened database directory. Probe may be called from any number
// of goroutines at once.
type DB struct {
	dir    string
	cache  *blockCache
	files  []*dbFile
	slots  [numCodes]*dbFile // by the code of a stored slice
	pieces int               // every slice up to this many pieces is present
	most   int               // the most pieces of a present slice

	mu       sync.Mutex
	problems []error
}

// dbFile is one opened slice file.
type dbFile struct {
	*sliceFile
	osf    *os.File
	bad    atomic.Bool
	blocks [2]tableBlocks // the cache slots of each stored table's blocks
}

// SliceFileName returns the name of the file that stores slice m (or its
// mirror, which is stored in its place).
func SliceFileName(m Material) string { return canonical(m).String() + FileExt }

// Open opens the database in dir with a cache of decoded blocks of about
// cacheMB megabytes. A file that cannot be read or fails its checks is
// left out and reported by Problems, as are the slices missing below the
// largest piece count present; probes of those slices return Unknown. Open
// fails only when dir cannot be read or holds no slice file.
func Open(dir string, cacheMB int) (*DB, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*"+FileExt))
	if err != nil {
		return nil, fmt.Errorf("egdb: %w", err)
	}
	if _, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("egdb: %w", err)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("egdb: %s holds no endgame database files (*%s)", dir, FileExt)
	}
	sort.Strings(names)
	db := newDB(dir, cacheMB)
	most := 0
	failed := map[string]bool{}
	for _, name := range names {
		if err := db.addFile(name); err != nil {
			db.problem(err)
			failed[filepath.Base(name)] = true
			continue
		}
		most = max(most, db.files[len(db.files)-1].h.mat.Pieces())
	}
	db.pieces, db.most = most, most
	for _, m := range canonicalSlices(most) {
		if db.slots[m.code()] == nil {
			db.pieces = min(db.pieces, m.Pieces()-1)
			if !failed[SliceFileName(m)] {
				db.problem(fmt.Errorf("%s: missing", filepath.Join(dir, SliceFileName(m))))
			}
		}
	}
	return db, nil
}

// newDB returns a database with no slices yet, which probes positions of
// any size (Open narrows that to the slices it finds).
func newDB(dir string, cacheMB int) *DB {
	return &DB{dir: dir, cache: newBlockCache(cacheMB), most: MaxPieces}
}

// addFile opens a slice file and adds its slice. It must not run while
// other goroutines probe.
func (db *DB) addFile(name string) error {
	osf, err := os.Open(name)
	if err != nil {
		return err
	}
	st, err := osf.Stat()
	if err != nil {
		osf.Close()
		return fmt.Errorf("%s: %w", name, err)
	}
	sf, err := openSliceFile(name, osf, st.Size())
	if err != nil {
		osf.Close()
		return err
	}
	if want := SliceFileName(sf.h.mat); filepath.Base(name) != want {
		osf.Close()
		return fmt.Errorf("%s: holds slice %v, whose file is %s", name, sf.h.mat, want)
	}
	f := &dbFile{sliceFile: sf, osf: osf}
	for c := range f.blocks {
		if sf.h.sides&(1<<c) != 0 {
			f.blocks[c] = make(tableBlocks, sf.h.t[c].blocks)
		}
	}
	if old := db.slots[sf.h.mat.code()]; old != nil {
		old.osf.Close()
	}
	db.files = append(db.files, f)
	db.slots[sf.h.mat.code()] = f
	return nil
}

// problem records err.
func (db *DB) problem(err error) {
	db.mu.Lock()
	db.problems = append(db.problems, err)
	db.mu.Unlock()
}

// Problems returns the files that were missing, could not be read or
// failed a check, at opening or since (a damaged block found by a probe),
// each naming its file.
func (db *DB) Problems() []error {
	db.mu.Lock()
	defer db.mu.Unlock()
	return append([]error(nil), db.problems...)
}

// Pieces returns the largest n such that every slice with up to n pieces
// opened cleanly.
func (db *DB) Pieces() int { return db.pieces }

// Dir returns the directory the database was opened from.
func (db *DB) Dir() string { return db.dir }

// Close closes the files. The database must not be probed after.
func (db *DB) Close() error {
	var first error
	for _, f := range db.files {
		if err := f.osf.Close(); err != nil && first == nil {
			first = err
		}
	}
	return first
}

// Probe returns the value of p for its side to move: Win, Loss or Draw, or
// Unknown when p has more pieces than the database or its slice (or one a
// capture leads to) is missing or damaged. A side to move with no piece
// has lost. When the side to move must capture, the value is found by
// trying every capture, as the files leave those positions out; so a
// position with a piece or two more than the database still gets a value
// when every capture leads into it. Probe does not allocate.
func (db *DB) Probe(p *engine.Position) Value {
	q := packPosition(p)
	if v, ok := db.settled(&q); ok {
		return v
	}
	if p.HasCapture() {
		return db.captures(*p)
	}
	return db.quiet(&q)
}

// probe is Probe with the packed position q of p at hand. (The positions
// are passed by value: the recursion through captures would otherwise move
// them to the heap.)
func (db *DB) probe(p engine.Position, q pos) Value {
	if v, ok := db.settled(&q); ok {
		return v
	}
	if p.HasCapture() {
		return db.captures(p)
	}
	return db.quiet(&q)
}

// settled returns the value of q and true when it follows without a look
// at the tables: a side has no piece, or q has too many pieces for any
// chain of captures to reach the database.
func (db *DB) settled(q *pos) (Value, bool) {
	toMove, other := q.sideEmpty()
	switch {
	case toMove:
		return Loss, true
	case other:
		return Win, true
	case q.pieces() > db.most+2:
		return Unknown, true
	}
	return Unknown, false
}

// captures returns the value of p, whose side to move must capture, from
// the values of the positions its captures lead to.
func (db *DB) captures(p engine.Position) Value {
	var l engine.MoveList
	p.GenerateCaptures(&l)
	best, unknown := Loss, false
	for i := 0; i < l.N; i++ {
		q := afterMove(&p, &l.Moves[i])
		switch v := db.probe(q.position(), q).Neg(); {
		case v == Unknown:
			unknown = true
		case v == Win:
			return Win
		case v > best:
			best = v
		}
	}
	if unknown {
		return Unknown
	}
	return best
}

// quiet looks up q, whose side to move has no capture, in its table.
func (db *DB) quiet(q *pos) Value {
	if q.pieces() > MaxPieces {
		return Unknown
	}
	m := q.material()
	r := *q
	if !m.Canonical() || m.SelfMirror() && q.side == engine.White {
		r = q.rotated()
		m = m.Mirror()
	}
	f := db.slots[m.code()]
	if f == nil || f.bad.Load() {
		return Unknown
	}
	idx := f.sh.index(r.bm, r.bk, r.wm, r.wk)
	t, b := int(r.side), idx>>blockShift
	slot := &f.blocks[t][b]
	blk := slot.Load()
	if blk == nil {
		var err error
		if blk, err = db.cache.load(slot, f.sliceFile, t, b); err != nil {
			if !f.bad.Swap(true) {
				db.problem(err)
			}
			return Unknown
		}
	}
	return blk.value(idx)
}
