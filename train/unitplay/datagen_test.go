package unitplay

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nechecb/nechecb/internal/workunit"
	"github.com/nechecb/nechecb/train/datagen"
)

// dbConfig is a quick datagen setting with the built-in endgame database
// and games long enough to reach it.
func dbConfig() datagen.Config {
	c := datagen.DefaultConfig
	c.Nodes, c.MaxPlies, c.ChunkGames, c.Workers, c.DB = 300, 300, 4, 2, datagen.EmbeddedDB
	return c
}

// TestDatagenUnitsWithDB plays a database run's games as units in process
// and wants the file the run's own workers write, and a worker refusing
// the units of a database larger than its own.
func TestDatagenUnitsWithDB(t *testing.T) {
	dir := t.TempDir()
	want, got := filepath.Join(dir, "want.pos"), filepath.Join(dir, "got.pos")
	cfg := dbConfig()
	var local, remote datagen.Endings
	if err := datagen.Run(context.Background(), cfg, want, false, datagen.Target{Games: 8}, func(p datagen.Progress) { local = p.Ends }); err != nil {
		t.Fatal(err)
	}
	if local.DB == 0 {
		t.Fatalf("no game reached the database: %+v", local)
	}
	r := &counting{Runner: &Local{Exec: newExecutor(t), Workers: 2}}
	cfg.Remote = &DatagenRemote{Runner: r, Batch: 3}
	if err := datagen.Run(context.Background(), cfg, got, false, datagen.Target{Games: 8}, func(p datagen.Progress) { remote = p.Ends }); err != nil {
		t.Fatal(err)
	}
	if remote != local {
		t.Errorf("endings through units %+v, in process %+v", remote, local)
	}
	a, errA := os.ReadFile(want)
	b, errB := os.ReadFile(got)
	if errA != nil || errB != nil || !bytes.Equal(a, b) || r.games != 8 {
		t.Errorf("units give another file (%d and %d bytes, %d games in units; %v %v)", len(a), len(b), r.games, errA, errB)
	}

	cfg.DBPieces = 6 // as a run with a 6-piece folder would send
	units := DatagenUnits(cfg, specOf(t, cfg.Eval), []datagen.Opening{{Game: 0, Moves: []string{"9-13"}, Seed: 1}}, 1)
	_, err := newExecutor(t).Execute(context.Background(), units[0])
	if err == nil || !strings.Contains(err.Error(), "6-piece endgame database") || !strings.Contains(err.Error(), "--db") {
		t.Errorf("a worker without a 6-piece database played its unit: %v", err)
	}
}

// specOf returns the plain-data form of an evaluator spec.
func specOf(t *testing.T, spec string) workunit.Evaluator {
	t.Helper()
	ev, err := SpecEvaluator(spec)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}
