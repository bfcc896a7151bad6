package egdb

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"

	"github.com/nechecb/nechecb/engine"
)

// DB is an opened database: a directory of slice files, or the same files
// in an fs.FS (the binary's embedded database). Probe may be called from
// any number of goroutines at once.
type DB struct {
	dir    string // the directory, or the name given to OpenFS
	fsys   fs.FS  // where the slice files are read from
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
	close  func() error // releases the file
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
	if _, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("egdb: %w", err)
	}
	return OpenFS(os.DirFS(dir), dir, cacheMB)
}

// OpenFS is Open for the slice files at the root of fsys, such as an
// embed.FS; name stands for fsys in Dir and in the errors, which name a
// file as name/file. A file of fsys that is not an io.ReaderAt is read
// into memory whole.
func OpenFS(fsys fs.FS, name string, cacheMB int) (*DB, error) {
	names, err := fs.Glob(fsys, "*"+FileExt)
	if err != nil {
		return nil, fmt.Errorf("egdb: %s: %w", name, err)
	}
	if len(names) == 0 {
		return nil, fmt.Errorf("egdb: %s holds no endgame database files (*%s)", name, FileExt)
	}
	sort.Strings(names)
	db := newDB(fsys, name, cacheMB)
	most := 0
	failed := map[string]bool{}
	for _, base := range names {
		if err := db.addFile(base); err != nil {
			db.problem(err)
			failed[base] = true
			continue
		}
		most = max(most, db.files[len(db.files)-1].h.mat.Pieces())
	}
	db.pieces, db.most = most, most
	for _, m := range canonicalSlices(most) {
		if db.slots[m.code()] == nil {
			db.pieces = min(db.pieces, m.Pieces()-1)
			if !failed[SliceFileName(m)] {
				db.problem(fmt.Errorf("%s: missing", db.path(SliceFileName(m))))
			}
		}
	}
	return db, nil
}

// newDB returns a database with no slices yet reading its files from fsys,
// named dir, which probes positions of any size (OpenFS narrows that to
// the slices it finds).
func newDB(fsys fs.FS, dir string, cacheMB int) *DB {
	return &DB{dir: dir, fsys: fsys, cache: newBlockCache(cacheMB), most: MaxPieces}
}

// path returns the name of the file base of the database in messages.
func (db *DB) path(base string) string { return filepath.Join(db.dir, base) }

// addFile opens the slice file base of db.fsys and adds its slice. It must
// not run while other goroutines probe.
func (db *DB) addFile(base string) error {
	name := db.path(base)
	r, size, closeFile, err := openReaderAt(db.fsys, base)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	sf, err := openSliceFile(name, r, size)
	if err != nil {
		closeFile()
		return err
	}
	if want := SliceFileName(sf.h.mat); base != want {
		closeFile()
		return fmt.Errorf("%s: holds slice %v, whose file is %s", name, sf.h.mat, want)
	}
	f := &dbFile{sliceFile: sf, close: closeFile}
	for c := range f.blocks {
		if sf.h.sides&(1<<c) != 0 {
			f.blocks[c] = make(tableBlocks, sf.h.t[c].blocks)
		}
	}
	if old := db.slots[sf.h.mat.code()]; old != nil {
		old.close()
	}
	db.files = append(db.files, f)
	db.slots[sf.h.mat.code()] = f
	return nil
}

// openReaderAt opens the file name of fsys for reading at any offset: the
// file itself when it is an io.ReaderAt (an *os.File, a file of an
// embed.FS), else its bytes read whole. It returns the reader, its size
// and the function that releases it.
func openReaderAt(fsys fs.FS, name string) (io.ReaderAt, int64, func() error, error) {
	f, err := fsys.Open(name)
	if err != nil {
		return nil, 0, nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, nil, err
	}
	if r, ok := f.(io.ReaderAt); ok {
		return r, st.Size(), f.Close, nil
	}
	data, err := io.ReadAll(f)
	f.Close()
	if err != nil {
		return nil, 0, nil, err
	}
	return bytes.NewReader(data), int64(len(data)), func() error { return nil }, nil
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

// Dir returns the directory the database was opened from, or the name
// given to OpenFS.
func (db *DB) Dir() string { return db.dir }

// Close closes the files. The database must not be probed after.
func (db *DB) Close() error {
	var first error
	for _, f := range db.files {
		if err := f.close(); err != nil && first == nil {
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
