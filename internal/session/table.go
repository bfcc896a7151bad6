package session

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nechecb/nechecb/engine/egdb/embedded"
	"github.com/nechecb/nechecb/engine/search"
	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/internal/player"
)

// MaxHashMB is the largest hash table: 4096 MB in a 64-bit build, 512 MB in
// a 32-bit one (the CheckerBoard plugin's host has 2 GB of address space
// for everything).
const MaxHashMB = 512 + (4096-512)*(strconv.IntSize/64)

// table declares the engine's options, in the order the protocol's
// handshakes announce them, each with its setter bound to s. The hidden Exp
// options switch the search's selective features (player.Tuning) for A/B
// matches: nechecb match --engine "... opts=ExpNoLMR=true".
func (s *Session) table() []Option {
	setSearch := func(change func(*player.Options)) {
		o := s.eng.Options()
		change(&o)
		s.eng.SetOptions(o)
	}
	spin := func(name string, def, lo, hi int, help string, field func(*player.Options) *int) Option {
		return spinOption(name, def, lo, hi, help, func(n int) error {
			setSearch(func(o *player.Options) { *field(o) = n })
			return nil
		})
	}
	check := func(name, help string, field func(*player.Options) *bool) Option {
		return Option{Name: name, Kind: Check, Default: "false", Help: help, Set: func(v string) ([]string, error) {
			setSearch(func(o *player.Options) { *field(o) = v == "true" })
			return nil, nil
		}}
	}
	hide := func(o Option) Option { o.Hidden = true; return o }
	return []Option{
		spin("Hash", 64, 1, MaxHashMB, "transposition table size in MB", func(o *player.Options) *int { return &o.HashMB }),
		spin("Threads", 1, 1, search.MaxThreads, "search threads", func(o *player.Options) *int { return &o.Threads }),
		spin("MultiPV", 1, 1, 64, "best root moves reported, each with its line", func(o *player.Options) *int { return &o.MultiPV }),
		spinOption("MoveOverhead", int(player.DefaultOptions.MoveOverhead/time.Millisecond), 0, 5000, "milliseconds kept back from every time limit for communication", func(ms int) error {
			setSearch(func(o *player.Options) { o.MoveOverhead = time.Duration(ms) * time.Millisecond })
			return nil
		}),
		spinOption("Book", 0, 0, 3, "opening book: 0 none, 1 all book moves, 2 good ones, 3 best only", s.book.setLevel),
		stringOption("BookFile", "", "opening book file (nechecb book build); empty: the built-in book", s.book.setFile),
		func() Option {
			o := stringOption("Eval", "material", "evaluator spec, e.g. pattern, heuristic, neche:FILE#last", s.setEval)
			o.Confirm = true
			return o
		}(),
		check("RandomTies", "pick at random among root moves of equal score", func(o *player.Options) *bool { return &o.RandomTies }),
		check("MoverView", "judge every leaf from the side to move", func(o *player.Options) *bool { return &o.MoverView }),
		spinOption("Seed", 0, 0, 1<<31-1, "seed of the random choices (RandomTies, book)", func(n int) error {
			s.book.setSeed(uint64(n))
			setSearch(func(o *player.Options) { o.Seed = uint64(n) })
			return nil
		}),
		{Name: "DBPath", Kind: String, Set: s.setDBPath, Help: fmt.Sprintf("endgame database directory (nechecb egdb build); "+
			"empty: the %d-piece database built into the binary; %s: no database", embedded.Pieces, DBNone)},
		{Name: "DBCache", Kind: Spin, Default: strconv.Itoa(player.DefaultDBCacheMB), Min: 1, Max: 65536,
			Help: "endgame database block cache in MB", Set: s.setDBCache},

		hide(check("ExpNoLMR", "switch late-move reductions off", func(o *player.Options) *bool { return &o.Tuning.NoLMR })),
		hide(spin("ExpLMRDepth", 0, 0, 64, "least depth of late-move reductions (0: the default)", func(o *player.Options) *int { return &o.Tuning.LMRDepth })),
		hide(spin("ExpLMRMoves", 0, 0, 64, "moves searched in full before reductions (0: the default)", func(o *player.Options) *int { return &o.Tuning.LMRMoves })),
		hide(check("ExpNoThreat", "switch the threat search at the horizon off", func(o *player.Options) *bool { return &o.Tuning.NoThreat })),
		hide(spin("ExpThreat", 0, 0, 8, "threat plies searched at the horizon (0: the default)", func(o *player.Options) *int { return &o.Tuning.ThreatPlies })),
		hide(check("ExpSingleReply", "search a single reply one ply deeper", func(o *player.Options) *bool { return &o.Tuning.SingleReply })),
		hide(check("ExpHistLMR", "reduce a late quiet move one ply more when its history is below zero", func(o *player.Options) *bool { return &o.Tuning.HistLMR })),
		hide(check("ExpKingLMR", "let late-move reductions take late king steps at non-PV nodes", func(o *player.Options) *bool { return &o.Tuning.KingLMR })),
		hide(spin("ExpCrown", 0, 0, 2, "crowning extension: 1 a crowning move, 2 also a man's step onto the row before crowning, a ply deeper (0: off)", func(o *player.Options) *int { return &o.Tuning.Crown })),
		hide(spin("ExpLMRLog", 0, 0, 100, "logarithmic late-move reductions, ln(depth)*ln(slot)*10/N plies (0: off)", func(o *player.Options) *int { return &o.Tuning.LMRLog })),
		hide(check("ExpNoTrunc", "switch eval-distance truncation off", func(o *player.Options) *bool { return &o.Tuning.NoTrunc })),
		hide(spin("ExpTrunc", 0, 0, 1000, "eval-distance truncation: a ply per 64 cp outside the window beyond N cp (0: the default)", func(o *player.Options) *int { return &o.Tuning.Trunc })),
		hide(spin("ExpTruncStep", 0, 0, 1000, "eval-distance truncation: cp outside the window per ply (0: the default)", func(o *player.Options) *int { return &o.Tuning.TruncStep })),
		hide(check("ExpNoPVExt", "switch the PV extension (half a ply at a PV node) off", func(o *player.Options) *bool { return &o.Tuning.NoPVExt })),
		hide(spin("ExpFutility", 0, 0, 1000, "futility: a quiet node of depth <= 3 returns its evaluation N + 16*depth cp above beta (0: off)", func(o *player.Options) *int { return &o.Tuning.Futility })),
		hide(spin("ExpLMP", 0, 0, 16, "late-move pruning of quiet men's moves after N*depth moves at depth <= 3 (0: off)", func(o *player.Options) *int { return &o.Tuning.LMP })),
	}
}

// spinOption declares a whole-number option in lo..hi.
func spinOption(name string, def, lo, hi int, help string, set func(int) error) Option {
	return Option{Name: name, Kind: Spin, Default: strconv.Itoa(def), Min: lo, Max: hi, Help: help,
		Set: func(v string) ([]string, error) {
			n, err := strconv.Atoi(v)
			if err != nil {
				return nil, err
			}
			return nil, set(n)
		}}
}

// stringOption declares a free-text option.
func stringOption(name, def, help string, set func(string) error) Option {
	return Option{Name: name, Kind: String, Default: def, Help: help,
		Set: func(v string) ([]string, error) { return nil, set(v) }}
}

// setEval switches to the evaluator of spec, its file found by Resolve;
// when spec does not load, the evaluator in force stays.
func (s *Session) setEval(spec string) error {
	sp, err := eval.ParseSpec(spec)
	if err != nil {
		return err
	}
	if sp.Path == "" || s.resolve(sp.Path) == sp.Path {
		return s.eng.LoadEvaluator(spec)
	}
	sp.Path = s.resolve(sp.Path)
	f, err := eval.Load(sp.String())
	if err != nil {
		return err
	}
	s.eng.SetEvaluator(f, spec)
	return nil
}

// DBNone is the DBPath value (in any case) that switches every endgame
// database off. The empty value, DBPath's default, is the database built
// into the binary; any other names a directory.
const DBNone = "none"

// setDBPath opens the endgame database path names: the embedded one for
// "", none for DBNone, else the directory's.
func (s *Session) setDBPath(path string) ([]string, error) {
	var problems []error
	var err error
	switch {
	case path == "":
		problems, err = s.eng.OpenEmbeddedDB(s.eng.DBCache())
	case strings.EqualFold(path, DBNone):
		problems, err = s.eng.OpenDB("", s.eng.DBCache())
	default:
		problems, err = s.eng.OpenDB(s.resolve(path), s.eng.DBCache())
	}
	return s.dbNotes(problems, err)
}

// setDBCache sets the database's block cache, reopening the database.
func (s *Session) setDBCache(v string) ([]string, error) {
	mb, err := strconv.Atoi(v)
	if err != nil {
		return nil, err
	}
	problems, err := s.eng.SetDBCache(mb)
	return s.dbNotes(problems, err)
}

// dbNotes turns what opening an endgame database returned into a setter's
// answer: the error, or notes saying how many pieces the database covers
// and naming each file left out.
func (s *Session) dbNotes(problems []error, err error) ([]string, error) {
	if err != nil || s.eng.DBDir() == "" {
		return nil, err
	}
	notes := []string{fmt.Sprintf("%s: %d pieces", s.eng.DBDir(), s.eng.DBPieces())}
	for _, p := range problems {
		notes = append(notes, p.Error())
	}
	return notes, nil
}
