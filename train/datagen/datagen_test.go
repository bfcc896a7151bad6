package datagen

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nechecb/nechecb/eval"
	_ "github.com/nechecb/nechecb/eval/heuristic"
	"github.com/nechecb/nechecb/train/positions"
)

// small is a quick setting for tests.
func small() Config {
	c := DefaultConfig
	c.Nodes, c.MaxPlies, c.ChunkGames, c.Workers = 300, 80, 3, 2
	return c
}

func run(t *testing.T, cfg Config, path string, resume bool, target Target) {
	t.Helper()
	if err := Run(context.Background(), cfg, path, resume, target, nil); err != nil {
		t.Fatal(err)
	}
}

// sameRuns runs cfg to games games in dir with its workers, with one
// worker, and with one worker stopped after stop games and resumed, and
// wants the same file each time. It returns the file of the last run and
// the first run's last progress.
func sameRuns(t *testing.T, cfg Config, dir string, games, stop int) (string, Progress) {
	t.Helper()
	a, b, c := filepath.Join(dir, "a.pos"), filepath.Join(dir, "b.pos"), filepath.Join(dir, "c.pos")
	var last Progress
	if err := Run(context.Background(), cfg, a, false, Target{Games: games}, func(p Progress) { last = p }); err != nil {
		t.Fatal(err)
	}
	cfg.Workers = 1
	run(t, cfg, b, false, Target{Games: games})
	run(t, cfg, c, false, Target{Games: stop})
	run(t, cfg, c, true, Target{Games: games})
	da, _ := os.ReadFile(a)
	for _, other := range []string{b, c} {
		if d, _ := os.ReadFile(other); !bytes.Equal(da, d) {
			t.Errorf("%s differs from %s", other, a)
		}
	}
	return c, last
}

// TestDeterministic wants the same file from one worker and from two, and
// from a run stopped and resumed.
func TestDeterministic(t *testing.T) {
	cfg := small()
	c, _ := sameRuns(t, cfg, t.TempDir(), 8, 3)
	cfg.Workers = 1
	cfg.Seed++
	if err := Run(context.Background(), cfg, c, true, Target{Games: 9}, nil); err == nil {
		t.Errorf("resumed with another seed")
	}
}

// TestPositions checks what a run writes: quiet positions, no two alike,
// one fold per game's chunk, results that agree within a game.
func TestPositions(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.pos")
	var last Progress
	cfg := small()
	if err := Run(context.Background(), cfg, path, false, Target{Positions: 100}, func(p Progress) { last = p }); err != nil {
		t.Fatal(err)
	}
	f, err := positions.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Records) < 100 || last.Positions != len(f.Records) || f.Games%cfg.ChunkGames != 0 {
		t.Fatalf("%d records in %d games, progress said %d", len(f.Records), f.Games, last.Positions)
	}
	if f.Settings != cfg.Settings() {
		t.Errorf("settings %q", f.Settings)
	}
	seen := map[uint64]bool{}
	for i := range f.Records {
		p := f.Records[i].Position()
		if !p.Quiet() {
			t.Errorf("record %d %s is not quiet", i, p.FEN())
		}
		if seen[p.Hash] {
			t.Errorf("record %d %s is a duplicate", i, p.FEN())
		}
		seen[p.Hash] = true
	}
}

// TestGameLabels plays single games and checks their labels: one fold per
// game, and one result, Black's, seen from each side to move.
func TestGameLabels(t *testing.T) {
	cfg := small()
	cfg.LabelDepth = 2
	factory, err := eval.Load(cfg.Eval)
	if err != nil {
		t.Fatal(err)
	}
	g := &generator{cfg: cfg, factory: factory, openings: openings()}
	recs, err := g.play(context.Background(), 0, 4)
	if err != nil {
		t.Fatal(err)
	}
	for game, gr := range recs {
		list := gr.recs
		if len(list) == 0 {
			t.Fatalf("game %d gave no positions", game)
		}
		black := -1 // Black's result
		for _, k := range list {
			r := k.rec
			res := int(r.Result)
			if r.WhiteToMove {
				res = positions.Win - res
			}
			if black >= 0 && res != black || r.Fold != fold(cfg.Seed, game) {
				t.Fatalf("game %d: results or folds disagree", game)
			}
			black = res
		}
	}
}

func TestRefuses(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.pos")
	bad := small()
	bad.Nodes, bad.Depth = 0, 0
	for _, c := range []struct {
		cfg    Config
		target Target
	}{
		{bad, Target{Games: 1}},
		{small(), Target{}},
		{func() Config { c := small(); c.Eval = "nosuch"; return c }(), Target{Games: 1}},
	} {
		if err := Run(context.Background(), c.cfg, path, false, c.target, nil); err == nil {
			t.Errorf("%+v %+v: no error", c.cfg, c.target)
		}
	}
	if err := Run(context.Background(), small(), filepath.Join(t.TempDir(), "none.pos"), true, Target{Games: 1}, nil); err == nil {
		t.Errorf("resumed a missing file")
	}
}

func TestKeySet(t *testing.T) {
	s := newKeySet(0)
	for k := uint64(0); k < 5000; k++ {
		if !s.add(k * 0x1234567) {
			t.Fatalf("key %d was there already", k)
		}
	}
	for k := uint64(0); k < 5000; k++ {
		if s.add(k * 0x1234567) {
			t.Fatalf("key %d was lost", k)
		}
	}
	if s.len() != 5000 {
		t.Errorf("len %d", s.len())
	}
}

func TestProgressLine(t *testing.T) {
	p := Progress{Games: 10, Positions: 900, NewPositions: 300, Elapsed: 90 * time.Minute, Seen: 400}
	if got, want := p.String(), "games 10, positions 900 (+300 in 1h30m0s, 200/hour, 75% of quiet positions new)"; got != want {
		t.Errorf("line %q, want %q", got, want)
	}
	p.DB, p.Ends = true, Endings{Rules: 1, DB: 5, Limit: 2}
	if got := p.String(); !strings.HasSuffix(got, "new); games ended by the endgame database 5, by the rules 1, at the ply limit 2") {
		t.Errorf("line with a database %q", got)
	}
	if got := (Progress{}).String(); !strings.HasSuffix(got, "0% of quiet positions new)") {
		t.Errorf("empty progress line %q", got)
	}
}
