package pdn

import (
	"errors"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/nechecb/nechecb/engine"
)

// summary is what a PDN round trip must keep.
type summary struct {
	Tags     []Tag
	Start    string
	Moves    []string
	Comments []string
	Result   string
	Vars     []varSummary
}

func summarize(g *Game) summary {
	start := g.Record.Start()
	s := summary{Tags: g.Tags, Start: start.FEN(), Result: g.Result(), Vars: summarizeVars(g.Variations)}
	for _, m := range g.Record.Moves() {
		s.Moves = append(s.Moves, m.String())
	}
	s.Comments = append(s.Comments, g.Comments...)
	for len(s.Comments) > 0 && s.Comments[len(s.Comments)-1] == "" {
		s.Comments = s.Comments[:len(s.Comments)-1]
	}
	if len(s.Comments) == 0 {
		s.Comments = nil
	}
	return s
}

func summarizeAll(games []*Game) []summary {
	out := make([]summary, len(games))
	for i, g := range games {
		out[i] = summarize(g)
	}
	return out
}

// randomGame plays random legal moves from start until the game ends or
// maxPlies moves have been played, commenting some of them.
func randomGame(t *testing.T, rng *rand.Rand, start engine.Position, maxPlies int) *Game {
	t.Helper()
	g := New(start)
	for g.Record.Ply() < maxPlies && g.Record.Result().Outcome == engine.Ongoing {
		cur := g.Record.Current()
		moves := cur.LegalMoves()
		if err := g.Record.Play(moves[rng.Intn(len(moves))]); err != nil {
			t.Fatal(err)
		}
		if rng.Intn(5) == 0 {
			g.SetComment(g.Record.Ply(), "depth 9  score +0.12\n\tpv 11-15 23-19")
		}
	}
	g.SetTag("Result", g.Record.Result().PDN())
	return g
}

func TestRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	fenStart, err := engine.ParseFEN("W:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29")
	if err != nil {
		t.Fatal(err)
	}
	var games []*Game
	for i := 0; i < 20; i++ {
		start := engine.StartPosition()
		if i%4 == 3 {
			start = fenStart
		}
		g := randomGame(t, rng, start, 300)
		g.SetTag("Event", `Test "round trip" \ match`)
		g.SetTag("Date", "2026.11.21")
		g.SetTag("Black", "nechecb material")
		g.SetTag("White", "nechecb heuristic")
		g.SetTag("Round", "7")
		g.SetTag("Opening", "11-15 23-19")
		g.SetComment(0, "opening chosen at random")
		g.Variations = randomVariations(rng, start, g.Record.Moves(), 0)
		games = append(games, g)
	}
	if all, nested, empty := countVariations(games); nested == 0 || empty == 0 {
		t.Fatalf("the random games have %d side lines, %d nested and %d empty: want some of each", all, nested, empty)
	}
	var b strings.Builder
	if err := WriteAll(&b, games); err != nil {
		t.Fatal(err)
	}
	back, err := Read(strings.NewReader(b.String()), "t.pdn")
	if err != nil {
		t.Fatalf("reading back: %v\n%s", err, b.String())
	}
	if diff := cmp.Diff(summarizeAll(games), summarizeAll(back)); diff != "" {
		t.Errorf("round trip changed the games (-wrote +read):\n%s", diff)
	}
	// Writing what was read gives the same text again.
	var again strings.Builder
	WriteAll(&again, back)
	if diff := cmp.Diff(b.String(), again.String()); diff != "" {
		t.Errorf("second write differs:\n%s", diff)
	}
}

func TestWriteCheckerBoardLayout(t *testing.T) {
	g := New(engine.StartPosition())
	for _, mv := range []string{"11-15", "24-19", "15x24", "28x19", "8-11", "22-18"} {
		if _, err := g.Record.PlayText(mv); err != nil {
			t.Fatal(err)
		}
	}
	g.SetTag("Event", "casual")
	g.SetTag("Black", "me")
	g.SetTag("Site", "here")
	g.SetComment(6, "even")
	want := `[Event "casual"]
[Date "?"]
[Black "me"]
[White "?"]
[Result "*"]
[GameType "21"]
[Site "here"]

1. 11-15 24-19 2. 15x24 28x19 3. 8-11 22-18 {even} *

`
	if diff := cmp.Diff(want, g.String()); diff != "" {
		t.Errorf("PDN text (-want +got):\n%s", diff)
	}
}

func TestWriteFENStartAndShortCaptures(t *testing.T) {
	// White to move: the king on 27 must take 23 and 15.
	start, err := engine.ParseFEN("W:WK27:B1,15,23")
	if err != nil {
		t.Fatal(err)
	}
	g := New(start)
	if _, err := g.Record.PlayText("27x18x11"); err != nil {
		t.Fatal(err)
	}
	g.SetTag("Result", g.Record.Result().PDN())
	text := g.String()
	for _, want := range []string{`[FEN "W:WK27:B1,15,23"]`, "1... 27x11", "[Result \"*\"]"} {
		if !strings.Contains(text, want) {
			t.Errorf("missing %q in:\n%s", want, text)
		}
	}
}

const sampleFile = `[Event "Sample one"]
[Black "A"]
[White "B"]
[Result "1-0"]
[Date "2026.01.02"]
[Annotator "someone"]

{A short game.} 1. 11-15 24-19 2. 15x24 28x19 3. 8-11 22-18 4. 9-13 18-14 {gives
a   man} (4... 19-16 {also} 5. 12x19 (5... 11x20))
(4... 25-22 5. 10-14 1/2-1/2) 4... 10x17 21x14 5. 6-10 $1 25-21 6.10x17 21-14!? 1-0

[Event "Sample two"]
[FEN "B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29."]
[GameType "21,W,8,8,A0,0"]
1.22-26 15-19 *
12-16 *
`

func TestReadSample(t *testing.T) {
	games, err := Read(strings.NewReader(sampleFile), "t.pdn")
	if err != nil {
		t.Fatal(err)
	}
	got := summarizeAll(games)
	start2, _ := engine.ParseFEN("B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29")
	want := []summary{{
		Tags: []Tag{{"Event", "Sample one"}, {"Date", "2026.01.02"}, {"Black", "A"}, {"White", "B"},
			{"Result", "1-0"}, {"Annotator", "someone"}},
		Start: engine.StartFEN,
		Moves: []string{"11-15", "24-19", "15x24", "28x19", "8-11", "22-18", "9-13", "18-14", "10x17",
			"21x14", "6-10", "25-21", "10x17", "21x14"},
		Comments: []string{"A short game.", "", "", "", "", "", "", "", "gives a man"},
		Result:   "1-0",
		Vars: []varSummary{
			{Ply: 7, Moves: []string{"19-16", "12x19"}, Vars: []varSummary{{Ply: 1, Moves: []string{"11x20"}}}},
			{Ply: 7, Moves: []string{"25-22", "10-14"}},
		},
	}, {
		Tags:   []Tag{{"Event", "Sample two"}, {"Date", "?"}, {"Black", "?"}, {"White", "?"}, {"Result", "*"}},
		Start:  start2.FEN(),
		Moves:  []string{"22-26", "15-19"},
		Result: "*",
	}, {
		Tags:   []Tag{{"Event", "?"}, {"Date", "?"}, {"Black", "?"}, {"White", "?"}, {"Result", "*"}},
		Start:  engine.StartFEN,
		Moves:  []string{"12-16"},
		Result: "*",
	}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("games read (-want +got):\n%s", diff)
	}
}

func TestReadErrors(t *testing.T) {
	cases := []struct {
		name, text string
		want       Error // Err is compared by its text in wantErr
		wantErr    string
	}{
		{"illegal move", "[Event \"x\"]\n\n1. 11-15 23-19 2. 8-11\n22-15 *",
			Error{Game: 1, Line: 4, MoveNumber: 2, Side: engine.White, Move: "22-15"}, "illegal move"},
		{"second game", "1. 11-15 *\n\n[Event \"y\"]\n1. 11-15 24-19 2. 15x24 28x19 3. 10x19 *",
			Error{Game: 2, Line: 4, MoveNumber: 3, Side: engine.Black, Move: "10x19"}, "illegal move"},
		{"capture not taken", "1. 11-15 24-19 2. 9-13 *",
			Error{Game: 1, Line: 1, MoveNumber: 2, Side: engine.Black, Move: "9-13"}, "legal moves: 15x24"},
		{"junk", "1. 11-15 hello *", Error{Game: 1, Line: 1, MoveNumber: 1, Side: engine.White, Move: "hello"}, "malformed move"},
		{"not a move", "1. 11-15 zz *", Error{Game: 1, Line: 1, MoveNumber: 1, Side: engine.White, Move: "zz"}, "not a move"},
		{"bad FEN", "[FEN \"B:W40:B1\"]\n1. 1-5 *", Error{Game: 1, Line: 2}, "FEN tag"},
		{"other game type", "[GameType \"20\"]\n1. 11-15 *", Error{Game: 1, Line: 2}, "not English draughts"},
		{"bad result tag", "[Result \"2-0\"]", Error{Game: 1, Line: 1}, "Result tag"},
		{"open comment", "1. 11-15 {never\nclosed", Error{Game: 1, Line: 1}, "never closed"},
		{"open variation", "1. 11-15 (1. 10-14", Error{Game: 1, Line: 1}, "never closed"},
		{"open quote", "[Event \"x]\n", Error{Game: 1, Line: 1}, "closing quote"},
		{"duplicate tag", "[Event \"x\"]\n[event \"y\"]\n", Error{Game: 1, Line: 2}, "given twice"},
		{"stray bracket", "1. 11-15 ) *", Error{Game: 1, Line: 1}, "unexpected"},
		{"only tags", "1. 11-15 *\n\n[Event \"cut\"]\n[Black \"x\"]\n", Error{Game: 2, Line: 3}, "no moves and no result"},
		// A bad move in a side line, nested or not, is named as in the main
		// line; so are a side line before any move, one never closed and one
		// nested too deep.
		{"illegal in side line", "[Event \"x\"]\n1. 11-15 23-19\n(1... 22-18 2. 15-19) 2. 8-11 *",
			Error{Game: 1, Line: 3, MoveNumber: 2, Side: engine.Black, Move: "15-19"}, "side line opened on line 3: illegal move"},
		{"nested", "1. 11-15 *\n1. 11-15 (1. 9-13 22-18\n(1... 24-20 2. 9-14)) *",
			Error{Game: 2, Line: 3, MoveNumber: 2, Side: engine.Black, Move: "9-14"}, "illegal move"},
		{"not a move in a side line", "1. 11-15 (1. 9-13 see game 2) *",
			Error{Game: 1, Line: 1, MoveNumber: 1, Side: engine.White, Move: "see"}, "not a move"},
		{"before any move", "(1. 9-13) 1. 11-15 *", Error{Game: 1, Line: 1}, "must follow the move"},
		{"open nested", "1. 11-15 (1. 9-13 22-18\n(1... 24-20 2. 10-14) *", Error{Game: 1, Line: 1}, "never closed"},
		{"too deep", "1. 11-15" + strings.Repeat(" (1. 9-13", maxDepth+1) + strings.Repeat(")", maxDepth+1) + " *", Error{Game: 1, Line: 1}, "nest more than"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Read(strings.NewReader(c.text), "t.pdn")
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("error %v, want a *pdn.Error", err)
			}
			got := *pe
			if got.File != "t.pdn" {
				t.Errorf("error names the file %q, want t.pdn", got.File)
			}
			got.Err, got.File = nil, ""
			if diff := cmp.Diff(c.want, got); diff != "" {
				t.Errorf("%v\n(-want +got):\n%s", err, diff)
			}
			if !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("error %q does not say %q", err, c.wantErr)
			}
		})
	}
}

func TestErrorNamesGameMoveAndText(t *testing.T) {
	_, err := Read(strings.NewReader("[Event \"a\"]\n1. 11-15 *\n[Event \"b\"]\n1. 11-15 23-19 2. 8-12 *"), "t.pdn")
	want := `t.pdn:4: game 2: move 2 (black) "8-12": illegal move "8-12"; legal moves:`
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %v, want it to start with %q", err, want)
	}
	_, err = Read(strings.NewReader("1. 11-15 *\n1. 9-14 22-18 23-19 *"), "")
	if want := `pdn: game 2, line 2: move 2 (black) "23-19"`; err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("with no file name: error %v, want it to start with %q", err, want)
	}
}

func TestWriteFileIsAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "games.pdn")
	g := New(engine.StartPosition())
	g.Record.PlayText("11-15")
	if err := WriteFile(path, g, g); err != nil {
		t.Fatal(err)
	}
	back, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(summarizeAll([]*Game{g, g}), summarizeAll(back)); diff != "" {
		t.Errorf("(-wrote +read):\n%s", diff)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("directory holds %d files after the write, want 1", len(entries))
	}
	if err := WriteFile(filepath.Join(dir, "missing", "x.pdn"), g); err == nil {
		t.Error("writing into a missing directory did not fail")
	}
}

func TestMoveNumber(t *testing.T) {
	type nc struct {
		N    int
		Side engine.Color
	}
	var got []nc
	for i := 0; i < 4; i++ {
		n, s := MoveNumber(engine.White, i)
		got = append(got, nc{n, s})
	}
	want := []nc{{1, engine.White}, {2, engine.Black}, {2, engine.White}, {3, engine.Black}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Error(diff)
	}
}

func FuzzRead(f *testing.F) {
	f.Add(sampleFile)
	f.Add("1. 11-15 23-19 {x} 2. 8-11 *")
	f.Add("[FEN \"W:WK27:B23,16,8\"]\n1... 27x11 0-1")
	f.Add("[Event \"a\\\"b\"]\n{c} (1. 9-13 {d}) 1. c3d4 1/2-1/2 [Black \"z\"]")
	f.Add("1. 11-15 (1. 9-13 {d} 22-18 (2... 24-20 ()) 1-0) () 23-19 (1... 22-18 * (1... 24-19)) 2. 8-11 *")
	f.Add("1. 11-15 (1. 9-14 22-17 (2... 23-18 3. 14x23) (2... 22-18)) 23-19 *")
	f.Fuzz(func(t *testing.T, text string) {
		games, err := Read(strings.NewReader(text), "t.pdn")
		if err != nil {
			return
		}
		var b strings.Builder
		if err := WriteAll(&b, games); err != nil {
			t.Fatal(err)
		}
		back, err := Read(strings.NewReader(b.String()), "t.pdn")
		if err != nil {
			t.Fatalf("reading back what was written: %v\n%s", err, b.String())
		}
		if diff := cmp.Diff(summarizeAll(games), summarizeAll(back)); diff != "" {
			t.Errorf("round trip changed the games (-first +second):\n%s\n%s", diff, b.String())
		}
	})
}

// TestWriteVariations writes side lines in parentheses after the move each
// replaces, nested ones inside, with White's moves numbered after a side
// line; reading the text back gives the same tree.
func TestWriteVariations(t *testing.T) {
	g := New(engine.StartPosition())
	for _, s := range []string{"11-15", "23-19", "8-11", "22-17"} {
		if _, err := g.Record.PlayText(s); err != nil {
			t.Fatal(err)
		}
	}
	line := func(pos engine.Position, texts ...string) []engine.Move {
		var out []engine.Move
		for _, s := range texts {
			m, err := pos.ParseMove(s)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, m)
			pos = pos.Play(m)
		}
		return out
	}
	after1 := g.Record.Positions()[1]
	side := line(after1, "22-18", "15x22", "25x18")
	afterSide2 := after1.Play(side[0])
	afterSide2 = afterSide2.Play(side[1])
	g.Variations = []Variation{{Ply: 1, Moves: side, Variations: []Variation{
		{Ply: 2, Moves: line(afterSide2, "26x17")},
	}}, {Ply: 1, Moves: line(after1, "24-20")}}
	got := g.String()
	want := "1. 11-15 23-19 (1... 22-18 2. 15x22 25x18 (2... 26x17)) (1... 24-20) 2. 8-11\n22-17 *\n\n"
	if !strings.HasSuffix(got, want) {
		t.Errorf("move text:\n%s\nwant it to end with:\n%s", got, want)
	}
	back, err := Read(strings.NewReader(got), "t.pdn")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(summarize(g), summarize(back[0])); diff != "" {
		t.Errorf("reading back (-written +read):\n%s", diff)
	}
}
