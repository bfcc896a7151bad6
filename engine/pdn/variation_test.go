package pdn

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"math/rand"

	"github.com/nechecb/nechecb/engine"
)

// varSummary is what a round trip must keep of a side line.
type varSummary struct {
	Ply   int
	Moves []string
	Vars  []varSummary
}

func summarizeVars(vars []Variation) []varSummary {
	var out []varSummary
	for _, v := range vars {
		s := varSummary{Ply: v.Ply, Vars: summarizeVars(v.Variations)}
		for _, m := range v.Moves {
			s.Moves = append(s.Moves, m.String())
		}
		out = append(out, s)
	}
	return out
}

// randomVariations returns random side lines for moves, played from start:
// at about one ply in six a line of up to six random legal moves (none at
// times, which the writer writes "()"), with side lines of its own down
// to depth 3.
func randomVariations(rng *rand.Rand, start engine.Position, moves []engine.Move, depth int) []Variation {
	var out []Variation
	pos := start
	for i, m := range moves {
		for depth < 3 && rng.Intn(6) == 0 {
			v := Variation{Ply: i}
			p := pos
			for n := rng.Intn(7); n > 0; n-- {
				legal := p.LegalMoves()
				if len(legal) == 0 {
					break
				}
				v.Moves = append(v.Moves, legal[rng.Intn(len(legal))])
				p = p.Play(v.Moves[len(v.Moves)-1])
			}
			v.Variations = randomVariations(rng, pos, v.Moves, depth+1)
			out = append(out, v)
		}
		pos = pos.Play(m)
	}
	return out
}

// countVariations counts the side lines of games, those nested in another
// and those without moves.
func countVariations(games []*Game) (all, nested, empty int) {
	var walk func(vars []Variation, depth int)
	walk = func(vars []Variation, depth int) {
		for _, v := range vars {
			all++
			if depth > 0 {
				nested++
			}
			if len(v.Moves) == 0 {
				empty++
			}
			walk(v.Variations, depth+1)
		}
	}
	for _, g := range games {
		walk(g.Variations, 0)
	}
	return all, nested, empty
}

// TestReadVariations reads side lines with move numbers, comments (passed
// over), a result token (passed over), an empty one and nested ones, from
// a game that starts with White to move.
func TestReadVariations(t *testing.T) {
	text := `[FEN "W:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29"]
1... 10-7 {main} (1... 10-6 {side} 2. 16-19 (2. 22-26 {deep} 6-2 *) 6-1) ()
(1... 15-11 2. 22x8 (2. 22x6 ) )
2. 16-19 7-3 *`
	games, err := Read(strings.NewReader(text), "v.pdn")
	if err != nil {
		t.Fatal(err)
	}
	want := []varSummary{
		{Ply: 0, Moves: []string{"10-6", "16-19", "6-1"}, Vars: []varSummary{
			{Ply: 1, Moves: []string{"22-26", "6-2"}},
		}},
		{Ply: 0},
		{Ply: 0, Moves: []string{"15-11", "22x15x8"}, Vars: []varSummary{{Ply: 1, Moves: []string{"22x15x6"}}}},
	}
	if diff := cmp.Diff(want, summarizeVars(games[0].Variations)); diff != "" {
		t.Errorf("side lines read (-want +got):\n%s", diff)
	}
	if got := games[0].Comments; !cmp.Equal(got, []string{"", "main"}) {
		t.Errorf("comments %q, want only the main line's", got)
	}
	if got := games[0].Result(); got != "*" {
		t.Errorf("result %q, want * (a side line's result is not the game's)", got)
	}
}

// TestReadCollectionSkipsBadSideLine: a game with an illegal move in a
// side line is left out and named; the games around it are read, side
// lines and all.
func TestReadCollectionSkipsBadSideLine(t *testing.T) {
	text := "1. 11-15 (1. 9-13) *\n\n1. 11-15 23-19 (1... 22-18 2. 15-19) *\n\n1. 9-13 (1. 10-14) 22-18 *\n"
	c, err := ReadCollection(strings.NewReader(text), "c.pdn", false)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Games) != 2 || c.Games[0].Number != 1 || c.Games[1].Number != 3 {
		t.Fatalf("read %d games (%s), want games 1 and 3", len(c.Games), c.Summary())
	}
	for _, g := range c.Games {
		if len(g.Variations) != 1 {
			t.Errorf("game %d has %d side lines, want 1", g.Number, len(g.Variations))
		}
	}
	if len(c.Skipped) != 1 || c.Skipped[0].Game != 2 || c.Skipped[0].Move != "15-19" {
		t.Errorf("skipped %v, want game 2 for its move 15-19", c.Skipped)
	}
}

// FuzzWriteVariations writes a random game with random side lines (the
// seed picks them) and reads it back: the same game, side lines and all.
func FuzzWriteVariations(f *testing.F) {
	f.Add(int64(1), uint8(40))
	f.Add(int64(2), uint8(3))
	f.Fuzz(func(t *testing.T, seed int64, plies uint8) {
		rng := rand.New(rand.NewSource(seed))
		g := randomGame(t, rng, engine.StartPosition(), int(plies))
		g.Variations = randomVariations(rng, g.Record.Start(), g.Record.Moves(), 0)
		text := g.String()
		back, err := Read(strings.NewReader(text), "t.pdn")
		if err != nil {
			t.Fatalf("reading back what was written: %v\n%s", err, text)
		}
		if diff := cmp.Diff(summarize(g), summarize(back[0])); diff != "" {
			t.Errorf("round trip changed the game (-wrote +read):\n%s\n%s", diff, text)
		}
	})
}
