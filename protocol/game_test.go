package protocol

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nechecb/nechecb/engine"
)

var update = flag.Bool("update", false, "rewrite the golden transcripts in testdata")

// TestTranscriptWholeGame plays a whole game through the protocol, the fake
// searcher always choosing its first legal move. Every bestmove is checked
// against an independent engine.Game, every claim against that game's
// result, and the whole transcript against testdata/uci_game.golden.
func TestTranscriptWholeGame(t *testing.T) {
	s := newSession(t, Config{})
	s.send("uci")
	s.until("uciok")
	s.send("isready")
	s.expect("readyok")
	s.send("ucinewgame")
	g := engine.NewGame(engine.StartPosition())
	var moves []string
	for g.Result().Outcome == engine.Ongoing {
		if len(moves) > 400 {
			t.Fatalf("no result after %d plies", len(moves))
		}
		s.send("position startpos moves "+strings.Join(moves, " "), "go depth 1")
		lines := s.until("bestmove ")
		best := strings.TrimPrefix(lines[len(lines)-1], "bestmove ")
		best, _, _ = strings.Cut(best, " ponder ")
		if _, err := g.PlayText(best); err != nil {
			t.Fatalf("ply %d: bestmove %q: %v", len(moves)+1, best, err)
		}
		moves = append(moves, best)
		var claims []string
		for _, l := range lines {
			if c, ok := strings.CutPrefix(l, "info string claim "); ok {
				claims = append(claims, c)
			}
		}
		var want []string
		switch r := g.Result(); r.Outcome {
		case engine.Draw:
			want = []string{"draw " + r.Reason}
		case engine.BlackWins, engine.WhiteWins:
			want = []string{"win opponent has no legal move"}
		}
		if !cmp.Equal(claims, want) {
			t.Fatalf("ply %d: claims %q, want %q", len(moves), claims, want)
		}
	}
	s.send("position startpos moves "+strings.Join(moves, " "), "result")
	r := g.Result()
	s.expect("info string result " + r.PDN() + " " + r.String())
	if r.Reason == "no legal move" {
		s.send("go depth 1")
		s.expect("info string claim loss no legal move", "info string result "+r.PDN()+" "+r.String(), "bestmove (none)")
	}
	s.send("quit")
	s.exited()
	t.Logf("%d plies, %s", len(moves), r)
	compareGolden(t, "uci_game.golden", s.transcript())
}

// compareGolden compares got with testdata/name, or rewrites it under -update.
func compareGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		tmp := path + ".tmp"
		if err := os.WriteFile(tmp, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(tmp, path); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -run %s -update to create it)", err, t.Name())
	}
	if diff := cmp.Diff(strings.Split(string(want), "\n"), strings.Split(got, "\n")); diff != "" {
		t.Errorf("transcript differs from %s (-want +got):\n%s", path, diff)
	}
}
