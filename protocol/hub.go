package protocol

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/internal/player"
	esession "github.com/nechecb/nechecb/internal/session"
	"github.com/nechecb/nechecb/protocol/hubtext"
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

// handleHub runs one command of the Hub dialect.
func (s *Server) handleHub(cmd, line string) {
	_, args, err := hubtext.ParseLine(line)
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
		} else if cmd == "pos" {
			s.noPosition = "pos"
		}
	default:
		s.errorf("unknown command %q", cmd)
	}
}

// hubGameCommand runs the Hub commands that are refused during a search.
func (s *Server) hubGameCommand(cmd string, args hubtext.Args) {
	switch cmd {
	case "init":
		s.ready()
		s.send("ready")
	case "set-param":
		name, value := args.Values["name"], args.Values["value"]
		switch {
		case name == "":
			s.errorf("set-param: no name")
		case strings.EqualFold(name, "variant"):
			if !strings.EqualFold(value, "english") {
				s.errorf("set-param: variant %q is not supported (only english)", value)
			}
		default:
			if err := s.opts.setPending(name, value); err != nil {
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
		if !s.positionMissing() {
			s.hubGo(args)
		}
	}
}

// hubPos reads "pos [pos=<33 chars>] [moves="..."]": pos= in the layout
// of HubPosLayout, the moves in real English numbering. Any error refuses
// the whole command (refusePosition).
func (s *Server) hubPos(args hubtext.Args) {
	start := engine.StartPosition()
	if text, ok := args.Values["pos"]; ok {
		p, crowned, err := hubtext.ParsePosition(text, s.hubLayout)
		if err != nil {
			s.refusePosition("pos", "%v", err)
			return
		}
		for _, sq := range crowned {
			s.note(fmt.Sprintf("pos: the man on square %d stood on its crowning row and is crowned", sq))
		}
		start = p
	}
	rec, err := esession.ParseGame(start, strings.Fields(args.Values["moves"]), hubtext.ParseMove)
	if err != nil {
		s.refusePosition("pos", "%v", err)
		return
	}
	s.setGame(rec)
}

// hubGo reads "go think|ponder|analyze" and starts the search.
func (s *Server) hubGo(args hubtext.Args) {
	mode := "think"
	if len(args.Words) > 0 {
		mode = strings.ToLower(args.Words[0])
	}
	limits := s.level.limits(s.game.Current().Side)
	switch mode {
	case "think":
	case "ponder":
		limits.Ponder = true
	case "analyze":
		limits = player.Limits{Infinite: true}
	default:
		s.errorf("go: %q is not think, ponder or analyze", mode)
		return
	}
	s.startSearch(limits)
}

// parseHubLevel reads the keys of a level command; the new level replaces
// the old one entirely.
func parseHubLevel(args hubtext.Args) (hubLevel, error) {
	var lv hubLevel
	given := false
	for _, w := range args.Words {
		if strings.EqualFold(w, "infinite") {
			lv.infinite, given = true, true
		}
	}
	// seconds reads a duration; negative ones only where negative is true.
	seconds := func(key string, negative bool) (time.Duration, bool, error) {
		v, ok := args.Values[key]
		if !ok {
			return 0, false, nil
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil || f < 0 && !negative || f < -1e6 || f > 1e6 {
			return 0, false, fmt.Errorf("%s=%q is not a number of seconds", key, v)
		}
		return time.Duration(f * float64(time.Second)), true, nil
	}
	whole := func(key string) (int64, bool, error) {
		v, ok := args.Values[key]
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
	if lv.moveTime, ok, err = seconds("move-time", false); err != nil {
		return lv, err
	} else if ok {
		lv.moveTime, given = max(lv.moveTime, time.Millisecond), true
	}
	// pydraughts sends time = clock - increment, below zero when the clock
	// holds less than one increment; limits budgets from time + inc.
	if lv.clock, lv.timed, err = seconds("time", true); err != nil {
		return lv, err
	}
	if lv.inc, _, err = seconds("inc", false); err != nil {
		return lv, err
	}
	if !given && !lv.timed {
		return lv, errors.New("no limit given (depth=, nodes=, move-time=, time= or infinite)")
	}
	return lv, nil
}

// minClock is the least clock a timed level gives the search, when time +
// inc is smaller (or below zero).
const minClock = time.Millisecond

// limits turns the level into search limits for side to move.
func (lv hubLevel) limits(side engine.Color) player.Limits {
	l := player.Limits{Depth: lv.depth, Nodes: lv.nodes, MoveTime: lv.moveTime, MovesToGo: lv.moves, Infinite: lv.infinite}
	if lv.timed {
		t := max(lv.clock+lv.inc, minClock)
		if side == engine.Black {
			l.BTime, l.BInc = t, lv.inc
		} else {
			l.WTime, l.WInc = t, lv.inc
		}
	}
	return l
}

// hubInfo writes a progress report as a Hub info line; the score is in men.
// tbhits appears when an endgame database settled positions.
func hubInfo(i player.Info) string {
	pv := make([]string, len(i.PV))
	for k, m := range i.PV {
		pv[k] = hubtext.Move(m)
	}
	tb := ""
	if i.TBHits > 0 {
		tb = fmt.Sprintf(" tbhits=%d", i.TBHits)
	}
	return fmt.Sprintf("info depth=%d mean-depth=%d score=%s nodes=%d time=%.3f nps=%d%s pv=%s",
		i.Depth, i.SelDepth, hubScore(i.Score), i.Nodes, i.Time.Seconds(), i.NPS, tb, hubtext.Quote(strings.Join(pv, " ")))
}

// hubScore writes a score in men with two decimals; a win in n plies is
// 100 - n/100, as pydraughts reads it.
func hubScore(sc player.Score) string {
	switch {
	case sc.IsWin():
		return fmt.Sprintf("%.2f", float64(10000-sc.Plies())/100)
	case sc.IsLoss():
		return fmt.Sprintf("%.2f", -float64(10000-sc.Plies())/100)
	}
	return fmt.Sprintf("%.2f", float64(sc)/100)
}
