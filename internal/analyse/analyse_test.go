package analyse

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/nechecb/nechecb/engine/pdn"
	"github.com/nechecb/nechecb/internal/badinput"
)

// tinsley is ten games of Marion Tinsley's from 1946 (testdata/SOURCES.md).
const tinsley = "../../testdata/tinsley1946.pdn"

// quick are the options of a fast run on in (depth 3), written into a
// test folder.
func quick(t *testing.T, in string) Options {
	t.Helper()
	return Options{In: in, Out: filepath.Join(t.TempDir(), "out.pdn"), Depth: 3, Annotator: "nechecb test", Stderr: &strings.Builder{}}
}

// moveScore is the start of the comment the analysis puts after a move.
var moveScore = regexp.MustCompile(`^([+-]\d+\.\d\d/\d+|(Black|White) wins( in \d+| \(db\))?|draw)(; |$)`)

// summaryCounts reads the marks of each side from a game's summary.
var summaryCounts = regexp.MustCompile(`(Black|White) (\d+) blunders? \(\?\?\), (\d+) mistakes? \(\?\), (\d+) inaccurac(?:y|ies) \(\?!\)`)

// TestAnalyseTinsley analyses ten real games and reads the output back with
// the project's reader: the same games, each move with its score, each
// marked move with the best line as a side line starting with another
// move, and a summary that counts the marks.
func TestAnalyseTinsley(t *testing.T) {
	o := quick(t, tinsley)
	if err := Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	in, err := pdn.ReadFile(tinsley)
	if err != nil {
		t.Fatal(err)
	}
	out, err := pdn.ReadFile(o.Out) // all or nothing
	if err != nil {
		t.Fatalf("reading the output back: %v", err)
	}
	if len(out) != len(in) {
		t.Fatalf("%d games written, want %d", len(out), len(in))
	}
	text, _ := os.ReadFile(o.Out)
	checkCheckerBoardText(t, string(text))
	marked := 0
	for i, g := range out {
		checkGame(t, in[i], g)
		marked += len(g.Variations)
	}
	if marked == 0 {
		t.Error("no move of ten games marked at depth 3")
	}
	if s := o.Stderr.(*strings.Builder).String(); !strings.Contains(s, "10 games written") || !strings.Contains(s, "582/582 positions") {
		t.Errorf("stderr:\n%s", s)
	}
}

// checkGame checks an analysed game against the game it was made from.
func checkGame(t *testing.T, in, g *pdn.Game) {
	t.Helper()
	if !sameGame(in.Record, g.Record) || g.Tag("Black") != in.Tag("Black") || g.Result() != in.Result() {
		t.Fatalf("game %d: not the input's game", g.Number)
	}
	if a := g.Tag("Annotator"); !strings.HasPrefix(a, "nechecb test, eval material, depth 3") {
		t.Errorf("game %d: Annotator %q", g.Number, a)
	}
	var count [2][3]int
	moves := g.Record.Moves()
	for ply := 1; ply <= len(moves); ply++ {
		if c := g.Comment(ply); !moveScore.MatchString(c) {
			t.Errorf("game %d move %d: comment %q", g.Number, ply, c)
		}
		mark := g.Mark(ply)
		if mark == "" {
			continue
		}
		k, ok := map[string]int{"??": 0, "?": 1, "?!": 2}[mark]
		if !ok {
			t.Errorf("game %d move %d: mark %q", g.Number, ply, mark)
		}
		count[g.Record.Positions()[ply-1].Side][k]++
		var side *pdn.Variation
		for i := range g.Variations {
			if g.Variations[i].Ply == ply-1 {
				side = &g.Variations[i]
			}
		}
		if side == nil || len(side.Moves) == 0 || side.Moves[0] == moves[ply-1] {
			t.Errorf("game %d move %d (%s): side line %+v", g.Number, ply, mark, side)
		}
		if !strings.Contains(g.Comment(ply), "; lost ") {
			t.Errorf("game %d move %d: comment %q says nothing of the loss", g.Number, ply, g.Comment(ply))
		}
	}
	m := summaryCounts.FindAllStringSubmatch(g.Comment(0), -1)
	if len(m) != 2 {
		t.Fatalf("game %d: summary %q", g.Number, g.Comment(0))
	}
	for side, sm := range m {
		got := sm[2] + " " + sm[3] + " " + sm[4]
		if want := fmt.Sprintf("%d %d %d", count[side][0], count[side][1], count[side][2]); got != want {
			t.Errorf("game %d: summary of %s %q, counted %q", g.Number, sm[1], got, want)
		}
	}
}

// checkCheckerBoardText checks what CheckerBoard's PDN reader needs of
// the move text (its PDNparser.c): it reads a side line in parentheses as
// a comment that ends at the first ')', so side lines may not nest; a mark
// glued to a move ("9-14?") it reads as the move and a word it passes
// over; a '{' comment ends at the first '}'.
func checkCheckerBoardText(t *testing.T, text string) {
	t.Helper()
	depth, lines := 0, 0
	for i := 0; i < len(text); i++ {
		switch text[i] {
		case '[':
			i += strings.IndexByte(text[i:], ']')
		case '{':
			end := strings.IndexByte(text[i:], '}')
			if strings.ContainsRune(text[i+1:i+end], '{') {
				t.Fatalf("a comment holds a '{': %q", text[i:i+end+1])
			}
			i += end
		case '(':
			if depth++; depth > 1 {
				t.Fatalf("side lines nest at byte %d", i)
			}
			lines++
		case ')':
			depth--
		}
	}
	if depth != 0 || lines == 0 {
		t.Errorf("parentheses: depth %d at the end, %d side lines", depth, lines)
	}
}

// bad is a game with an illegal move: White's man steps back, 2... 19-23.
const bad = `[Event "bad"]
[Black "Nobody"]
[White "Noone"]
[Result "*"]
1. 11-15 23-19 2. 8-11 19-23 *
`

// TestBadGameSkipped: a bad game is named on stderr and left out, and the
// games around it are analysed.
func TestBadGameSkipped(t *testing.T) {
	text, err := os.ReadFile(tinsley)
	if err != nil {
		t.Fatal(err)
	}
	games := strings.SplitAfter(string(text), "\n\n")
	in := filepath.Join(t.TempDir(), "in.pdn")
	if err := os.WriteFile(in, []byte(games[2]+bad+"\n"+games[7]), 0o644); err != nil {
		t.Fatal(err)
	}
	o := quick(t, in)
	if err := Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	s := o.Stderr.(*strings.Builder).String()
	if !strings.Contains(s, "skipped: "+in+":") || !strings.Contains(s, "game 2") || !strings.Contains(s, "19-23") || !strings.Contains(s, "2 games read, 1 skipped") {
		t.Errorf("stderr does not name the bad game:\n%s", s)
	}
	out, err := pdn.ReadFile(o.Out)
	if err != nil || len(out) != 2 || out[0].Number != 1 || out[1].Tag("Event") != "US National 1946" {
		t.Fatalf("output: %d games, %v", len(out), err)
	}
}

// TestRefused: what cannot be done is refused before any search, as bad
// input, and nothing is written.
func TestRefused(t *testing.T) {
	dir := t.TempDir()
	onlyBad := filepath.Join(dir, "bad.pdn")
	exists := filepath.Join(dir, "exists.pdn")
	for f, text := range map[string]string{onlyBad: bad, exists: "1. 9-14 22-18 *\n"} {
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name string
		set  func(*Options)
		want string
	}{
		{"no readable game", func(o *Options) { o.In = onlyBad }, "no readable game"},
		{"missing input", func(o *Options) { o.In = filepath.Join(dir, "none.pdn") }, "no such file"},
		{"bad evaluator", func(o *Options) { o.Eval = "neche:" + filepath.Join(dir, "none.txt") + "#1" }, "none.txt"},
		{"bad database", func(o *Options) { o.DB = filepath.Join(dir, "nodb") }, "nodb"},
		{"no output folder", func(o *Options) { o.Out = filepath.Join(dir, "nodir", "out.pdn") }, "nodir"},
		{"output exists", func(o *Options) { o.Out = exists }, "--resume"},
		{"output is input", func(o *Options) { o.In, o.Out = exists, exists }, "input file"},
		{"both limits", func(o *Options) { o.MoveTime = 100e6 }, "not both"},
		{"resume from other games", func(o *Options) { o.Out, o.Resume = exists, true }, "not game 1"},
	} {
		o := quick(t, tinsley)
		c.set(&o)
		err := Run(context.Background(), o)
		if err == nil || !badinput.Is(err) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v; want bad input naming %q", c.name, err, c.want)
		}
		if testing.Verbose() {
			t.Logf("%s: %v", c.name, err)
		}
		if s := o.Stderr.(*strings.Builder).String(); strings.Contains(s, "positions") {
			t.Errorf("%s: searched before refusing:\n%s", c.name, s)
		}
		if o.Out != exists {
			if _, err := os.Stat(o.Out); err == nil {
				t.Errorf("%s: %s written", c.name, o.Out)
			}
		}
	}
}

// TestResume interrupts a run after two games, then resumes it: the two
// games are on disk after the interruption, and the finished file is the
// one an uninterrupted run writes (a depth-limited search on one thread
// is deterministic).
func TestResume(t *testing.T) {
	full := quick(t, tinsley)
	if err := Run(context.Background(), full); err != nil {
		t.Fatal(err)
	}
	want, _ := os.ReadFile(full.Out)

	o := quick(t, tinsley)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	afterGame = func(_ context.Context, done int) {
		if done == 2 {
			cancel()
		}
	}
	defer func() { afterGame = func(context.Context, int) {} }()
	err := Run(ctx, o)
	if err == nil || badinput.Is(err) || !strings.Contains(err.Error(), "--resume goes on from game 3") {
		t.Fatalf("interrupted run: %v", err)
	}
	part, err := pdn.ReadFile(o.Out)
	if err != nil || len(part) != 2 {
		t.Fatalf("after the interruption: %d games, %v", len(part), err)
	}
	afterGame = func(context.Context, int) {}
	o.Resume = true
	if err := Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	if s := o.Stderr.(*strings.Builder).String(); !strings.Contains(s, "2 games done, going on from game 3") {
		t.Errorf("stderr:\n%s", s)
	}
	if got, _ := os.ReadFile(o.Out); string(got) != string(want) {
		t.Errorf("resumed output differs from an uninterrupted run's:\n%s\nwant:\n%s", got, want)
	}
}

// TestDatabaseVerdict: a move that throws a won ending away gets the
// built-in database's verdict and a blunder's mark; the moves that keep
// the result get no verdict.
func TestDatabaseVerdict(t *testing.T) {
	in := filepath.Join(t.TempDir(), "endings.pdn")
	text := "[FEN \"B:WK28,K32:BK19,K1,K5\"]\n1. 19-24 28x19 *\n\n" +
		"[FEN \"B:W21,30:BK14,K10,6\"]\n1. 14-17 21x7 *\n\n" +
		"[FEN \"B:W28,31:BK19,K1,10\"]\n1. 1-5 *\n"
	if err := os.WriteFile(in, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	o := quick(t, in)
	o.Depth = 6
	if err := Run(context.Background(), o); err != nil {
		t.Fatal(err)
	}
	out, err := pdn.ReadFile(o.Out)
	if err != nil || len(out) != 3 {
		t.Fatalf("%d games, %v; stderr:\n%s", len(out), err, o.Stderr)
	}
	for _, c := range []struct {
		game, ply  int
		mark, says string
	}{
		{0, 1, "??", "; db: draw, was Black wins;"},
		{0, 2, "", ""},
		{1, 1, "??", "; db: White wins, was Black wins;"},
		{1, 2, "", ""},
		{2, 1, "", ""},
	} {
		g := out[c.game]
		comment := g.Comment(c.ply)
		if g.Mark(c.ply) != c.mark || (c.says == "") == strings.Contains(comment, "db:") || !strings.Contains(comment, c.says) {
			t.Errorf("game %d move %d: mark %q, comment %q; want %q and %q", c.game+1, c.ply, g.Mark(c.ply), comment, c.mark, c.says)
		}
	}
}
