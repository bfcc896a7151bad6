package protocol

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nechecb/nechecb/eval/all"
	"github.com/nechecb/nechecb/protocol/hubtext"
)

// Settings holds the value of every engine option. The server keeps two:
// the one in force and the pending one that setoption changes; isready
// (Hub: init) or the next go applies the pending one.
type Settings struct {
	Hash         int // MB
	Threads      int
	MultiPV      int
	Ponder       bool
	MoveOverhead int // milliseconds
	Book         int // 0 none .. 3 best only
	BookFile     string
	Eval         string
	RandomTies   bool
	Seed         int
	LogFile      string
	LogLevel     string
	DBPath       string
}

// DefaultSettings returns the options' defaults.
func DefaultSettings() Settings {
	return Settings{
		Hash: 64, Threads: 1, MultiPV: 1, MoveOverhead: 30,
		Eval: all.DefaultSpec, LogLevel: "warn",
	}
}

// searchOptions extracts what the searcher needs.
func (s Settings) searchOptions() SearchOptions {
	return SearchOptions{
		HashMB: s.Hash, Threads: s.Threads, MultiPV: s.MultiPV,
		MoveOverhead: time.Duration(s.MoveOverhead) * time.Millisecond,
		RandomTies:   s.RandomTies, Seed: uint64(s.Seed),
	}
}

// optionKind is the UCI type of an option.
type optionKind int

const (
	kindCheck optionKind = iota
	kindSpin
	kindCombo
	kindString
)

// uciType and hubType name a kind in each dialect.
var (
	uciType = [...]string{"check", "spin", "combo", "string"}
	hubType = [...]string{"bool", "int", "enum", "string"}
)

// option describes one engine option and binds it to its Settings field.
type option struct {
	name     string
	kind     optionKind
	min, max int      // spin
	vars     []string // combo
	// get writes the field's value as text; set checks text and stores it.
	get func(*Settings) string
	set func(*Settings, string) error
}

// emptyString is how UCI writes an empty string value.
const emptyString = "<empty>"

func spinOption(name string, lo, hi int, field func(*Settings) *int) option {
	return option{name: name, kind: kindSpin, min: lo, max: hi,
		get: func(s *Settings) string { return strconv.Itoa(*field(s)) },
		set: func(s *Settings, v string) error {
			n, err := strconv.Atoi(v)
			if err != nil {
				return fmt.Errorf("%q is not a whole number", v)
			}
			if n < lo || n > hi {
				return fmt.Errorf("%d is outside %d..%d", n, lo, hi)
			}
			*field(s) = n
			return nil
		}}
}

func checkOption(name string, field func(*Settings) *bool) option {
	return option{name: name, kind: kindCheck,
		get: func(s *Settings) string { return strconv.FormatBool(*field(s)) },
		set: func(s *Settings, v string) error {
			switch strings.ToLower(v) {
			case "true":
				*field(s) = true
			case "false":
				*field(s) = false
			default:
				return fmt.Errorf("%q is not true or false", v)
			}
			return nil
		}}
}

func comboOption(name string, vars []string, field func(*Settings) *string) option {
	return option{name: name, kind: kindCombo, vars: vars,
		get: func(s *Settings) string { return *field(s) },
		set: func(s *Settings, v string) error {
			for _, c := range vars {
				if strings.EqualFold(c, v) {
					*field(s) = c
					return nil
				}
			}
			return fmt.Errorf("%q is not one of %s", v, strings.Join(vars, ", "))
		}}
}

func stringOption(name string, field func(*Settings) *string) option {
	return option{name: name, kind: kindString,
		get: func(s *Settings) string { return *field(s) },
		set: func(s *Settings, v string) error {
			if v == emptyString {
				v = ""
			}
			*field(s) = v
			return nil
		}}
}

// logLevels are the LogLevel values, quietest last.
var logLevels = []string{"debug", "info", "warn", "error", "off"}

// options lists every option in the order the handshake announces them.
var options = []option{
	spinOption("Hash", 1, 4096, func(s *Settings) *int { return &s.Hash }),
	spinOption("Threads", 1, 256, func(s *Settings) *int { return &s.Threads }),
	spinOption("MultiPV", 1, 64, func(s *Settings) *int { return &s.MultiPV }),
	checkOption("Ponder", func(s *Settings) *bool { return &s.Ponder }),
	spinOption("MoveOverhead", 0, 5000, func(s *Settings) *int { return &s.MoveOverhead }),
	spinOption("Book", 0, 3, func(s *Settings) *int { return &s.Book }),
	stringOption("BookFile", func(s *Settings) *string { return &s.BookFile }),
	stringOption("Eval", func(s *Settings) *string { return &s.Eval }),
	checkOption("RandomTies", func(s *Settings) *bool { return &s.RandomTies }),
	spinOption("Seed", 0, 1<<31-1, func(s *Settings) *int { return &s.Seed }),
	stringOption("LogFile", func(s *Settings) *string { return &s.LogFile }),
	comboOption("LogLevel", logLevels, func(s *Settings) *string { return &s.LogLevel }),
	stringOption("DBPath", func(s *Settings) *string { return &s.DBPath }),
}

// findOption looks an option up by name, ignoring case.
func findOption(name string) (*option, error) {
	for i := range options {
		if strings.EqualFold(options[i].name, name) {
			return &options[i], nil
		}
	}
	names := make([]string, len(options))
	for i, o := range options {
		names[i] = o.name
	}
	return nil, fmt.Errorf("unknown option %q (known: %s)", name, strings.Join(names, ", "))
}

// setSetting checks value for the option called name and stores it in s.
func setSetting(s *Settings, name, value string) error {
	o, err := findOption(name)
	if err != nil {
		return err
	}
	if err := o.set(s, strings.TrimSpace(value)); err != nil {
		return fmt.Errorf("option %s: %v", o.name, err)
	}
	return nil
}

// uciLine writes the option's line of the UCI handshake.
func (o *option) uciLine(def *Settings) string {
	v := o.get(def)
	if v == "" {
		v = emptyString
	}
	line := fmt.Sprintf("option name %s type %s default %s", o.name, uciType[o.kind], v)
	switch o.kind {
	case kindSpin:
		line += fmt.Sprintf(" min %d max %d", o.min, o.max)
	case kindCombo:
		for _, c := range o.vars {
			line += " var " + c
		}
	}
	return line
}

// hubLine writes the option's param line of the Hub handshake.
func (o *option) hubLine(def *Settings) string {
	line := fmt.Sprintf("param name=%s value=%s type=%s", o.name, hubtext.Value(o.get(def)), hubType[o.kind])
	switch o.kind {
	case kindSpin:
		line += fmt.Sprintf(" min=%d max=%d", o.min, o.max)
	case kindCombo:
		line += " values=" + hubtext.Value(strings.Join(o.vars, " "))
	}
	return line
}
