package cbapi

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"sync"

	"github.com/nechecb/nechecb/engine/search"
	"github.com/nechecb/nechecb/internal/player"
	"github.com/nechecb/nechecb/internal/session"
)

// Config identifies the engine and gives its starting evaluator.
type Config struct {
	// Name and Version answer "name" (and enginename).
	Name, Version string
	// Eval is the evaluator spec in force until "set eval".
	Eval string
}

// Settings are the values that enginecommand gets and sets, as one view
// of the session's options and CheckerBoard's own settings.
type Settings struct {
	// HashMB is the hash table's size; Threads the search threads.
	HashMB, Threads int
	// Book is the book level: 0 none, 1 all moves, 2 good moves, 3 best
	// only. BookFile is the book's file, "" for the built-in one.
	Book     int
	BookFile string
	// AllScores shows the score of every root move in the status line.
	AllScores bool
	// DBPath is the endgame database directory ("": the one built into
	// the binary, session.DBNone: none); EnableWLD
	// switches its use, MaxDBPieces bounds the positions probed (0: none)
	// and DBMBytes is its block cache. EnableWLD and MaxDBPieces take
	// effect at the next getmove.
	DBPath      string
	EnableWLD   bool
	MaxDBPieces int
	DBMBytes    int
	// Eval is the evaluator spec in force.
	Eval string
}

// own are CheckerBoard's own settings, which the session's table has not.
type own struct {
	allScores   bool // show the score of every root move
	enableWLD   bool // probe the endgame database
	maxDBPieces int  // the most pieces probed (0: none)
}

// Limits of the settings.
const (
	// MaxThreads is the most search threads.
	MaxThreads = search.MaxThreads
	// MaxHashMB is the largest hash table (the session's table says).
	MaxHashMB = session.MaxHashMB
)

// Plugin is the engine behind the exported functions: the engine session,
// CheckerBoard's own settings and the last game history. Command may be
// called while GetMove runs (the host's GUI thread answers menus during a
// search); a setting changed then is checked at once and put in force at
// the next GetMove.
type Plugin struct {
	cfg Config

	mu        sync.Mutex // guards the fields below
	sess      *session.Session
	own       own
	hist      *session.Game // from the last "set gamehist"; nil when none
	pending   [][2]string   // session options set during a search: name, value
	searching bool
}

// New makes a Plugin with the evaluator cfg.Eval, which is loaded now (an
// error names the spec), and the session's defaults, but for two of
// CheckerBoard's own: no time kept back for communication (the host calls
// in the same process) and book choices seeded with 1. The hash table is
// mapped now, so that the first move does not pay for it.
func New(cfg Config) (*Plugin, error) {
	sess, err := session.New(session.Config{
		Defaults: map[string]string{"Eval": cfg.Eval, "MoveOverhead": "0", "Seed": "1"},
		Resolve:  resolvePath,
	})
	if err != nil {
		return nil, err
	}
	sess.Ready()
	return &Plugin{cfg: cfg, sess: sess, own: own{enableWLD: true, maxDBPieces: 8}}, nil
}

// Settings returns the settings in force.
func (p *Plugin) Settings() Settings {
	p.mu.Lock()
	defer p.mu.Unlock()
	get := func(name string) string { v, _ := p.sess.Get(name); return v }
	num := func(name string) int { n, _ := strconv.Atoi(get(name)); return n }
	return Settings{HashMB: num("Hash"), Threads: num("Threads"), Book: num("Book"), BookFile: get("BookFile"),
		AllScores: p.own.allScores, DBPath: get("DBPath"), EnableWLD: p.own.enableWLD, MaxDBPieces: p.own.maxDBPieces,
		DBMBytes: num("DBCache"), Eval: get("Eval")}
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

// errBusy refuses a GetMove while another runs.
var errBusy = errors.New("nechecb is already searching (getmove called again before it returned)")

// prepared is what one GetMove needs, taken under mu.
type prepared struct {
	eng       *player.Engine
	book      *session.Session // probed for a book move
	hist      *session.Game
	allScores bool
	// problems are the settings made during the last search that did not
	// take, for the status line.
	problems []string
}

// prepare marks the plugin busy and brings the session up to date: the
// settings made during the last search and the database's limits take
// effect here.
func (p *Plugin) prepare() (prepared, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.searching {
		return prepared{}, errBusy
	}
	var problems []string
	for _, c := range p.pending {
		if _, err := p.sess.Set(c[0], c[1]); err != nil {
			problems = append(problems, err.Error())
		}
	}
	p.pending = nil
	eng := p.sess.Engine()
	eng.SetDBLimits(p.own.maxDBPieces, p.own.enableWLD && p.own.maxDBPieces > 0)
	p.searching = true
	return prepared{eng: eng, book: p.sess, hist: p.hist, allScores: p.own.allScores, problems: problems}, nil
}

// done marks the plugin idle again.
func (p *Plugin) done() {
	p.mu.Lock()
	p.searching = false
	p.mu.Unlock()
}
