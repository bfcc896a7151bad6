package match

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/nechecb/nechecb/books"
	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/pdn"
	"github.com/nechecb/nechecb/internal/elo"
	"github.com/nechecb/nechecb/internal/fileio"
	"github.com/nechecb/nechecb/protocol/client"
)

// Engines is the repeatable --engine flag: each value an engine description
// that ParseEngine reads.
type Engines []client.Config

// String counts the engines.
func (e *Engines) String() string { return fmt.Sprint(len(*e), " engines") }

// Set reads one engine description and adds it.
func (e *Engines) Set(s string) error {
	c, err := ParseEngine(s)
	if err != nil {
		return err
	}
	*e = append(*e, c)
	return nil
}

// ParseEngine reads an engine description such as
// `name=A cmd="./nechecb protocol" opts=Eval=neche:x.txt#last;Hash=16 proto=hub dir=/tmp`:
// space-separated key=value pairs, a value in double quotes may hold spaces.
// cmd is split into the program and its arguments at spaces; opts holds
// Name=Value options separated by ';' (opts may be repeated); proto is uci
// (the default) or hub.
func ParseEngine(text string) (client.Config, error) {
	var c client.Config
	fields, err := splitQuoted(text)
	if err != nil {
		return c, fmt.Errorf("engine %q: %w", text, err)
	}
	for _, f := range fields {
		key, value, ok := strings.Cut(f, "=")
		if !ok {
			return c, fmt.Errorf("engine %q: %q is not key=value", text, f)
		}
		switch key {
		case "name":
			c.Name = value
		case "cmd":
			c.Command = strings.Fields(value)
		case "dir":
			c.Dir = value
		case "proto":
			switch value {
			case "uci":
				c.Dialect = client.UCI
			case "hub":
				c.Dialect = client.Hub
			default:
				return c, fmt.Errorf("engine %q: proto %q (want uci or hub)", text, value)
			}
		case "opts":
			for _, o := range strings.Split(value, ";") {
				if o == "" {
					continue
				}
				name, v, ok := strings.Cut(o, "=")
				if !ok || name == "" {
					return c, fmt.Errorf("engine %q: option %q is not Name=Value", text, o)
				}
				c.Options = append(c.Options, client.Option{Name: name, Value: v})
			}
		default:
			return c, fmt.Errorf("engine %q: unknown key %q (want name, cmd, opts, proto, dir)", text, key)
		}
	}
	if len(c.Command) == 0 {
		return c, fmt.Errorf("engine %q: no cmd=", text)
	}
	if c.Name == "" {
		c.Name = filepath.Base(c.Command[0])
	}
	return c, nil
}

// splitQuoted splits at spaces outside double quotes and removes the quotes.
func splitQuoted(s string) ([]string, error) {
	var out []string
	var cur strings.Builder
	inQuote, started := false, false
	for _, r := range s {
		switch {
		case r == '"':
			inQuote = !inQuote
			started = true
		case (r == ' ' || r == '\t') && !inQuote:
			if started {
				out = append(out, cur.String())
				cur.Reset()
				started = false
			}
		default:
			cur.WriteRune(r)
			started = true
		}
	}
	if inQuote {
		return nil, fmt.Errorf("unclosed quote")
	}
	if started {
		out = append(out, cur.String())
	}
	return out, nil
}

// LoadOpenings reads the openings named by spec: "3move" or "2move" (the
// standard ballots), a .pdn file (each game's final position), or any other
// file of FEN lines (blank lines and lines starting with '#' skipped).
// Positions with no legal move are refused. A bad game in a .pdn file is
// skipped and named on report (see pdn.ReadCollection) unless strict is
// set, which refuses the file.
func LoadOpenings(spec string, strict bool, report io.Writer) ([]Opening, error) {
	var out []Opening
	switch {
	case spec == "3move" || spec == "2move":
		ballots, err := books.Standard(spec)
		if err != nil {
			return nil, err
		}
		for _, b := range ballots {
			p, err := b.Position()
			if err != nil {
				return nil, fmt.Errorf("ballot %s: %w", b.Name, err)
			}
			out = append(out, Opening{Name: b.Name, Position: p})
		}
	case strings.EqualFold(filepath.Ext(spec), ".pdn"):
		c, err := pdn.ReadCollectionFile(spec, strict)
		if err != nil {
			return nil, err
		}
		if len(c.Skipped) > 0 || len(c.UnclaimedDraws()) > 0 {
			c.Report(report, "openings: ")
		}
		for _, g := range c.Games {
			name := g.Tag("Opening")
			if name == "" || name == "?" {
				name = fmt.Sprintf("%s#%d", filepath.Base(spec), g.Number)
			}
			out = append(out, Opening{Name: name, Position: g.Record.Current()})
		}
	default:
		var err error
		out, err = fileio.ReadFile(spec, ReadFENList)
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrPermission) {
			return nil, fmt.Errorf("openings %q: not 3move, 2move or a readable file: %w", spec, err)
		}
		if err != nil {
			return nil, err
		}
	}
	for i := range out {
		o := &out[i]
		if len(o.Position.LegalMoves()) == 0 {
			return nil, fmt.Errorf("opening %s (%s): the side to move has no legal move", o.Name, o.Position.FEN())
		}
		o.Position.Reversible = 0
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("openings %q: no positions", spec)
	}
	return out, nil
}

// ParseTimeControl reads "BASE+INC" in seconds, e.g. "10+0.1" or "60".
func ParseTimeControl(s string) (base, inc time.Duration, err error) {
	b, i, hasInc := strings.Cut(s, "+")
	bs, err := strconv.ParseFloat(b, 64)
	if err != nil || bs <= 0 {
		return 0, 0, fmt.Errorf("time control %q: base %q is not a positive number of seconds", s, b)
	}
	var is float64
	if hasInc {
		is, err = strconv.ParseFloat(i, 64)
		if err != nil || is < 0 {
			return 0, 0, fmt.Errorf("time control %q: increment %q is not a number of seconds", s, i)
		}
	}
	return time.Duration(bs * float64(time.Second)), time.Duration(is * float64(time.Second)), nil
}

// ParseSPRT reads "elo0=0 elo1=5 alpha=0.05 beta=0.05" (spaces or commas
// between the pairs; alpha and beta default to 0.05).
func ParseSPRT(s string) (*elo.SPRT, error) {
	t := &elo.SPRT{Alpha: 0.05, Beta: 0.05}
	seen := map[string]bool{}
	for _, f := range strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == ',' }) {
		key, value, ok := strings.Cut(f, "=")
		v, err := strconv.ParseFloat(value, 64)
		if !ok || err != nil {
			return nil, fmt.Errorf("sprt %q: %q is not key=number", s, f)
		}
		switch key {
		case "elo0":
			t.Elo0 = v
		case "elo1":
			t.Elo1 = v
		case "alpha":
			t.Alpha = v
		case "beta":
			t.Beta = v
		default:
			return nil, fmt.Errorf("sprt %q: unknown key %q (want elo0, elo1, alpha, beta)", s, key)
		}
		seen[key] = true
	}
	if !seen["elo0"] || !seen["elo1"] {
		return nil, fmt.Errorf("sprt %q: elo0 and elo1 are required", s)
	}
	return t, t.Validate()
}

// ReadFENList reads openings from a list of FEN positions, one per line;
// blank lines and lines starting with '#' are skipped. Each opening is named
// after the file's base name and its line, and an error names the file and
// the line that does not parse.
func ReadFENList(r io.Reader, name string) ([]Opening, error) {
	var out []Opening
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		text := strings.TrimSpace(sc.Text())
		if text == "" || text[0] == '#' {
			continue
		}
		p, err := engine.ParseFEN(text)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		out = append(out, Opening{Name: fmt.Sprintf("%s:%d", filepath.Base(name), line), Position: p})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return out, nil
}
