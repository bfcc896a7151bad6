package console

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/nechecb/nechecb/engine"
	_ "github.com/nechecb/nechecb/eval/all"
)

// newTestSession makes a session reading lines, with the fake engine on the
// material evaluator, ASCII pieces and no colour, the engine playing no side
// (the scripts move both sides unless they say play).
func newTestSession(t *testing.T, lines ...string) (*Session, *scriptReader, *fakeEngine) {
	t.Helper()
	s, in, eng := newSessionFrom(t, nil, lines...)
	s.engineOn = [2]bool{}
	return s, in, eng
}

// newSessionFrom makes a session as newTestSession does, but starting from
// start (nil: the start position) and with the engine's default sides.
func newSessionFrom(t *testing.T, start *engine.Position, lines ...string) (*Session, *scriptReader, *fakeEngine) {
	t.Helper()
	out := &syncBuffer{}
	in := &scriptReader{lines: lines, out: out}
	eng := &fakeEngine{}
	if err := eng.LoadEvaluator("material"); err != nil {
		t.Fatal(err)
	}
	s := NewSession(Config{In: in, Out: out, Engine: eng, Settings: &fakeSettings{eng: eng, spec: "material"}, Style: Style{ASCII: true},
		Now: func() time.Time { return time.Date(2026, 11, 21, 7, 0, 0, 0, time.UTC) }, Start: start})
	return s, in, eng
}

// runScript runs a session over lines and returns the turns.
func runScript(t *testing.T, s *Session, in *scriptReader) []turn {
	t.Helper()
	if code := s.Loop(); code != 0 {
		t.Fatalf("exit status %d", code)
	}
	in.closeTurn()
	return in.turns
}

// output returns what the session printed after the input line, which must
// occur once in the script.
func output(t *testing.T, turns []turn, input string) string {
	t.Helper()
	found := -1
	for i, tu := range turns {
		if tu.Input == input {
			if found >= 0 {
				t.Fatalf("input %q occurs twice in the script", input)
			}
			found = i
		}
	}
	if found < 0 {
		t.Fatalf("input %q was not read", input)
	}
	return turns[found].Output
}

func checkOutput(t *testing.T, turns []turn, input, want string) {
	t.Helper()
	if diff := cmp.Diff(want, output(t, turns, input)); diff != "" {
		t.Errorf("after %q (-want +got):\n%s", input, diff)
	}
}

// afterCapture is the board after 11-15 22-18 15x22 25x18.
const afterCapture = `    a  b  c  d  e  f  g  h
 8     b     b     b     b  8
 7  b     b     b     b     7
 6     b     b     .     b  6
 5  .     .     .     .     5
 4     .    [w]    .     .  4
 3  w     .     w     w     3
 2    [.]    w     w     w  2
 1  w     w     w     w     1
    a  b  c  d  e  f  g  h
Black to move. Last move: b2xd4 (25x18).
`

func TestScriptedGame(t *testing.T) {
	dir := t.TempDir()
	saved := filepath.Join(dir, "game.pdn")
	missing := filepath.Join(dir, "missing.pdn")
	s, in, _ := newTestSession(t,
		"11-15", "c3d4", "e5c3", "zz", "c3e5", "fen B:W40:B1", "moves", "b2xd4",
		"undo", "redo", "history", "save "+saved, "new", "load "+saved,
		"load "+missing, "load "+saved+" 2", "board", "quit", "never read")
	turns := runScript(t, s, in)

	checkOutput(t, turns, "zz", "unknown command \"zz\"; type 'help' for the commands\n")
	checkOutput(t, turns, "c3e5", "illegal move \"c3e5\"\nlegal moves: b2xd4 d2xb4\n")
	checkOutput(t, turns, "moves", "legal moves: b2xd4 d2xb4\n")
	if got := output(t, turns, "fen B:W40:B1"); !strings.HasSuffix(got, "; the position is unchanged\n") || !strings.Contains(got, "40") {
		t.Errorf("bad FEN answered %q", got)
	}
	checkOutput(t, turns, "b2xd4", afterCapture)
	checkOutput(t, turns, "undo", `    a  b  c  d  e  f  g  h
 8     b     b     b     b  8
 7  b     b     b     b     7
 6     b     b     .     b  6
 5  .     .    [.]    .     5
 4     .     .     .     .  4
 3  w    [b]    w     w     3
 2     w     w     w     w  2
 1  w     w     w     w     1
    a  b  c  d  e  f  g  h
White to move. Last move: e5xc3 (15x22).
`)
	checkOutput(t, turns, "redo", afterCapture)
	checkOutput(t, turns, "history", "algebraic: 1. f6e5 c3d4 2. e5xc3 b2xd4\nnumeric:   1. 11-15 22-18 2. 15x22 25x18\n")
	checkOutput(t, turns, "save "+saved, "saved 4 moves to "+saved+"\n")
	data, err := os.ReadFile(saved)
	if err != nil {
		t.Fatal(err)
	}
	checkText(t, "saved file", `[Event "nechecb console"]
[Date "2026.11.21"]
[Black "human"]
[White "human"]
[Result "*"]
[GameType "21"]

1. 11-15 22-18 2. 15x22 25x18 *

`, string(data))
	checkOutput(t, turns, "load "+saved,
		"loaded game 1 of 1 from "+saved+": human (black) vs human (white), 4 moves, result *\n"+afterCapture)
	if got := output(t, turns, "load "+missing); !strings.HasSuffix(got, "no such file or directory; the game is unchanged\n") {
		t.Errorf("loading a missing file answered %q", got)
	}
	checkOutput(t, turns, "load "+saved+" 2", "load: "+saved+" holds games 1 to 1, not \"2\"; the game is unchanged\n")
	checkOutput(t, turns, "board", afterCapture)
	if len(turns) != 18 {
		t.Errorf("%d lines read, want 18: quit did not stop the session", len(turns))
	}
	if diff := cmp.Diff([]string{"1. black> ", "1. white> ", "2. black> "}, []string{turns[0].Prompt, turns[1].Prompt, turns[2].Prompt}); diff != "" {
		t.Errorf("prompts (-want +got):\n%s", diff)
	}
}

func checkText(t *testing.T, what, want, got string) {
	t.Helper()
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s (-want +got):\n%s", what, diff)
	}
}

func TestGameOverRefusesMovesUntilUndo(t *testing.T) {
	dir := t.TempDir()
	saved := filepath.Join(dir, "won.pdn")
	s, in, _ := newTestSession(t, "fen B:W18:B14", "c5e3", "c3d4", "go", "hint", "history", "save "+saved, "undo", "moves", "quit")
	turns := runScript(t, s, in)
	checkOutput(t, turns, "c5e3", `    a  b  c  d  e  f  g  h
 8     .     .     .     .  8
 7  .     .     .     .     7
 6     .     .     .     .  6
 5  .    [.]    .     .     5
 4     .     .     .     .  4
 3  .     .    [b]    .     3
 2     .     .     .     .  2
 1  .     .     .     .     1
    a  b  c  d  e  f  g  h
Game over: black wins (no legal move) 1-0. Last move: c5xe3 (14x23). 'undo' or 'new' to go on.
`)
	refusal := "the game is over (black wins (no legal move)); 'undo' or 'new' to go on\n"
	for _, line := range []string{"c3d4", "go", "hint"} {
		checkOutput(t, turns, line, refusal)
	}
	checkOutput(t, turns, "history", "algebraic: 1. c5xe3 1-0\nnumeric:   1. 14x23 1-0\nblack wins (no legal move)\n")
	data, err := os.ReadFile(saved)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "[Result \"1-0\"]\n[FEN \"B:W18:B14\"]\n[GameType \"21\"]\n\n1. 14x23 {black wins (no legal move)} 1-0\n") {
		t.Errorf("saved game:\n%s", data)
	}
	checkOutput(t, turns, "moves", "legal moves: c5xe3\n")
	if turns[len(turns)-2].Prompt != "1. black> " {
		t.Errorf("prompt after undo %q", turns[len(turns)-1].Prompt)
	}
}

func TestEnginePlaysAFullGame(t *testing.T) {
	s, in, eng := newTestSession(t, "level depth 2", "play both", "11-15", "history", "play white", "new", "f6e5", "undo", "quit")
	turns := runScript(t, s, in)
	played := output(t, turns, "play both")
	if strings.Count(played, "Game over: ") != 1 { // the status line, once
		t.Fatalf("the engine's game did not end, or its end was announced twice:\n%s", played)
	}
	reason := strings.SplitN(strings.SplitN(played, "Game over: ", 2)[1], ". Last move", 2)[0]
	reason = reason[:strings.LastIndexByte(reason, ' ')] // less the result token
	checkOutput(t, turns, "11-15", "the game is over ("+reason+"); 'undo' or 'new' to go on\n")
	history := output(t, turns, "history")
	lines := strings.Split(strings.TrimSpace(history), "\n")
	last := lines[len(lines)-1]
	token := map[string]string{"black wins": "1-0", "white wins": "0-1", "draw": "1/2-1/2"}[strings.SplitN(last, " (", 2)[0]]
	if token == "" || !strings.Contains(history, " "+token+"\nnumeric:") || !strings.HasSuffix(lines[len(lines)-2], " "+token) {
		t.Errorf("history does not end with the result:\n%s", history)
	}
	// With the engine on White, the user's move is answered, and undo takes
	// back both.
	if got := output(t, turns, "f6e5"); strings.Count(got, "nechecb plays") != 1 {
		t.Errorf("the engine did not answer f6e5 once:\n%s", got)
	}
	if got := output(t, turns, "undo"); !strings.HasSuffix(got, "  a  b  c  d  e  f  g  h\nBlack to move.\n") {
		t.Errorf("undo did not return to the start:\n%s", got)
	}
	if eng.clears < 2 {
		t.Errorf("the engine was cleared %d times; want one per new game", eng.clears)
	}
}

func TestEvalSwitch(t *testing.T) {
	const neche = "neche:../../eval/neche/testdata/best_networks.txt#last"
	s, in, eng := newTestSession(t, "eval", "eval bogus", "eval heuristic", "eval "+neche, "eval neche:missing.txt", "eval x y")
	turns := runScript(t, s, in)
	checkOutput(t, turns, "eval", "eval material\n")
	if got := output(t, turns, "eval bogus"); !strings.Contains(got, `unknown evaluator "bogus"`) || !strings.HasSuffix(got, "; the evaluator is still material\n") {
		t.Errorf("eval bogus answered %q", got)
	}
	checkOutput(t, turns, "eval heuristic", "eval heuristic\n")
	checkOutput(t, turns, "eval "+neche, "eval "+neche+"\n")
	if got := output(t, turns, "eval neche:missing.txt"); !strings.HasSuffix(got, "; the evaluator is still "+neche+"\n") {
		t.Errorf("a missing genome file answered %q", got)
	}
	if eng.evals != 3 {
		t.Errorf("SetEvaluator called %d times, want 3 (start, heuristic, neche)", eng.evals)
	}
}

// TestCtrlCMovesNowAndTwiceLeaves checks that Ctrl-C while the engine
// thinks plays the best move found so far, and that a second Ctrl-C at the
// prompt leaves.
func TestCtrlCMovesNowAndTwiceLeaves(t *testing.T) {
	intr := make(chan struct{}, 1)
	s, in, eng := newTestSession(t, "level movetime 3600000", "go", Interrupt, "11-15")
	s.cfg.Interrupts = intr
	eng.onSearch = func() { intr <- struct{}{} }
	turns := runScript(t, s, in)
	got := output(t, turns, "go")
	if !strings.Contains(got, "move now (Ctrl-C again at the prompt to leave)\nnechecb plays b6a5 (9-13)") || !strings.HasSuffix(got, "White to move. Last move: b6a5 (9-13).\n") {
		t.Errorf("Ctrl-C during go did not play the move found so far:\n%s", got)
	}
	if len(turns) != 3 {
		t.Errorf("%d lines read; the Ctrl-C after the stopped search should have left", len(turns))
	}
}

// DrawBoardStart is the ASCII start position.
func DrawBoardStart() string {
	start := engine.StartPosition()
	return DrawBoard(&start, nil, Style{ASCII: true})
}

func TestOneCtrlCAtThePromptDoesNotLeave(t *testing.T) {
	s, in, _ := newTestSession(t, Interrupt, "11-15", Interrupt, Interrupt, "never read")
	turns := runScript(t, s, in)
	checkText(t, "first Ctrl-C", "(Ctrl-C again, Ctrl-D or 'quit' to leave)\n", turns[0].Output)
	if len(turns) != 4 {
		t.Errorf("%d lines read, want 4", len(turns))
	}
}

func TestAnalyzeUntilEnter(t *testing.T) {
	s, in, _ := newTestSession(t, "analyze", "", "board")
	turns := runScript(t, s, in)
	got := turns[0].Output + turns[1].Output
	want := "analysing; press Enter to stop\n" +
		"depth  1/1  +0.00 men      10 nodes   0.00s     0 nps  b6a5\n" +
		"best b6a5 (9-13), score +0.00 men, line b6a5\n"
	checkText(t, "analysis", want, got)
	if turns[2].Prompt != "1. black> " {
		t.Errorf("analysis played a move: prompt %q", turns[2].Prompt)
	}
}

func TestLevelAndPlayArguments(t *testing.T) {
	s, in, _ := newTestSession(t, "level", "level depth 0", "level speed 3", "level depth 7", "level time 90",
		"level movetime 250", "play", "play red", "play none", "notation numeric", "moves", "notation roman", "help")
	turns := runScript(t, s, in)
	checkOutput(t, turns, "level", "level movetime 1000 ms\n")
	checkOutput(t, turns, "level depth 0", "level: \"0\" is not a positive number\n")
	checkOutput(t, turns, "level speed 3", "level: \"speed\" is not depth, time or movetime\n")
	checkOutput(t, turns, "level depth 7", "level depth 7\n")
	checkOutput(t, turns, "level time 90", "level time 90 s for the game\n")
	checkOutput(t, turns, "level movetime 250", "level movetime 250 ms\n")
	checkOutput(t, turns, "play", "usage: play white|black|both|none (the engine plays no side)\n")
	checkOutput(t, turns, "play red", "play: \"red\" is not white, black, both or none\n")
	checkOutput(t, turns, "play none", "the engine plays no side\n")
	checkOutput(t, turns, "moves", "legal moves: 9-13 10-14 11-15 12-16 9-14 10-15 11-16\n")
	checkOutput(t, turns, "notation roman", "notation: \"roman\" is not algebraic or numeric\n")
	if help := output(t, turns, "help"); strings.Count(help, "\n  ") != len(commands) {
		t.Errorf("help does not list every command:\n%s", help)
	}
}

func TestComplete(t *testing.T) {
	s, _, _ := newTestSession(t)
	type completion struct {
		Head  string
		Words []string
		Tail  string
	}
	complete := func(line string, pos int) completion {
		h, c, tl := s.Complete(line, pos)
		sort.Strings(c)
		return completion{h, c, tl}
	}
	cases := []struct {
		line string
		pos  int
		want completion
	}{
		{"pl", 2, completion{"", []string{"play"}, ""}},
		{"pl rest", 2, completion{"", []string{"play"}, " rest"}},
		{"f6", 2, completion{"", []string{"f6e5", "f6g5"}, ""}},
		{"11", 2, completion{"", []string{"11-15", "11-16"}, ""}},
		{"h", 1, completion{"", []string{"h6g5", "help", "hint", "history"}, ""}},
		{"play b", 6, completion{"play ", []string{"black", "both"}, ""}},
		{"notation n", 10, completion{"notation ", []string{"numeric"}, ""}},
		{"level m", 7, completion{"level ", []string{"movetime"}, ""}},
		{"eval he", 7, completion{"eval ", []string{"heuristic"}, ""}},
		{"11-15 2", 7, completion{"11-15 ", []string{"21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20"}, ""}},
		{"11-15 g3", 8, completion{"11-15 ", []string{"g3f4", "g3h4"}, ""}},
		{"zz 2", 4, completion{"zz ", nil, ""}},
	}
	for _, c := range cases {
		if diff := cmp.Diff(c.want, complete(c.line, c.pos)); diff != "" {
			t.Errorf("Complete(%q, %d) (-want +got):\n%s", c.line, c.pos, diff)
		}
	}
	// Captures complete from their short forms.
	pos, err := engine.ParseFEN("W:WK27:B1,15,23")
	if err != nil {
		t.Fatal(err)
	}
	s.newGame(pos)
	for _, c := range []struct{ typed, want string }{{"27x11", "27x18x11"}, {"27-1", "27x18x11"}, {"f2f6", "f2xd4xf6"}, {"f2d", "f2xd4xf6"}} {
		if diff := cmp.Diff(completion{"", []string{c.want}, ""}, complete(c.typed, len(c.typed))); diff != "" {
			t.Errorf("Complete(%q) (-want +got):\n%s", c.typed, diff)
		}
	}
}

func TestLoadKeepsTagsCommentsAndResult(t *testing.T) {
	dir := t.TempDir()
	same, changed := filepath.Join(dir, "same.pdn"), filepath.Join(dir, "changed.pdn")
	s, in, _ := newTestSession(t, "load testdata/two-games.pdn 1", "save "+same, "undo", "27x20", "save "+changed,
		"load testdata/two-games.pdn 2", "load testdata/two-games.pdn 3", "quit")
	turns := runScript(t, s, in)
	if got := output(t, turns, "load testdata/two-games.pdn 1"); !strings.HasPrefix(got,
		"loaded game 1 of 2 from testdata/two-games.pdn: nechecb (material) (black) vs nechecb (heuristic) (white), 4 moves, result 1/2-1/2\n{adjudicated as a draw}\n") {
		t.Errorf("load answered:\n%s", got)
	}
	read := func(path string) string {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	checkText(t, "unchanged game saved", `[Event "Test match"]
[Date "2026.11.20"]
[Black "nechecb (material)"]
[White "nechecb (heuristic)"]
[Result "1/2-1/2"]
[GameType "21"]
[Round "1"]

{Opening 11-15 24-19.} 1. 11-15 24-19 {book ends} 2. 15x24 28x19 {adjudicated
as a draw} 1/2-1/2

`, read(same))
	checkText(t, "changed game saved", `[Event "Test match"]
[Date "2026.11.20"]
[Black "nechecb (material)"]
[White "nechecb (heuristic)"]
[Result "*"]
[GameType "21"]
[Round "1"]

{Opening 11-15 24-19.} 1. 11-15 24-19 {book ends} 2. 15x24 27x20 *

`, read(changed))
	if got := output(t, turns, "load testdata/two-games.pdn 2"); !strings.Contains(got, "2 moves, result *") {
		t.Errorf("second game:\n%s", got)
	}
	checkOutput(t, turns, "load testdata/two-games.pdn 3", "load: testdata/two-games.pdn holds games 1 to 2, not \"3\"; the game is unchanged\n")
}

// TestScriptedSession runs one session through everything at once: it
// switches the evaluator, lets the engine play a whole game, undoes the last
// move, saves, starts again, loads the game back and checks that the board
// and the history read the same as before the save.
func TestScriptedSession(t *testing.T) {
	saved := filepath.Join(t.TempDir(), "session.pdn")
	s, in, eng := newTestSession(t, "eval heuristic", "level depth 1", "play both", "play none", "history",
		"undo", "board", "history ", "save "+saved, "new", "load "+saved, "board ", "history  ", "quit")
	turns := runScript(t, s, in)
	if eng.evals != 2 {
		t.Errorf("evaluator set %d times, want 2", eng.evals)
	}
	if !strings.Contains(output(t, turns, "play both"), "Game over: ") {
		t.Fatal("the engine's game did not end")
	}
	if result := lastWord(output(t, turns, "history")); !isResultToken(result) {
		t.Errorf("the finished game's history ends with %q, not a result", result)
	}
	before := output(t, turns, "board")
	if strings.Contains(before, "Game over") {
		t.Errorf("undo did not reopen the game:\n%s", before)
	}
	if diff := cmp.Diff(before, output(t, turns, "board ")); diff != "" {
		t.Errorf("board after save and load (-before +after):\n%s", diff)
	}
	if diff := cmp.Diff(output(t, turns, "history "), output(t, turns, "history  ")); diff != "" {
		t.Errorf("history after save and load (-before +after):\n%s", diff)
	}
	if got := lastWord(output(t, turns, "history ")); isResultToken(got) {
		t.Errorf("history of the reopened game ends with the result %q", got)
	}
}

func isResultToken(w string) bool { return w == "1-0" || w == "0-1" || w == "1/2-1/2" }

// lastWord returns the last word of the numeric lines of a history.
func lastWord(history string) string {
	_, numeric, _ := strings.Cut(history, "numeric:")
	lines := strings.Split(numeric, "\n")
	text := lines[0]
	for _, l := range lines[1:] {
		if !strings.HasPrefix(l, " ") {
			break
		}
		text += l
	}
	words := strings.Fields(text)
	if len(words) == 0 {
		return ""
	}
	return words[len(words)-1]
}

// TestLoadSkipsBadGames: load reads past a bad game, names it, and loads the
// games after it by their number in the file; the bad game's number says it
// was skipped.
func TestLoadSkipsBadGames(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bad.pdn")
	text := "[Event \"a\"]\n1. 11-15 23-19 *\n\n[Event \"b\"]\n1. 11-15 23-19 2. 8-12 *\n\n[Event \"c\"]\n1. 9-14 22-18 *\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	s, in, _ := newTestSession(t, "load "+path+" 3", "load "+path+" 2", "quit")
	turns := runScript(t, s, in)
	got := output(t, turns, "load "+path+" 3")
	for _, want := range []string{"load: skipped: " + path + ":5: game 2: move 2 (black) \"8-12\"",
		"load: " + path + ": 2 games read, 1 skipped\n", "loaded game 3 of 3 from " + path} {
		if !strings.Contains(got, want) {
			t.Errorf("load game 3 answered:\n%s\nwant it to hold %q", got, want)
		}
	}
	if got := output(t, turns, "load "+path+" 2"); !strings.HasSuffix(got, "load: game 2 of "+path+" was skipped; the game is unchanged\n") {
		t.Errorf("load of the skipped game answered:\n%s", got)
	}
}
