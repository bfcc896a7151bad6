package cbapi

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/egdb"
)

// ProtocolVersion and GameType answer "get protocolversion" and "get
// gametype" (21 is English draughts).
const (
	ProtocolVersion = 2
	GameType        = 21
)

// movelistProbe is the "get movelist" CheckerBoard sends at start-up; an
// English engine answers it with "movelist 0".
const movelistProbe = "B:W1:B"

// Unknown is the reply to a command the engine does not know.
const Unknown = "?"

// helpText answers "help": the engine's own commands. CheckerBoard's Help
// menu takes the reply for a file name and, when no such file opens, shows
// it inside a 1024-byte message of its own, so the text stays well under
// 700 bytes.
const helpText = `nechecb's own commands (CheckerBoard: Engine > Engine Command):
set eval SPEC: the evaluator, e.g. heuristic, material, neche:C:\nets\best_networks.txt#last (a relative path is looked up in the CheckerBoard folder, then in engines\)
get eval: the evaluator in force
staticevaluation FEN: evaluate a position
set/get hashsize MB, searchthreads N, book 0-3, bookfile FILE, allscores 0|1
set/get dbpath DIR, enable_wld 0|1, max_dbpieces N, dbmbytes MB: endgame databases (nechecb egdb build)
get cpus, protocolversion, gametype`

// Command answers one enginecommand string. It returns the reply and
// whether the command was handled: an unknown command gets "?" and false, a
// known one with a bad value a message naming the problem and false. A
// reply is at most MaxText bytes.
func (p *Plugin) Command(text string) (string, bool) {
	reply, ok := p.command(text)
	return Clip(reply, MaxText), ok
}

func (p *Plugin) command(text string) (string, bool) {
	verb, rest := word(text)
	switch verb {
	case "name":
		return p.Name(), true
	case "about":
		return p.about(), true
	case "help":
		return helpText, true
	case "get":
		name, arg := word(rest)
		return p.get(name, arg)
	case "set":
		name, value := word(rest)
		return p.setValue(name, value)
	case "staticevaluation":
		return p.staticEvaluation(rest)
	}
	return Unknown, false
}

// word splits off the first word of s, lower-cased, and returns it with the
// rest of s trimmed (values such as paths keep their case and spaces).
func word(s string) (string, string) {
	s = strings.TrimSpace(s)
	i := strings.IndexAny(s, " \t")
	if i < 0 {
		return strings.ToLower(s), ""
	}
	return strings.ToLower(s[:i]), strings.TrimSpace(s[i+1:])
}

// about is the text of the engine's About box.
func (p *Plugin) about() string {
	s := p.Settings()
	book := "off"
	if s.Book > 0 {
		book = fmt.Sprintf("level %d", s.Book)
	}
	return fmt.Sprintf("%s\nA checkers (English draughts) engine in Go.\nEvaluator: %s\nHash %d MB, %d search thread(s), book %s\n"+
		"Type \"help\" in Engine > Engine Command for its own commands.", p.Name(), s.Eval, s.HashMB, s.Threads, book)
}

// flag writes a boolean setting as 0 or 1.
func flag(b bool) string {
	if b {
		return "1"
	}
	return "0"
}

// get answers "get NAME".
func (p *Plugin) get(name, arg string) (string, bool) {
	switch name {
	case "protocolversion":
		return strconv.Itoa(ProtocolVersion), true
	case "gametype":
		return strconv.Itoa(GameType), true
	case "cpus":
		return strconv.Itoa(runtime.NumCPU()), true
	case "movelist":
		if arg == movelistProbe {
			return "movelist 0", true
		}
		return "nechecb plays English draughts only: CheckerBoard lists its moves itself", false
	}
	s := p.Settings()
	switch name {
	case "hashsize":
		return strconv.Itoa(s.HashMB), true
	case "searchthreads":
		return strconv.Itoa(s.Threads), true
	case "book":
		return strconv.Itoa(s.Book), true
	case "bookfile":
		return s.BookFile, true
	case "allscores":
		return flag(s.AllScores), true
	case "dbpath":
		return s.DBPath, true
	case "enable_wld":
		return flag(s.EnableWLD), true
	case "max_dbpieces":
		return strconv.Itoa(s.MaxDBPieces), true
	case "dbmbytes":
		return strconv.Itoa(s.DBMBytes), true
	case "eval":
		return s.Eval, true
	}
	return Unknown, false
}

// number reads an integer setting and clamps it to [lo, hi]; the note says
// when it was clamped.
func number(name, value string, lo, hi int) (n int, note string, err error) {
	n, err = strconv.Atoi(value)
	if err != nil {
		return 0, "", fmt.Errorf("set %s %q: want a whole number from %d to %d", name, value, lo, hi)
	}
	if n < lo || n > hi {
		note = fmt.Sprintf(" (%d is outside %d..%d)", n, lo, hi)
		n = min(max(n, lo), hi)
	}
	return n, note, nil
}

// maxPath bounds a path setting: CheckerBoard reads "get dbpath" and "get
// bookfile" into buffers of MAX_PATH (260) bytes.
const maxPath = 255

// setValue answers "set NAME VALUE". The reply confirms the value in force,
// except for dbmbytes: CheckerBoard shows any reply to that one in a
// message box, so success is an empty reply.
func (p *Plugin) setValue(name, value string) (string, bool) {
	if (name == "dbpath" || name == "bookfile") && len(value) > maxPath {
		return fmt.Sprintf("set %s: a path of %d bytes is longer than %d", name, len(value), maxPath), false
	}
	switch name {
	case "gamehist":
		return p.setGameHist(value)
	case "eval":
		return p.setEval(value)
	case "bookfile":
		return p.setBookFile(value)
	case "check_wld_dir":
		return checkDir(value), true
	}
	type intSetting struct {
		lo, hi int
		field  func(*Settings) *int
	}
	ints := map[string]intSetting{
		"hashsize":      {1, MaxHashMB, func(s *Settings) *int { return &s.HashMB }},
		"searchthreads": {1, MaxThreads, func(s *Settings) *int { return &s.Threads }},
		"book":          {0, 3, func(s *Settings) *int { return &s.Book }},
		"max_dbpieces":  {0, 32, func(s *Settings) *int { return &s.MaxDBPieces }},
		"dbmbytes":      {0, 1 << 20, func(s *Settings) *int { return &s.DBMBytes }},
	}
	bools := map[string]func(*Settings) *bool{
		"allscores":  func(s *Settings) *bool { return &s.AllScores },
		"enable_wld": func(s *Settings) *bool { return &s.EnableWLD },
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if is, ok := ints[name]; ok {
		n, note, err := number(name, value, is.lo, is.hi)
		if err != nil {
			return err.Error(), false
		}
		if name == "book" && n > 0 && p.book == nil {
			if err := p.openBook(p.set.BookFile); err != nil {
				return fmt.Sprintf("set book %d: %v; keeping %d", n, err, p.set.Book), false
			}
		}
		*is.field(&p.set) = n
		if name == "dbmbytes" && note == "" {
			return "", true
		}
		return fmt.Sprintf("%s %d%s", name, n, note), true
	}
	if field, ok := bools[name]; ok {
		if value != "0" && value != "1" {
			return fmt.Sprintf("set %s %q: want 0 or 1", name, value), false
		}
		*field(&p.set) = value == "1"
		return name + " " + value, true
	}
	if name == "dbpath" {
		return p.setDBPath(value)
	}
	return Unknown, false
}

// setGameHist stores the history for the next getmove. A history that does
// not read is refused, and no history is kept, so that repetitions are not
// judged from a wrong one.
func (p *Plugin) setGameHist(value string) (string, bool) {
	hist, err := ParseGameHist(value)
	p.mu.Lock()
	defer p.mu.Unlock()
	p.hist = hist
	if err != nil {
		return "set " + err.Error(), false
	}
	return fmt.Sprintf("gamehist %d position(s)", len(hist)), true
}

// setEval loads an evaluator; on an error the one in force stays.
func (p *Plugin) setEval(spec string) (string, bool) {
	f, err := loadEval(spec)
	p.mu.Lock()
	defer p.mu.Unlock()
	if err != nil {
		return fmt.Sprintf("set eval %q: %v; keeping %s", spec, err, p.set.Eval), false
	}
	p.factory, p.set.Eval = f, spec
	return "eval " + spec, true
}

// setBookFile reads the book now, so that a bad file is reported here; on
// an error the file in force stays.
func (p *Plugin) setBookFile(file string) (string, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if err := p.openBook(file); err != nil {
		return fmt.Sprintf("set bookfile %q: %v; keeping %q", file, err, p.set.BookFile), false
	}
	p.set.BookFile = file
	if file == "" {
		return "bookfile: the built-in book", true
	}
	return "bookfile " + file, true
}

// checkDir answers "set check_wld_dir": what the folder holds for nechecb.
func checkDir(dir string) string {
	st, err := os.Stat(dir)
	switch {
	case err != nil:
		return fmt.Sprintf("%s: %v", dir, err)
	case !st.IsDir():
		return dir + " is not a folder"
	}
	db, err := egdb.Open(dir, 1)
	if err != nil {
		return err.Error()
	}
	defer db.Close()
	return fmt.Sprintf("%s: endgame databases of %d pieces%s", dir, db.Pieces(), leftOut(db.Problems()))
}

// leftOut lists the database files left out, for a reply.
func leftOut(problems []error) string {
	if len(problems) == 0 {
		return ""
	}
	parts := make([]string, len(problems))
	for i, p := range problems {
		parts[i] = p.Error()
	}
	return "; left out: " + strings.Join(parts, "; ")
}

// setDBPath answers "set dbpath DIR": the directory is opened to check it
// (the search opens it at the next getmove). One that does not open is
// refused and the path in force stays; "" means no database.
func (p *Plugin) setDBPath(dir string) (string, bool) {
	if dir == "" {
		p.set.DBPath = ""
		return "dbpath (none)", true
	}
	db, err := egdb.Open(resolvePath(dir), 1)
	if err != nil {
		return fmt.Sprintf("set dbpath: %v; keeping %q", err, p.set.DBPath), false
	}
	defer db.Close()
	if db.Pieces() == 0 {
		return fmt.Sprintf("set dbpath: %s has no complete set of slices%s; keeping %q", dir, leftOut(db.Problems()), p.set.DBPath), false
	}
	p.set.DBPath = dir
	return fmt.Sprintf("dbpath %s: %d pieces%s", dir, db.Pieces(), leftOut(db.Problems())), true
}

// staticEvaluation answers "staticevaluation FEN" with the evaluator's
// score for the side to move.
func (p *Plugin) staticEvaluation(fen string) (string, bool) {
	pos, err := engine.ParseFEN(fen)
	if err != nil {
		return "staticevaluation: " + err.Error(), false
	}
	p.mu.Lock()
	f, spec := p.factory, p.set.Eval
	p.mu.Unlock()
	ev := f()
	return fmt.Sprintf("%s: %+d for %s (to move)\nraw output %g", spec, ev.Evaluate(&pos), pos.Side, ev.Raw(&pos)), true
}
