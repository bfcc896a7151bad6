package cbapi

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/nechecb/nechecb/books"
	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/internal/player"
)

// Config identifies the engine and gives its starting evaluator.
type Config struct {
	// Name and Version answer "name" (and enginename).
	Name, Version string
	// Eval is the evaluator spec in force until "set eval".
	Eval string
}

// Settings are the values that enginecommand gets and sets.
type Settings struct {
	// HashMB is the hash table's size; Threads the search threads.
	HashMB, Threads int
	// Book is the book level: 0 none, 1 all moves, 2 good moves, 3 best
	// only. BookFile is the book's file, "" for the built-in one.
	Book     int
	BookFile string
	// AllScores shows the score of every root move in the status line.
	AllScores bool
	// DBPath is the endgame database directory ("" none); EnableWLD
	// switches its use, MaxDBPieces bounds the positions probed (0: none)
	// and DBMBytes is its block cache (0: the default). They take effect
	// at the next getmove.
	DBPath      string
	EnableWLD   bool
	MaxDBPieces int
	DBMBytes    int
	// Eval is the evaluator spec in force.
	Eval string
}

// Limits of the settings.
const (
	// MaxThreads is the most search threads.
	MaxThreads = 256
	// MaxHashMB is the largest hash table: 4096 MB in a 64-bit build, 512
	// MB in a 32-bit one, whose host has 2 GB of address space for
	// everything.
	MaxHashMB = 512 + (4096-512)*(strconv.IntSize/64)
)

// DefaultSettings are the settings of a freshly loaded engine.
func DefaultSettings(evalSpec string) Settings {
	return Settings{HashMB: 64, Threads: 1, EnableWLD: true, MaxDBPieces: 8, DBMBytes: 64, Eval: evalSpec}
}

// Plugin is the engine behind the exported functions: its settings, the
// last game history, and the search, made when the first getmove needs it.
// Command may be called while GetMove runs (the host's GUI thread answers
// menus during a search); settings changed then take effect at the next
// GetMove.
type Plugin struct {
	cfg Config

	mu        sync.Mutex // guards the fields below
	set       Settings
	factory   eval.Factory      // the evaluator of set.Eval
	book      *books.Player     // the book of set.BookFile, nil until needed
	bookFile  string            // the file book was read from
	hist      []engine.Position // from the last "set gamehist"
	eng       *player.Engine
	engEval   string // the evaluator spec eng plays with
	engDB     string // the database directory eng has open
	engDBMB   int    // and its cache
	searching bool
}

// New makes a Plugin with the evaluator cfg.Eval. The evaluator is loaded
// now (an error names the spec); the search and its hash table are made by
// the first GetMove.
func New(cfg Config) (*Plugin, error) {
	f, err := eval.Load(cfg.Eval)
	if err != nil {
		return nil, err
	}
	return &Plugin{cfg: cfg, set: DefaultSettings(cfg.Eval), factory: f}, nil
}

// Settings returns the settings in force.
func (p *Plugin) Settings() Settings {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.set
}

// Name is the engine's name and version, as "name" answers.
func (p *Plugin) Name() string { return p.cfg.Name + " " + p.cfg.Version }

// resolvePath finds a file named relative to the host's working directory
// (CheckerBoard's folder) or, failing that, to its engines folder, where
// engine files live. A path found in neither place is returned unchanged,
// so that the error that follows names it as the user wrote it.
func resolvePath(path string) string {
	if path == "" || filepath.IsAbs(path) {
		return path
	}
	if _, err := os.Stat(path); err == nil {
		return path
	}
	alt := filepath.Join("engines", path)
	if _, err := os.Stat(alt); err == nil {
		return alt
	}
	return path
}

// loadEval loads an evaluator spec, its file looked up by resolvePath.
func loadEval(text string) (eval.Factory, error) {
	s, err := eval.ParseSpec(text)
	if err != nil {
		return nil, err
	}
	if s.Path != "" {
		s.Path = resolvePath(s.Path)
	}
	return eval.Load(s.String())
}

// openBook reads the book of file ("" the built-in one), file looked up by
// resolvePath. The caller holds mu.
func (p *Plugin) openBook(file string) error {
	b, err := books.Open(resolvePath(file))
	if err != nil {
		return err
	}
	p.book, p.bookFile = books.NewPlayer(b, 1), file
	return nil
}

// errBusy refuses a GetMove while another runs.
var errBusy = errors.New("nechecb is already searching (getmove called again before it returned)")

// prepared is what one GetMove needs, taken under mu.
type prepared struct {
	eng       *player.Engine
	hist      []engine.Position
	book      *books.Player
	bookLevel int
	allScores bool
}

// prepare marks the plugin busy and brings the search up to date with the
// settings: it is made on first use, and a new evaluator or option takes
// effect here.
func (p *Plugin) prepare() (prepared, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.searching {
		return prepared{}, errBusy
	}
	opts := player.Options{HashMB: p.set.HashMB, Threads: p.set.Threads, MultiPV: 1}
	switch {
	case p.eng == nil:
		p.eng, p.engEval = player.New(opts, p.factory, p.set.Eval), p.set.Eval
	default:
		if p.engEval != p.set.Eval {
			p.eng.SetEvaluator(p.factory, p.set.Eval)
			p.engEval = p.set.Eval
		}
		if o := p.eng.Options(); o.HashMB != opts.HashMB || o.Threads != opts.Threads {
			p.eng.SetOptions(opts)
		}
	}
	p.applyDB()
	var book *books.Player
	if p.set.Book > 0 {
		if p.book == nil || p.bookFile != p.set.BookFile {
			if err := p.openBook(p.set.BookFile); err != nil {
				p.set.Book = 0 // reported when the setting was made; search instead
			}
		}
		book = p.book
	}
	p.searching = true
	return prepared{eng: p.eng, hist: p.hist, book: book, bookLevel: p.set.Book, allScores: p.set.AllScores}, nil
}

// applyDB opens the database the settings name, if eng does not have it
// open already, and applies enable_wld and max_dbpieces. A directory that
// no longer opens (it did when it was set) leaves eng's database as it was.
// The caller holds mu.
func (p *Plugin) applyDB() {
	dir, mb := resolvePath(p.set.DBPath), p.set.DBMBytes
	if dir != p.engDB || mb != p.engDBMB {
		if _, err := p.eng.OpenDB(dir, mb); err == nil {
			p.engDB, p.engDBMB = dir, mb
		}
	}
	p.eng.SetDBLimits(p.set.MaxDBPieces, p.set.EnableWLD && p.set.MaxDBPieces > 0)
}

// done marks the plugin idle again.
func (p *Plugin) done() {
	p.mu.Lock()
	p.searching = false
	p.mu.Unlock()
}
