package protocol

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nechecb/nechecb/engine"
)

// hubLevel is the time control of Hub's level command; it applies to every
// following go until the next level.
type hubLevel struct {
	depth      int
	nodes      uint64
	moveTime   time.Duration
	clock, inc time.Duration // remaining time before this move's increment
	moves      int
	timed      bool
	infinite   bool
}

// defaultHubLevel applies before the first level command.
var defaultHubLevel = hubLevel{moveTime: time.Second}

// hubArgs are the words of a Hub command: key=value pairs and bare words.
type hubArgs struct {
	values map[string]string
	words  []string
}

// parseHub splits a Hub line into its command and arguments. A value in
// double quotes may hold blanks.
func parseHub(line string) (string, hubArgs, error) {
	args := hubArgs{values: map[string]string{}}
	cmd := ""
	rest := strings.TrimSpace(line)
	for rest != "" {
		end := strings.IndexAny(rest, " \t=")
		if end < 0 {
			end = len(rest)
		}
		key := rest[:end]
		rest = rest[end:]
		value, hasValue := "", strings.HasPrefix(rest, "=")
		if hasValue {
			rest = rest[1:]
			if strings.HasPrefix(rest, `"`) {
				close := strings.IndexByte(rest[1:], '"')
				if close < 0 {
					return "", args, fmt.Errorf("%s: unterminated quoted value", key)
				}
				value, rest = rest[1:close+1], rest[close+2:]
			} else {
				e := strings.IndexAny(rest, " \t")
				if e < 0 {
					e = len(rest)
				}
				value, rest = rest[:e], rest[e:]
			}
		}
		switch {
		case key == "":
			return "", args, errors.New(`"=" without a key`)
		case cmd == "" && hasValue:
			return "", args, fmt.Errorf("%q: a command comes first", key)
		case cmd == "":
			cmd = strings.ToLower(key)
		case hasValue:
			args.values[key] = value
		default:
			args.words = append(args.words, key)
		}
		rest = strings.TrimLeft(rest, " \t")
	}
	return cmd, args, nil
}

// hubQuote writes a value in double quotes, turning any '"' into '\”.
func hubQuote(v string) string { return `"` + strings.ReplaceAll(v, `"`, "'") + `"` }

// hubValue writes a value, quoted only when it needs to be.
func hubValue(v string) string {
	if v == "" || strings.ContainsAny(v, " \t\"=") {
		return hubQuote(v)
	}
	return v
}

// handleHub runs one command of the Hub dialect.
func (s *Server) handleHub(cmd, line string) {
	_, args, err := parseHub(line)
	if err != nil {
		s.errorf("%v", err)
		return
	}
	switch cmd {
	case "ping":
		s.send("pong")
	case "stop":
		s.stopSearch()
	case "ponder-hit":
		s.ponderHit()
	case "init", "set-param", "new-game", "pos", "level", "go":
		if !s.busy() {
			s.hubGameCommand(cmd, args)
		}
	default:
		s.errorf("unknown command %q", cmd)
	}
}

// hubGameCommand runs the Hub commands that are refused during a search.
func (s *Server) hubGameCommand(cmd string, args hubArgs) {
	switch cmd {
	case "init":
		s.applyPending()
		s.send("ready")
	case "set-param":
		name, value := args.values["name"], args.values["value"]
		switch {
		case name == "":
			s.errorf("set-param: no name")
		case strings.EqualFold(name, "variant"):
			if !strings.EqualFold(value, "english") {
				s.errorf("set-param: variant %q is not supported (only english)", value)
			}
		default:
			if err := setSetting(&s.pending, name, value); err != nil {
				s.errorf("set-param: %v", err)
			}
		}
	case "new-game":
		s.newGame()
	case "pos":
		s.hubPos(args)
	case "level":
		lv, err := parseHubLevel(args)
		if err != nil {
			s.errorf("level: %v", err)
			return
		}
		s.level = lv
	case "go":
		s.hubGo(args)
	}
}

// hubPos reads "pos [pos=<33 chars>] [moves="..."]".
func (s *Server) hubPos(args hubArgs) {
	start := engine.StartPosition()
	if text, ok := args.values["pos"]; ok {
		p, err := parseHubPosition(text)
		if err != nil {
			s.errorf("pos: %v", err)
			return
		}
		start = p
	}
	rec, err := newRecord(start, strings.Fields(args.values["moves"]), parseHubMove)
	if err != nil {
		s.errorf("pos: %v", err)
		return
	}
	s.game = rec
}

// hubGo reads "go think|ponder|analyze" and starts the search.
func (s *Server) hubGo(args hubArgs) {
	mode := "think"
	if len(args.words) > 0 {
		mode = strings.ToLower(args.words[0])
	}
	limits := s.level.limits(s.game.current().Side)
	switch mode {
	case "think":
	case "ponder":
		limits.Ponder = true
	case "analyze":
		limits = Limits{Infinite: true}
	default:
		s.errorf("go: %q is not think, ponder or analyze", mode)
		return
	}
	s.startSearch(limits)
}

// parseHubLevel reads the keys of a level command; the new level replaces
// the old one entirely.
func parseHubLevel(args hubArgs) (hubLevel, error) {
	var lv hubLevel
	given := false
	for _, w := range args.words {
		if strings.EqualFold(w, "infinite") {
			lv.infinite, given = true, true
		}
	}
	seconds := func(key string) (time.Duration, bool, error) {
		v, ok := args.values[key]
		if !ok {
			return 0, false, nil
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f < 0 || f > 1e6 {
			return 0, false, fmt.Errorf("%s=%q is not a number of seconds", key, v)
		}
		return time.Duration(f * float64(time.Second)), true, nil
	}
	whole := func(key string) (int64, bool, error) {
		v, ok := args.values[key]
		if !ok {
			return 0, false, nil
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n < 0 {
			return 0, false, fmt.Errorf("%s=%q is not a whole number", key, v)
		}
		return n, true, nil
	}
	var err error
	var ok bool
	var n int64
	if n, ok, err = whole("depth"); err != nil {
		return lv, err
	} else if ok {
		lv.depth, given = max(int(min(n, 1000)), 1), true
	}
	if n, ok, err = whole("nodes"); err != nil {
		return lv, err
	} else if ok {
		lv.nodes, given = uint64(max(n, 1)), true
	}
	if n, ok, err = whole("moves"); err != nil {
		return lv, err
	} else if ok {
		lv.moves = int(min(n, 1000))
	}
	if lv.moveTime, ok, err = seconds("move-time"); err != nil {
		return lv, err
	} else if ok {
		lv.moveTime, given = max(lv.moveTime, time.Millisecond), true
	}
	if lv.clock, lv.timed, err = seconds("time"); err != nil {
		return lv, err
	}
	if lv.inc, _, err = seconds("inc"); err != nil {
		return lv, err
	}
	if !given && !lv.timed {
		return lv, errors.New("no limit given (depth=, nodes=, move-time=, time= or infinite)")
	}
	return lv, nil
}

// limits turns the level into search limits for side to move.
func (lv hubLevel) limits(side engine.Color) Limits {
	l := Limits{Depth: lv.depth, Nodes: lv.nodes, MoveTime: lv.moveTime, MovesToGo: lv.moves, Infinite: lv.infinite}
	if lv.timed {
		t := max(lv.clock+lv.inc, time.Millisecond)
		if side == engine.Black {
			l.BTime, l.BInc = t, lv.inc
		} else {
			l.WTime, l.WInc = t, lv.inc
		}
	}
	return l
}

// parseHubPosition reads Hub's position: W or B for the side to move, then
// one of w b W B e for each square 1..32 in order.
func parseHubPosition(text string) (engine.Position, error) {
	if len(text) != 33 {
		return engine.Position{}, fmt.Errorf("%q has %d characters, want 33 (W or B, then one of w b W B e per square)", text, len(text))
	}
	var white, black []string
	for i := 1; i <= 32; i++ {
		sq := strconv.Itoa(i)
		switch text[i] {
		case 'w':
			white = append(white, sq)
		case 'W':
			white = append(white, "K"+sq)
		case 'b':
			black = append(black, sq)
		case 'B':
			black = append(black, "K"+sq)
		case 'e':
		default:
			return engine.Position{}, fmt.Errorf("square %d is %q, not one of w b W B e", i, text[i])
		}
	}
	if text[0] != 'W' && text[0] != 'B' {
		return engine.Position{}, fmt.Errorf("side to move is %q, not W or B", text[0])
	}
	fen := string(text[0]) + ":W" + strings.Join(white, ",") + ":B" + strings.Join(black, ",")
	return engine.ParseFEN(fen)
}

// hubPosition writes p in Hub's format.
func hubPosition(p *engine.Position) string {
	glyph := map[engine.Piece]byte{engine.Empty: 'e', engine.BlackMan: 'b', engine.WhiteMan: 'w', engine.BlackKing: 'B', engine.WhiteKing: 'W'}
	b := []byte{'B'}
	if p.Side == engine.White {
		b[0] = 'W'
	}
	for sq := 1; sq <= 32; sq++ {
		b = append(b, glyph[p.PieceAt(sq)])
	}
	return string(b)
}

// hubMove writes m the Hub way: "11-15", or from x to x the captured
// squares in increasing order.
func hubMove(m engine.Move) string {
	if !m.IsCapture() {
		return fmt.Sprintf("%d-%d", m.FromSquare(), m.ToSquare())
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%dx%d", m.FromSquare(), m.ToSquare())
	for _, sq := range engine.Squares(m.Captured) {
		fmt.Fprintf(&b, "x%d", sq)
	}
	return b.String()
}

// parseHubMove reads a move in Hub's form (from x to x captured...), and
// failing that in any form engine.ParseMove reads.
func parseHubMove(p *engine.Position, text string) (engine.Move, error) {
	parts := strings.FieldsFunc(text, func(r rune) bool { return r == 'x' || r == 'X' || r == '-' })
	if len(parts) >= 3 {
		sq := make([]int, len(parts))
		var captured uint64
		ok := true
		for i, part := range parts {
			n, err := strconv.Atoi(part)
			if err != nil || engine.SquareBit(n) == 0 {
				ok = false
				break
			}
			sq[i] = n
			if i >= 2 {
				captured |= engine.SquareBit(n)
			}
		}
		var l engine.MoveList
		p.Generate(&l)
		for _, m := range l.Slice() {
			if ok && m.FromSquare() == sq[0] && m.ToSquare() == sq[1] && m.Captured == captured {
				return m, nil
			}
		}
	}
	return p.ParseMove(text)
}

// hubInfo writes a progress report as a Hub info line; the score is in men.
func hubInfo(i Info) string {
	pv := make([]string, len(i.PV))
	for k, m := range i.PV {
		pv[k] = hubMove(m)
	}
	return fmt.Sprintf("info depth=%d mean-depth=%d score=%s nodes=%d time=%.3f nps=%d pv=%s",
		i.Depth, i.SelDepth, hubScore(i.Score), i.Nodes, i.Time.Seconds(), i.NPS, hubQuote(strings.Join(pv, " ")))
}

// hubScore writes a score in men with two decimals; a win in n plies is
// 100 - n/100, as pydraughts reads it.
func hubScore(sc Score) string {
	switch {
	case sc.IsWin():
		return fmt.Sprintf("%.2f", float64(10000-sc.Plies())/100)
	case sc.IsLoss():
		return fmt.Sprintf("%.2f", -float64(10000-sc.Plies())/100)
	}
	return fmt.Sprintf("%.2f", float64(sc)/100)
}
