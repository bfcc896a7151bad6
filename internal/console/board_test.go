package console

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/search"
	"github.com/nechecb/nechecb/internal/player"
)

func TestDrawBoardStyles(t *testing.T) {
	pos, err := engine.ParseFEN("W:WK1,22:B9,K32")
	if err != nil {
		t.Fatal(err)
	}
	m, err := pos.ParseMove("22-18")
	if err != nil {
		t.Fatal(err)
	}
	unicode := `    a  b  c  d  e  f  g  h
 8     ⛁     ·     ·     ·  8
 7  ·     ·     ·     ·     7
 6     ⛂     ·     ·     ·  6
 5  ·     ·     ·     ·     5
 4     ·    [·]    ·     ·  4
 3  ·    [⛀]    ·     ·     3
 2     ·     ·     ·     ·  2
 1  ·     ·     ·     ⛃     1
    a  b  c  d  e  f  g  h
`
	if diff := cmp.Diff(unicode, DrawBoard(&pos, &m, Style{})); diff != "" {
		t.Errorf("Unicode board (-want +got):\n%s", diff)
	}
	flipped := `    h  g  f  e  d  c  b  a
 1     B     .     .     .  1
 2  .     .     .     .     2
 3     .     .     w     .  3
 4  .     .     .     .     4
 5     .     .     .     .  5
 6  .     .     .     b     6
 7     .     .     .     .  7
 8  .     .     .     W     8
    h  g  f  e  d  c  b  a
`
	if diff := cmp.Diff(flipped, DrawBoard(&pos, nil, Style{ASCII: true, Flip: true})); diff != "" {
		t.Errorf("flipped ASCII board (-want +got):\n%s", diff)
	}
	colored := DrawBoard(&pos, &m, Style{ASCII: true, Color: true})
	if !strings.Contains(colored, ansiBlack+"b"+ansiReset) || !strings.Contains(colored, ansiWhite+"W"+ansiReset) {
		t.Errorf("coloured board lacks coloured pieces:\n%q", colored)
	}
	if plain := DrawBoard(&pos, &m, Style{ASCII: true}); strings.Contains(plain, "\x1b") {
		t.Errorf("board without colour holds escape sequences:\n%q", plain)
	}
}

func TestSearchEngineAdapter(t *testing.T) {
	e, err := player.Load(player.Options{HashMB: 1, Threads: 1, MultiPV: 1}, "material")
	if err != nil {
		t.Fatal(err)
	}
	// White to move has one man left facing capture; the search must find
	// a legal move and report each depth.
	pos, err := engine.ParseFEN("B:W18:B14,1")
	if err != nil {
		t.Fatal(err)
	}
	depths := 0
	r := e.Search(context.Background(), pos, nil, player.Limits{Depth: 3}, func(player.Info) { depths++ })
	if !r.HasMove || r.Best.String() != "14x23" {
		t.Errorf("best %v (has move %v), want the forced 14x23", r.Best, r.HasMove)
	}
	if got := formatScore(r.Score); got != "win in 1" {
		t.Errorf("score %q, want a win in 1", got)
	}
	if depths == 0 {
		t.Error("no progress reported")
	}
	for _, c := range []struct {
		s    player.Score
		want string
	}{{player.Score(35), "+0.35 men"}, {player.Score(-120), "-1.20 men"}, {player.Score(0), "+0.00 men"},
		{search.WinIn(7), "win in 7"}, {search.LossIn(6), "loss in 6"}} {
		if got := formatScore(c.s); got != c.want {
			t.Errorf("formatScore(%+v) = %q, want %q", c.s, got, c.want)
		}
	}
}
