package console

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/pdn"
	"github.com/nechecb/nechecb/internal/player"
	"github.com/nechecb/nechecb/internal/session"
)

// command is one console command.
type command struct {
	name, args, summary string
	run                 func(s *Session, args []string)
}

// commands lists the console's commands in the order help shows them. It is
// filled in init because the help command refers to it.
var commands []*command

func init() {
	commands = []*command{
		{"new", "", "start a new game", (*Session).cmdNew},
		{"fen", "[FEN]", "show the position's FEN, or set up a position", (*Session).cmdFEN},
		{"undo", "", "take back a move (two when the engine answered it)", (*Session).cmdUndo},
		{"redo", "", "replay a move taken back", (*Session).cmdRedo},
		{"moves", "", "list the legal moves", func(s *Session, _ []string) { cur := s.game.Current(); s.listMoves(&cur) }},
		{"go", "", "the engine plays the side to move (and goes on playing it)", (*Session).cmdGo},
		{"hint", "", "the engine suggests a move", (*Session).cmdHint},
		{"analyze", "", "search without limit, showing each depth, until Enter", (*Session).cmdAnalyze},
		{"play", "white|black|both|none", "choose the sides the engine plays", (*Session).cmdPlay},
		{"level", "depth N | time S | movetime MS", "how long the engine thinks (time: seconds for its whole game)", (*Session).cmdLevel},
		{"eval", "[SPEC]", "show or switch the evaluator (e.g. material, neche:FILE#last)", (*Session).cmdEval},
		{"db", "[path DIR|-]", "endgame database: the position's value and its moves, or open one", (*Session).cmdDB},
		{"set", "[NAME [VALUE]]", "show the engine's options, explain one, or set it", (*Session).cmdSet},
		{"board", "", "show the board", func(s *Session, _ []string) { s.showBoard() }},
		{"flip", "", "turn the board round", (*Session).cmdFlip},
		{"history", "", "show the game's moves", (*Session).cmdHistory},
		{"save", "FILE.pdn", "save the game as PDN", (*Session).cmdSave},
		{"load", "FILE.pdn [GAME]", "load a game (the first, or number GAME) from a PDN file", (*Session).cmdLoad},
		{"notation", "algebraic|numeric", "choose how moves are shown", (*Session).cmdNotation},
		{"help", "", "list the commands", (*Session).cmdHelp},
		{"quit", "", "leave (also Ctrl-D)", func(s *Session, _ []string) { s.quit = true }},
	}
}

// aliases are other names for commands.
var aliases = map[string]string{"exit": "quit", "q": "quit", "?": "help", "analyse": "analyze", "u": "undo"}

// findCommand returns the command named w, or nil.
func findCommand(w string) *command {
	w = strings.ToLower(w)
	if a, ok := aliases[w]; ok {
		w = a
	}
	for _, c := range commands {
		if c.name == w {
			return c
		}
	}
	return nil
}

func (s *Session) cmdHelp(_ []string) {
	s.printf("Type a move in algebraic (c3d4, c3xe5xc7) or numeric (22-18, 9x18x27) notation;\n")
	s.printf("a start and an end (c3e5, 9x27) are enough when only one legal move fits. Commands:\n")
	for _, c := range commands {
		s.printf("  %-38s %s\n", strings.TrimSpace(c.name+" "+c.args), c.summary)
	}
	s.printf("Tab completes commands and moves. Ctrl-C makes the engine move now (hint: show\n")
	s.printf("its best move so far); twice in a row it leaves.\n")
}

func (s *Session) cmdNew(_ []string) {
	s.newGame(engine.StartPosition())
	s.autoPlay()
	s.showBoard()
}

func (s *Session) cmdFEN(args []string) {
	if len(args) == 0 {
		cur := s.game.Current()
		s.printf("%s\n", cur.FEN())
		return
	}
	pos, err := engine.ParseFEN(strings.Join(args, " "))
	if err != nil {
		s.printf("%v; the position is unchanged\n", err)
		return
	}
	s.newGame(pos)
	s.showBoard()
}

func (s *Session) cmdUndo(_ []string) {
	if !s.undoOne() {
		s.printf("nothing to undo\n")
		return
	}
	// Take back the engine's answer too, so that the user is to move again.
	if s.engineAloneToMove() {
		s.undoOne()
	}
	s.showBoard()
}

// engineAloneToMove reports whether the engine plays the side to move and
// the user the other side.
func (s *Session) engineAloneToMove() bool {
	side := s.game.Current().Side
	return s.engineOn[side] && !s.engineOn[side.Opponent()]
}

func (s *Session) undoOne() bool {
	moves := s.game.Moves()
	if len(moves) == 0 {
		return false
	}
	m := moves[len(moves)-1]
	s.game.Undo()
	s.redo = append(s.redo, m)
	return true
}

func (s *Session) cmdRedo(_ []string) {
	if !s.redoOne() {
		s.printf("nothing to redo\n")
		return
	}
	if s.engineAloneToMove() {
		s.redoOne()
	}
	s.showBoard()
}

func (s *Session) redoOne() bool {
	if len(s.redo) == 0 {
		return false
	}
	m := s.redo[len(s.redo)-1]
	if err := s.game.Play(m); err != nil {
		return false
	}
	s.redo = s.redo[:len(s.redo)-1]
	return true
}

// cmdGo lets the engine play the side to move. When it plays one side, the
// other, it takes the side to move instead (the user's turns change hands);
// when it plays none it moves once.
func (s *Session) cmdGo(_ []string) {
	if s.refuseIfOver() {
		return
	}
	side := s.game.Current().Side
	if s.engineOn[side.Opponent()] && !s.engineOn[side] {
		s.engineOn[side], s.engineOn[side.Opponent()] = true, false
		s.printf("the engine plays %s\n", s.engineSides())
	}
	if s.engineMove() {
		s.autoPlay()
	}
	s.showBoard()
}

func (s *Session) cmdHint(_ []string) {
	if s.refuseIfOver() {
		return
	}
	r, _ := s.think(s.limits())
	if !r.HasMove {
		return
	}
	s.printWrapped(fmt.Sprintf("hint: %s, score %s, line %s%s", s.bothNames(r.Best), formatScore(r.Score), s.line(r.PV), knownNote(r.Known)))
}

// printWrapped prints text wrapped at word boundaries to fit a terminal.
func (s *Session) printWrapped(text string) {
	s.printf("%s", wrapWords("", strings.Fields(text)))
}

func (s *Session) cmdPlay(args []string) {
	sides := map[string][2]bool{"white": {false, true}, "black": {true, false}, "both": {true, true}, "none": {false, false}}
	if len(args) != 1 {
		s.printf("usage: play white|black|both|none (the engine plays %s)\n", s.engineSides())
		return
	}
	on, ok := sides[strings.ToLower(args[0])]
	if !ok {
		s.printf("play: %q is not white, black, both or none\n", args[0])
		return
	}
	s.engineOn[engine.Black], s.engineOn[engine.White] = on[0], on[1]
	s.printf("the engine plays %s\n", s.engineSides())
	if !s.over() && s.engineOn[s.game.Current().Side] {
		s.autoPlay()
		s.showBoard()
	}
}

func (s *Session) engineSides() string {
	switch s.engineOn {
	case [2]bool{true, true}:
		return "both sides"
	case [2]bool{true, false}:
		return engine.Color(0).String()
	case [2]bool{false, true}:
		return engine.Color(1).String()
	}
	return "no side"
}

func (s *Session) cmdLevel(args []string) {
	if len(args) == 0 {
		s.printf("level %s\n", s.level)
		return
	}
	if len(args) != 2 {
		s.printf("usage: level depth N | time S | movetime MS\n")
		return
	}
	n, err := strconv.ParseFloat(args[1], 64)
	if err != nil || n <= 0 || n > 1e7 {
		s.printf("level: %q is not a positive number\n", args[1])
		return
	}
	l := level{kind: strings.ToLower(args[0])}
	switch l.kind {
	case "depth":
		if n != float64(int(n)) || n > 100 {
			s.printf("level: depth must be a whole number of plies up to 100\n")
			return
		}
		l.depth = int(n)
	case "time":
		l.game = time.Duration(n * float64(time.Second))
	case "movetime":
		l.moveTime = time.Duration(n * float64(time.Millisecond))
	default:
		s.printf("level: %q is not depth, time or movetime\n", args[0])
		return
	}
	s.level = l
	s.resetClock()
	s.printf("level %s\n", s.level)
}

// limits turns the level into search limits for the side to move.
func (s *Session) limits() player.Limits {
	switch s.level.kind {
	case "depth":
		return player.Limits{Depth: s.level.depth}
	case "time":
		const least = 10 * time.Millisecond
		return player.Limits{BTime: max(s.clock[engine.Black], least), WTime: max(s.clock[engine.White], least)}
	}
	return player.Limits{MoveTime: s.level.moveTime}
}

func (s *Session) cmdEval(args []string) {
	if len(args) == 0 {
		s.printf("eval %s\n", s.evalSpec())
		return
	}
	spec := strings.Join(args, " ")
	if _, err := s.cfg.Settings.Set("Eval", spec); err != nil {
		s.printf("%v; the evaluator is still %s\n", err, s.evalSpec())
		return
	}
	s.printf("eval %s\n", s.evalSpec())
}

func (s *Session) cmdFlip(_ []string) {
	s.cfg.Style.Flip = !s.cfg.Style.Flip
	s.showBoard()
}

func (s *Session) cmdNotation(args []string) {
	if len(args) == 1 {
		switch strings.ToLower(args[0]) {
		case "algebraic":
			s.cfg.Numeric = false
		case "numeric":
			s.cfg.Numeric = true
		default:
			s.printf("notation: %q is not algebraic or numeric\n", args[0])
			return
		}
	} else if len(args) > 1 {
		s.printf("usage: notation algebraic|numeric\n")
		return
	}
	if s.cfg.Numeric {
		s.printf("notation numeric\n")
	} else {
		s.printf("notation algebraic\n")
	}
}

// cmdHistory prints the game twice, in algebraic and in numeric notation,
// with the result token once the game is over.
func (s *Session) cmdHistory(_ []string) {
	if s.game.Ply() == 0 {
		s.printf("no moves yet\n")
		return
	}
	positions := s.game.Positions()
	alg := s.numbered(func(i int, m engine.Move) string { return m.Algebraic() })
	num := s.numbered(func(i int, m engine.Move) string { return positions[i].Notation(m) })
	s.printf("%s%s", wrapWords("algebraic: ", alg), wrapWords("numeric:   ", num))
	if r := s.game.Result(); r.Outcome != engine.Ongoing {
		s.printf("%s\n", r)
	}
}

// numbered writes the moves with move numbers ("1. f6e5", "c3d4", "2. ...",
// a number kept with its move so that lines do not break between them), and
// the result token at the end when the game is over.
func (s *Session) numbered(name func(i int, m engine.Move) string) []string {
	var words []string
	first := s.game.Start().Side
	for i, m := range s.game.Moves() {
		num, side := pdn.MoveNumber(first, i)
		w := name(i, m)
		if side == engine.Black {
			w = strconv.Itoa(num) + ". " + w
		} else if i == 0 {
			w = strconv.Itoa(num) + "... " + w
		}
		words = append(words, w)
	}
	if r := s.game.Result(); r.Outcome != engine.Ongoing {
		words = append(words, r.PDN())
	}
	return words
}

// wrapWords writes words after label, wrapped to 78 columns with the
// continuation lines indented under the first word.
func wrapWords(label string, words []string) string {
	var b strings.Builder
	b.WriteString(label)
	col := len(label)
	indent := strings.Repeat(" ", len(label))
	for i, w := range words {
		if i > 0 {
			if col+1+len(w) > 78 {
				b.WriteString("\n" + indent)
				col = len(indent)
			} else {
				b.WriteByte(' ')
				col++
			}
		}
		b.WriteString(w)
		col += len(w)
	}
	b.WriteByte('\n')
	return b.String()
}

func (s *Session) cmdSave(args []string) {
	if len(args) != 1 {
		s.printf("usage: save FILE.pdn\n")
		return
	}
	g := s.pdnGame()
	if err := pdn.WriteFile(args[0], g); err != nil {
		s.printf("save: %v; nothing was written\n", err)
		return
	}
	s.printf("saved %d moves to %s\n", s.game.Ply(), args[0])
}

// pdnGame builds the PDN record of the game: the tags and comments of the
// game it was loaded from (comments as far as the moves still agree), or new
// tags naming the players, and the result.
func (s *Session) pdnGame() *pdn.Game {
	g := pdn.FromRecord(s.game.Record())
	r := s.game.Result()
	result := r.PDN()
	if s.loaded != nil {
		g.Tags = append([]pdn.Tag(nil), s.loaded.Tags...)
		old := s.loadedMoves
		same := 0
		for same < len(old) && same < s.game.Ply() && old[same] == s.game.Moves()[same] {
			same++
		}
		for i := 0; i <= same; i++ {
			g.SetComment(i, s.loaded.Comment(i))
		}
		if same == len(old) && same == s.game.Ply() && r.Outcome == engine.Ongoing {
			result = s.loaded.Result() // an unchanged game keeps its result (adjudicated, say)
		}
	} else {
		g.SetTag("Event", "nechecb console")
		g.SetTag("Date", s.cfg.Now().Format("2006.01.02"))
		g.SetTag("Black", s.playerName(engine.Black))
		g.SetTag("White", s.playerName(engine.White))
	}
	g.SetTag("Result", result)
	if r.Outcome != engine.Ongoing && g.Comment(s.game.Ply()) == "" {
		g.SetComment(s.game.Ply(), r.String())
	}
	return g
}

func (s *Session) playerName(c engine.Color) string {
	if s.engineOn[c] {
		return "nechecb (" + s.evalSpec() + ")"
	}
	return "human"
}

// gameNumber returns the game whose number in its file is n, or nil.
func gameNumber(games []*pdn.Game, n int) *pdn.Game {
	for _, g := range games {
		if g.Number == n {
			return g
		}
	}
	return nil
}

func (s *Session) cmdLoad(args []string) {
	if len(args) < 1 || len(args) > 2 {
		s.printf("usage: load FILE.pdn [GAME]\n")
		return
	}
	c, err := pdn.ReadCollectionFile(args[0], false)
	if err != nil {
		s.printf("load: %v; the game is unchanged\n", err)
		return
	}
	if len(c.Skipped) > 0 || len(c.UnclaimedDraws()) > 0 {
		c.Report(s.out, "load: ")
	}
	if len(c.Games) == 0 {
		s.printf("load: %s holds no game; the game is unchanged\n", args[0])
		return
	}
	total := len(c.Games) + len(c.Skipped)
	g := c.Games[0]
	if len(args) == 2 {
		n, err := strconv.Atoi(args[1])
		if err != nil || n < 1 || n > total {
			s.printf("load: %s holds games 1 to %d, not %q; the game is unchanged\n", args[0], total, args[1])
			return
		}
		if g = gameNumber(c.Games, n); g == nil {
			s.printf("load: game %d of %s was skipped; the game is unchanged\n", n, args[0])
			return
		}
	}
	n := g.Number
	s.newGame(g.Record.Start())
	s.game = session.GameOf(g.Record)
	s.loaded = g
	s.loadedMoves = append([]engine.Move(nil), g.Record.Moves()...)
	s.printf("loaded game %d of %d from %s: %s (black) vs %s (white), %d moves, result %s\n",
		n, total, args[0], g.Tag("Black"), g.Tag("White"), g.Record.Ply(), g.Result())
	if c := g.Comment(g.Record.Ply()); c != "" {
		s.printf("{%s}\n", c)
	}
	s.showBoard()
}
