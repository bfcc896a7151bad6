package console

import (
	"strings"
	"testing"
	"time"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/search"
	"github.com/nechecb/nechecb/internal/player"
)

// TestEngineAnswersByDefault checks that, with no play command, the engine
// answers the user's move, that the banner says how to change sides and how
// to analyse, and that after play none go moves once.
func TestEngineAnswersByDefault(t *testing.T) {
	s, in, _ := newSessionFrom(t, nil, "11-15", "play none", "go", "quit")
	turns := runScript(t, s, in)
	banner := in.out.String()[:strings.Index(in.out.String(), "    a  b")]
	for _, want := range []string{"The engine plays white", "play white|black|both|none", "analyze"} {
		if !strings.Contains(banner, want) {
			t.Errorf("banner lacks %q:\n%s", want, banner)
		}
	}
	if got := output(t, turns, "11-15"); !strings.Contains(got, "nechecb plays ") {
		t.Errorf("the engine did not answer 11-15:\n%s", got)
	}
	if p := turns[1].Prompt; p != "2. black> " {
		t.Errorf("prompt after 11-15 is %q, want the user to move again", p)
	}
	got := output(t, turns, "go")
	if strings.Contains(got, "the engine plays") || strings.Count(got, "nechecb plays ") != 1 {
		t.Errorf("go after play none should play one move and keep the sides:\n%s", got)
	}
	if p := turns[3].Prompt; p != "2. white> " {
		t.Errorf("prompt after go is %q, want White to move with nobody answering", p)
	}
}

// TestGoSwitchesSides checks that go, while the engine answers the other
// side, makes it play the side to move from then on.
func TestGoSwitchesSides(t *testing.T) {
	s, in, _ := newSessionFrom(t, nil, "go", "22-18", "quit")
	turns := runScript(t, s, in)
	if got := output(t, turns, "go"); !strings.HasPrefix(got, "the engine plays black\n") || !strings.Contains(got, "nechecb plays ") {
		t.Errorf("go answered:\n%s", got)
	}
	if got := output(t, turns, "22-18"); !strings.Contains(got, "nechecb plays ") {
		t.Errorf("the engine, now Black, did not answer 22-18:\n%s", got)
	}
}

// TestStartFromPosition checks that a session started from a position with
// White to move has the engine play Black.
func TestStartFromPosition(t *testing.T) {
	pos, err := engine.ParseFEN("W:W18,24,27:B12,16,20")
	if err != nil {
		t.Fatal(err)
	}
	s, in, _ := newSessionFrom(t, &pos, "fen", "quit")
	turns := runScript(t, s, in)
	if !strings.Contains(in.out.String(), "The engine plays black") {
		t.Errorf("banner:\n%s", in.out.String())
	}
	checkOutput(t, turns, "fen", pos.FEN()+"\n")
	if turns[0].Prompt != "1. white> " {
		t.Errorf("first prompt %q", turns[0].Prompt)
	}
}

// TestProgressFitsAndChanges checks that a progress report fits in 80
// columns even with a long line and large counts, and that reports whose
// score and line do not change (a solved position) are not repeated.
func TestProgressFitsAndChanges(t *testing.T) {
	s, _, _ := newTestSession(t)
	out := s.cfg.Out.(*syncBuffer)
	pos := engine.StartPosition()
	var pv []engine.Move
	for range 20 {
		m := pos.LegalMoves()[0]
		pv = append(pv, m)
		pos = pos.Play(m)
	}
	s.report = lastReport{}
	for d := 1; d <= 110; d++ {
		s.progress(player.Info{Depth: d, SelDepth: d + 20, Score: search.WinIn(7), Nodes: 123456789,
			Time: time.Duration(d) * 500 * time.Microsecond, NPS: 98765432, TBHits: 4567890, PV: pv})
	}
	s.progress(player.Info{Depth: 111, SelDepth: 120, Score: player.Score(-1234), Nodes: 123456789012,
		Time: 99 * time.Second, NPS: 98765432, PV: pv})
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 2 {
		t.Errorf("%d reports printed, want 2 (the first, then the changed score):\n%s", len(lines), out.String())
	}
	for _, l := range lines {
		if len(l) > 80 {
			t.Errorf("report of %d columns: %s", len(l), l)
		}
	}
	if !strings.Contains(lines[len(lines)-1], "-12.34 men") {
		t.Errorf("score without its unit: %s", lines[len(lines)-1])
	}
}
