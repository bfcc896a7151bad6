package match

import (
	"strings"
	"testing"
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
