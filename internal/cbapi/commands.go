package cbapi

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/egdb"
	"github.com/nechecb/nechecb/internal/session"
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

// helpHead and helpTail frame the answer to "help": the engine's own
// commands, with the options of the session's table between them.
// CheckerBoard's Help menu takes the reply for a file name and, when no
// such file opens, shows it inside a 1024-byte message of its own, so the
// text stays well under 700 bytes.
const (
	helpHead = `nechecb's own commands (CheckerBoard: Engine > Engine Command):
set eval SPEC: the evaluator, e.g. heuristic, material, neche:C:\nets\best_networks.txt#last (a relative path is looked up in the CheckerBoard folder, then in engines\)
set/get NAME VALUE (0|1 for off|on), help NAME: `
	helpTail = `
staticevaluation FEN: evaluate a position
get cpus, protocolversion, gametype`
)

// cbNames are CheckerBoard's names of the session's options; the others go
// by their own names, in lower case.
var cbNames = map[string]string{
	"hashsize": "Hash", "searchthreads": "Threads", "book": "Book", "bookfile": "BookFile",
	"eval": "Eval", "dbpath": "DBPath", "dbmbytes": "DBCache",
}

// ownNames are CheckerBoard's own settings, after the table's options in
// help.
var ownNames = []string{"allscores", "enable_wld", "max_dbpieces"}

// cbName returns CheckerBoard's name of the table's option called name.
func cbName(name string) string {
	for cb, n := range cbNames {
		if n == name {
			return cb
		}
	}
	return strings.ToLower(name)
}

// tableName returns the table's name of the option CheckerBoard calls
// name.
func tableName(name string) string {
	if n, ok := cbNames[name]; ok {
		return n
	}
	return name
}

// help answers "help" (the commands and every announced option) and "help
// NAME" (what the option does, its kind, default and range).
func (p *Plugin) help(name string) (string, bool) {
	opts := p.sess.Options()
	if name == "" {
		var names []string
		for _, o := range opts {
			if !o.Hidden {
				names = append(names, cbName(o.Name))
			}
		}
		return helpHead + strings.Join(append(names, ownNames...), ", ") + helpTail, true
	}
	i := session.Find(opts, tableName(name))
	if i < 0 {
		return fmt.Sprintf("help %s: no such option (help lists them)", name), false
	}
	o := opts[i]
	text := fmt.Sprintf("%s: %s; default %s", name, o.Help, cbValue(&o, o.Default))
	if o.Kind == session.Spin {
		text += fmt.Sprintf(", %d..%d", o.Min, o.Max)
	}
	return text, true
}

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
		return p.help(strings.ToLower(rest))
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
	p.mu.Lock()
	defer p.mu.Unlock()
	switch name {
	case "allscores":
		return flag(p.own.allScores), true
	case "enable_wld":
		return flag(p.own.enableWLD), true
	case "max_dbpieces":
		return strconv.Itoa(p.own.maxDBPieces), true
	}
	opts := p.sess.Options()
	i := session.Find(opts, tableName(name))
	if i < 0 {
		return Unknown, false
	}
	v, _ := p.sess.Get(opts[i].Name)
	return cbValue(&opts[i], v), true
}

// cbValue writes an option's value as CheckerBoard reads it: 0 or 1 for
// true and false.
func cbValue(o *session.Option, v string) string {
	if o.Kind == session.Check {
		return flag(v == "true")
	}
	return v
}

// maxPath bounds a text setting: CheckerBoard reads "get dbpath" and "get
// bookfile" into buffers of MAX_PATH (260) bytes.
const maxPath = 255

// setValue answers "set NAME VALUE": CheckerBoard's own settings, or an
// option of the session's table under CheckerBoard's name or its own. A
// value that is not valid (out of range, say) is refused and the value in
// force stays. The reply confirms the value in force, except for dbmbytes:
// CheckerBoard shows any reply to that one in a message box, so success is
// an empty reply.
func (p *Plugin) setValue(name, value string) (string, bool) {
	switch name {
	case "gamehist":
		return p.setGameHist(value)
	case "check_wld_dir":
		return checkDir(value), true
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if reply, ok, known := p.setOwn(name, value); known {
		return reply, ok
	}
	opts := p.sess.Options()
	i := session.Find(opts, tableName(name))
	if i < 0 {
		return Unknown, false
	}
	o := &opts[i]
	old, _ := p.sess.Get(o.Name)
	refuse := func(err error) (string, bool) {
		keep := cbValue(o, old)
		if o.Kind == session.String {
			keep = strconv.Quote(keep)
		}
		return fmt.Sprintf("set %s %s: %v; keeping %s", name, value, err, keep), false
	}
	if o.Kind == session.String && len(value) > maxPath {
		return fmt.Sprintf("set %s: a path of %d bytes is longer than %d", name, len(value), maxPath), false
	}
	if o.Kind == session.Check {
		switch value {
		case "0":
			value = "false"
		case "1":
			value = "true"
		}
	}
	if _, err := o.Check(value); err != nil {
		return refuse(fmt.Errorf("option %s: %w", o.Name, err))
	}
	if p.searching {
		p.pending = append(p.pending, [2]string{o.Name, value})
		return fmt.Sprintf("%s %s (from the next move)", name, value), true
	}
	notes, err := p.sess.Set(o.Name, value)
	if err != nil {
		return refuse(err)
	}
	v, _ := p.sess.Get(o.Name)
	switch {
	case name == "dbmbytes":
		return "", true
	case len(notes) > 0:
		return name + " " + strings.Join(notes, "; "), true
	}
	return name + " " + quoted(o, cbValue(o, v)), true
}

// quoted writes an empty text value as "", so that it shows.
func quoted(o *session.Option, v string) string {
	if o.Kind == session.String && v == "" {
		return `""`
	}
	return v
}

// setOwn sets one of CheckerBoard's own settings; known is false for any
// other name.
func (p *Plugin) setOwn(name, value string) (reply string, ok, known bool) {
	switch name {
	case "allscores", "enable_wld":
		if value != "0" && value != "1" {
			return fmt.Sprintf("set %s %q: want 0 or 1", name, value), false, true
		}
		if name == "allscores" {
			p.own.allScores = value == "1"
		} else {
			p.own.enableWLD = value == "1"
		}
		return name + " " + value, true, true
	case "max_dbpieces":
		n, err := strconv.Atoi(value)
		if err != nil || n < 0 || n > 32 {
			return fmt.Sprintf("set %s %q: want a whole number from 0 to 32; keeping %d", name, value, p.own.maxDBPieces), false, true
		}
		p.own.maxDBPieces = n
		return fmt.Sprintf("%s %d", name, n), true, true
	}
	return "", false, false
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
	return fmt.Sprintf("gamehist %d position(s)", len(hist.Positions())), true
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

// staticEvaluation answers "staticevaluation FEN" with the evaluator's
// score for the side to move.
func (p *Plugin) staticEvaluation(fen string) (string, bool) {
	pos, err := engine.ParseFEN(fen)
	if err != nil {
		return "staticevaluation: " + err.Error(), false
	}
	p.mu.Lock()
	eng := p.sess.Engine()
	spec := eng.Evaluator()
	raw, score := eng.Evaluate(&pos)
	p.mu.Unlock()
	return fmt.Sprintf("%s: %+d for %s (to move)\nraw output %g", spec, score, pos.Side, raw), true
}
