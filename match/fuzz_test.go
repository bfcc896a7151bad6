package match

import (
	"strings"
	"testing"

	"github.com/nechecb/nechecb/engine"
)

// FuzzParseEngine: the engine description reader never panics, and what it
// accepts has a command without empty words and a name.
func FuzzParseEngine(f *testing.F) {
	f.Add(`name=A cmd="./nechecb protocol" opts=Eval=neche:x.txt#last;Hash=16 proto=hub dir=/tmp`)
	f.Add(`cmd=x opts=`)
	f.Add(`name="a b" cmd=x`)
	f.Fuzz(func(t *testing.T, text string) {
		c, err := ParseEngine(text)
		if err != nil {
			return
		}
		if len(c.Command) == 0 || c.Name == "" {
			t.Fatalf("accepted %q without command or name: %+v", text, c)
		}
		for _, w := range c.Command {
			if strings.TrimSpace(w) == "" {
				t.Fatalf("accepted %q with an empty command word: %q", text, c.Command)
			}
		}
	})
}

// FuzzReadRecorded: the reader of a match file never panics and never
// claims more bytes than it was given.
func FuzzReadRecorded(f *testing.F) {
	f.Add([]byte("[Event \"m\"]\n[Round \"1\"]\n[Result \"1-0\"]\n\n1. 11-15 1-0\n\n"))
	f.Add([]byte("[Event \"m\"]\n\n1. 11-15 "))
	f.Fuzz(func(t *testing.T, data []byte) {
		games, keep, err := readRecorded(data)
		if err != nil {
			return
		}
		if keep > len(data) || keep < 0 || (keep == 0 && len(games) > 0) {
			t.Fatalf("%d games in %d bytes of %d", len(games), keep, len(data))
		}
	})
}

// FuzzReadFENList: the FEN-list reader never panics; an error names the
// file, and every opening it accepts writes a FEN that reads back to the
// same position.
func FuzzReadFENList(f *testing.F) {
	f.Add("# openings\nB:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12\n\n")
	f.Add("W:WK1:BK32\n")
	f.Add("not a fen\n")
	f.Fuzz(func(t *testing.T, text string) {
		openings, err := ReadFENList(strings.NewReader(text), "list.fen")
		if err != nil {
			if !strings.Contains(err.Error(), "list.fen") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		for _, o := range openings {
			back, err := engine.ParseFEN(o.Position.FEN())
			if err != nil || back != o.Position {
				t.Fatalf("opening %s: FEN %q does not read back (%v)", o.Name, o.Position.FEN(), err)
			}
		}
	})
}
