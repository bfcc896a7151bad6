package player

import (
	"errors"
	"fmt"
	"math/bits"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/egdb"
	"github.com/nechecb/nechecb/engine/egdb/embedded"
	"github.com/nechecb/nechecb/engine/search"
)

// Outcome is an endgame database's verdict on a position for the side to
// move.
type Outcome = search.Outcome

// The database's verdicts.
const (
	DBUnknown = search.Unknown
	DBWin     = search.KnownWin
	DBLoss    = search.KnownLoss
	DBDraw    = search.KnownDraw
)

// DefaultDBCacheMB is the block cache of a database opened with no size.
const DefaultDBCacheMB = 64

// database is the endgame database an Engine probes and how far it may.
type database struct {
	db      *egdb.DB
	dir     string // its directory; "" for the embedded database
	cacheMB int
	limit   int  // most pieces to probe; 0: all the database holds
	off     bool // probing switched off (the database stays open)
}

// oracle puts an egdb.DB behind search.Oracle, within a piece limit.
type oracle struct {
	db     *egdb.DB
	pieces int
}

func (o oracle) Pieces() int { return o.pieces }

func (o oracle) Probe(p *engine.Position) search.Outcome {
	switch o.db.Probe(p) {
	case egdb.Win:
		return search.KnownWin
	case egdb.Loss:
		return search.KnownLoss
	case egdb.Draw:
		return search.KnownDraw
	}
	return search.Unknown
}

// OpenDB opens the endgame database in dir with a block cache of cacheMB
// megabytes (0: DefaultDBCacheMB) and searches with it from the next
// search on; "" closes the database in use. It returns the files that were
// missing or failed their checks, each naming its file: the database goes
// on without those slices. When dir cannot be opened at all, the error
// says why and the database in use (if any) stays.
func (e *Engine) OpenDB(dir string, cacheMB int) (problems []error, err error) {
	if dir == "" {
		e.closeDB()
		e.dbase.cacheMB = cacheMBOrDefault(cacheMB)
		e.applyDB()
		return nil, nil
	}
	return e.useDB(dir, cacheMB, func(mb int) (*egdb.DB, error) { return egdb.Open(dir, mb) })
}

// OpenEmbeddedDB is OpenDB for the database compiled into the binary:
// every position of up to embedded.Pieces pieces, read from the binary's
// memory, so it needs no file.
func (e *Engine) OpenEmbeddedDB(cacheMB int) (problems []error, err error) {
	return e.useDB("", cacheMB, embedded.Open)
}

// useDB opens a database with open and searches with it, as OpenDB says;
// dir is its directory, "" for the embedded one.
func (e *Engine) useDB(dir string, cacheMB int, open func(cacheMB int) (*egdb.DB, error)) ([]error, error) {
	cacheMB = cacheMBOrDefault(cacheMB)
	db, err := open(cacheMB)
	if err != nil {
		return nil, err
	}
	if db.Pieces() == 0 {
		problems := db.Problems()
		db.Close()
		return nil, fmt.Errorf("egdb: %s: no complete set of slices: %w", db.Dir(), errors.Join(problems...))
	}
	e.closeDB()
	e.dbase.db, e.dbase.dir, e.dbase.cacheMB = db, dir, cacheMB
	e.applyDB()
	return db.Problems(), nil
}

// cacheMBOrDefault returns cacheMB, or DefaultDBCacheMB for 0 or less.
func cacheMBOrDefault(cacheMB int) int {
	if cacheMB <= 0 {
		return DefaultDBCacheMB
	}
	return cacheMB
}

// SetDBCache changes the database's block cache to cacheMB megabytes,
// reopening the database in use (if any) with it.
func (e *Engine) SetDBCache(cacheMB int) ([]error, error) {
	cacheMB = cacheMBOrDefault(cacheMB)
	switch {
	case cacheMB == e.dbase.cacheMB:
		return nil, nil
	case e.dbase.db == nil:
		e.dbase.cacheMB = cacheMB
		return nil, nil
	case e.dbase.dir == "":
		return e.OpenEmbeddedDB(cacheMB)
	}
	return e.OpenDB(e.dbase.dir, cacheMB)
}

// SetDBLimits limits the search's probes to positions of at most pieces
// pieces (0: all the database holds) and switches them off or on, without
// closing the database.
func (e *Engine) SetDBLimits(pieces int, on bool) {
	e.dbase.limit, e.dbase.off = pieces, !on
	e.applyDB()
}

// DBPieces returns the most pieces the search probes: 0 with no database
// or with probes off.
func (e *Engine) DBPieces() int {
	d := &e.dbase
	if d.db == nil || d.off {
		return 0
	}
	n := d.db.Pieces()
	if d.limit > 0 {
		n = min(n, d.limit)
	}
	return n
}

// DBCache returns the block cache size, in megabytes, databases open with.
func (e *Engine) DBCache() int { return cacheMBOrDefault(e.dbase.cacheMB) }

// DBDir returns the directory of the database in use, embedded.Name for
// the embedded database, or "" with none.
func (e *Engine) DBDir() string {
	if e.dbase.db == nil {
		return ""
	}
	return e.dbase.db.Dir()
}

// ProbeDB returns the database's verdict on p for its side to move, within
// the pieces the search probes (DBUnknown beyond them or without one).
func (e *Engine) ProbeDB(p *engine.Position) Outcome {
	n := e.DBPieces()
	if n == 0 || bits.OnesCount64(p.Pieces[0]|p.Pieces[1]) > n {
		return DBUnknown
	}
	return oracle{e.dbase.db, n}.Probe(p)
}

// applyDB gives the search the oracle the settings call for.
func (e *Engine) applyDB() {
	if n := e.DBPieces(); n > 0 {
		e.s.SetOracle(oracle{e.dbase.db, n})
	} else {
		e.s.SetOracle(nil)
	}
}

// closeDB closes the database in use.
func (e *Engine) closeDB() {
	if e.dbase.db != nil {
		e.s.SetOracle(nil)
		e.dbase.db.Close()
	}
	e.dbase.db, e.dbase.dir = nil, ""
}
