package match

import (
	"fmt"
	"hash/fnv"
	"strings"
	"unicode"

	"github.com/nechecb/nechecb/engine/pdn"
	"github.com/nechecb/nechecb/protocol/client"
)

// setting is one match setting that a resumed match must keep. Every
// recorded game carries it as a PDN tag, so that --resume can compare.
type setting struct {
	// tag is the PDN tag's name, what names the setting in messages.
	tag, what string
	// value is the setting as the tag holds it (already a clean tag value).
	value string
}

// settings lists what decides how the match's games are played and which
// games the schedule holds: the time control, the rules and adjudication,
// the openings, the pairing scheme and order, and every engine's command
// and options. The number of rounds or games, the concurrency, the timeout,
// the SPRT and the Event tag may change between runs.
func (c *Config) settings() []setting {
	l := c.Limits
	var limits string
	switch {
	case l.Depth > 0:
		limits = fmt.Sprintf("depth %d", l.Depth)
	case l.Nodes > 0:
		limits = fmt.Sprintf("nodes %d", l.Nodes)
	case l.MoveTime > 0:
		limits = fmt.Sprintf("movetime %v", l.MoveTime)
	default:
		limits = fmt.Sprintf("clock %v+%v", l.Base, l.Inc)
	}
	if l.Margin > 0 {
		limits += fmt.Sprintf(", margin %v", l.Margin)
	}
	rules := fmt.Sprintf("maxmoves %d", c.MaxMoves)
	if a := c.Adjudication; a.ScoreMoves > 0 {
		rules += fmt.Sprintf(", score %d for %d moves", a.Score, a.ScoreMoves)
	}
	if c.Adjudication.Claims {
		rules += ", claims"
	}
	h := fnv.New64a()
	for _, o := range c.Openings {
		fmt.Fprintf(h, "%s\n%s\n", o.Name, o.Position.FEN())
	}
	scheme := "round-robin"
	if c.Gauntlet {
		scheme = "gauntlet"
	}
	scheme = fmt.Sprintf("%s of %d engines, openings in order", scheme, len(c.Engines))
	if c.Random {
		scheme = strings.Replace(scheme, "in order", fmt.Sprintf("shuffled with seed %d", c.Seed), 1)
	}
	out := []setting{
		{"MatchLimits", "time control", limits},
		{"MatchRules", "rules", rules},
		{"MatchOpenings", "openings", fmt.Sprintf("%d positions, hash %016x", len(c.Openings), h.Sum64())},
		{"MatchSchedule", "schedule", scheme},
	}
	for i, e := range c.Engines {
		out = append(out, setting{fmt.Sprintf("MatchEngine%d", i+1), fmt.Sprintf("engine %d", i+1), engineText(e)})
	}
	for i := range out {
		out[i].value = tagValue(out[i].value)
	}
	return out
}

// engineText writes an engine the way --engine describes it.
func engineText(e client.Config) string {
	var opts []string
	for _, o := range e.Options {
		opts = append(opts, o.Name+"="+o.Value)
	}
	s := fmt.Sprintf("name=%s cmd='%s' opts=%s proto=%s", e.Name, strings.Join(e.Command, " "), strings.Join(opts, ";"), e.Dialect)
	if e.Dir != "" {
		s += " dir=" + e.Dir
	}
	return s
}

// checkSettings compares the settings recorded in game g (the match's game
// number round) with this run's. Settings the game does not record (a file
// written before they were) are not compared. A different number of
// engines shows in the schedule.
func checkSettings(g *pdn.Game, round int, now []setting) error {
	for _, s := range now {
		if was := g.Tag(s.tag); was != "" && was != s.value {
			return fmt.Errorf("game %d was played with %s %q, this run has %q; resume with the same settings, or record this match in another file",
				round, s.what, was, s.value)
		}
	}
	return nil
}

// maxTagValue is the longest tag value written, in bytes: the tail of an
// engine's stderr in a Termination tag can run to kilobytes.
const maxTagValue = 240

// tagValue makes s safe as a PDN tag value for CheckerBoard, whose tag
// reader ends a value at the first '"' or ']' whether escaped or not:
// double quotes become single ones, backslashes slashes, brackets
// parentheses, control characters spaces; runs of blanks shrink to one,
// and a value longer than maxTagValue bytes is cut with "...".
func tagValue(s string) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '"':
			return '\''
		case r == '\\':
			return '/'
		case r == '[':
			return '('
		case r == ']':
			return ')'
		case unicode.IsControl(r) || unicode.IsSpace(r):
			return ' '
		}
		return r
	}, s)
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > maxTagValue {
		cut := maxTagValue - 3
		for cut > 0 && !utf8Start(s[cut]) {
			cut--
		}
		s = s[:cut] + "..."
	}
	return s
}

// utf8Start reports whether b starts a UTF-8 character.
func utf8Start(b byte) bool { return b&0xc0 != 0x80 }
