package datagen

import (
	"bytes"
	"context"
	"io/fs"
	"math/bits"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/egdb"
	"github.com/nechecb/nechecb/engine/egdb/embedded"
	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/internal/badinput"
	"github.com/nechecb/nechecb/internal/player"
	"github.com/nechecb/nechecb/internal/workunit"
	"github.com/nechecb/nechecb/train/positions"
)

// withDB is small() searching with the built-in database, with games long
// enough to reach it.
func withDB() Config {
	c := small()
	c.DB, c.MaxPlies, c.ChunkGames = EmbeddedDB, 300, 4
	return c
}

func pieces(p *engine.Position) int { return bits.OnesCount64(p.Pieces[0] | p.Pieces[1]) }

// TestDBDeterministic wants the same file, with the database's piece count
// in its settings and no position the database settles, from one worker,
// two workers and a resumed run, and games that the database ended.
func TestDBDeterministic(t *testing.T) {
	cfg := withDB()
	c, last := sameRuns(t, cfg, t.TempDir(), 8, 4)
	if last.Ends.DB == 0 {
		t.Fatalf("no game of 8 reached the database: %s", last)
	}
	f, err := positions.ReadFile(c)
	if err != nil {
		t.Fatal(err)
	}
	cfg.DBPieces = embedded.Pieces
	if f.Settings != cfg.Settings() || !strings.HasSuffix(f.Settings, "\negdb=5 pieces\n") {
		t.Errorf("settings %q", f.Settings)
	}
	for i := range f.Records {
		if p := f.Records[i].Position(); pieces(&p) <= embedded.Pieces {
			t.Errorf("record %d %s is in the database", i, p.FEN())
		}
	}
	noDB := small()
	noDB.MaxPlies, noDB.ChunkGames = 300, 4
	if err := Run(context.Background(), noDB, c, true, Target{Games: 12}, nil); err == nil || !badinput.Is(err) {
		t.Errorf("resumed a database run without the database: %v", err)
	}
}

// copyDB writes the built-in database's slices of up to most pieces into
// a new folder.
func copyDB(t *testing.T, most int) string {
	t.Helper()
	dir := t.TempDir()
	names, err := fs.Glob(embedded.FS(), "*"+egdb.FileExt)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range names {
		n := 0 // the name counts each kind of piece: b1m1k-w2m.egdb
		for _, c := range name {
			if c >= '0' && c <= '9' {
				n += int(c - '0')
			}
		}
		if n > most {
			continue
		}
		data, err := fs.ReadFile(embedded.FS(), name)
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, name), data, 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestDBFolder wants a folder of the same slices to give the built-in
// database's file (the settings name the pieces, not the place), and a
// resume with a smaller database refused.
func TestDBFolder(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "a.pos"), filepath.Join(dir, "b.pos")
	cfg := withDB()
	run(t, cfg, a, false, Target{Games: 4})
	cfg.DB = copyDB(t, 5)
	run(t, cfg, b, false, Target{Games: 4})
	if da, db := must(os.ReadFile(a)), must(os.ReadFile(b)); !bytes.Equal(da, db) {
		t.Errorf("a folder of the built-in slices gives another file")
	}
	cfg.DB = copyDB(t, 4)
	err := Run(context.Background(), cfg, a, true, Target{Games: 8}, nil)
	if err == nil || !badinput.Is(err) {
		t.Errorf("resumed a 5-piece run with a 4-piece database: %v", err)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// TestBadDB wants a missing folder and a folder without a database refused
// as bad input, before any file is written.
func TestBadDB(t *testing.T) {
	dir := t.TempDir()
	for _, db := range []string{filepath.Join(dir, "none"), dir} {
		cfg := withDB()
		cfg.DB = db
		path := filepath.Join(dir, "d.pos")
		err := Run(context.Background(), cfg, path, false, Target{Games: 1}, nil)
		if err == nil || !badinput.Is(err) || !strings.Contains(err.Error(), db) {
			t.Errorf("--db %s: %v", db, err)
		}
		if _, serr := os.Stat(path); serr == nil {
			t.Errorf("--db %s: the file was written", db)
		}
	}
}

// TestAdjudication plays games from hand-made positions near an ending:
// each must end at the first position the database settles, with its
// value, and label the positions before it with that result.
func TestAdjudication(t *testing.T) {
	cfg := withDB()
	cfg.DBPieces = embedded.Pieces
	factory, err := eval.Load(cfg.Eval)
	if err != nil {
		t.Fatal(err)
	}
	s, err := NewSearcher(cfg, factory)
	if err != nil {
		t.Fatal(err)
	}
	db, err := embedded.Open(1)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	starts := []string{
		"B:W18,26,30:B14,1,3",             // black must take 14x23 into five pieces
		"W:W22,25,26,K31:B9,10,K3",        // seven pieces, quiet
		"B:W21,22,23,K28:B5,6,11,K1",      // eight pieces
		"W:W27,K19:BK1,10",                // four pieces: settled at the start
		"B:W17,21,22,23,30:B5,6,9,10,K15", // ten pieces
	}
	byDB := 0
	for _, fen := range starts {
		start, err := engine.ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		gm := engine.NewGame(start)
		outcome, samples, err := s.Play(context.Background(), gm, 7)
		if err != nil {
			t.Fatal(err)
		}
		all := gm.Positions()
		last := all[len(all)-1]
		for k := range all[:len(all)-1] {
			if pieces(&all[k]) <= cfg.DBPieces {
				t.Errorf("%s: the game goes on past %s", fen, all[k].FEN())
			}
		}
		if settled(&last, cfg.DBPieces) {
			byDB++
			if want := outcomeOf(probeOutcome(db.Probe(&last)), last.Side); outcome != want {
				t.Errorf("%s: ends %v at %s, the database says %v", fen, outcome, last.FEN(), want)
			}
		}
		for _, sm := range samples {
			if pieces(&sm.Position) <= cfg.DBPieces {
				t.Errorf("%s: sample %s is in the database", fen, sm.Position.FEN())
			}
			if want := workunit.ResultFor(outcome, sm.Position.Side); sm.Result != want {
				t.Errorf("%s: sample %s labelled %d, the game gives %d", fen, sm.Position.FEN(), sm.Result, want)
			}
		}
	}
	if byDB < 3 {
		t.Errorf("%d of %d games ended by the database", byDB, len(starts))
	}
}

// probeOutcome turns an egdb value into the player's outcome.
func probeOutcome(v egdb.Value) player.Outcome {
	switch v {
	case egdb.Win:
		return player.DBWin
	case egdb.Loss:
		return player.DBLoss
	}
	return player.DBDraw
}

// TestSearchSeesDB wants the games' search, with the database, to score a
// position whose every line enters the database as the database says,
// which the search without one cannot.
func TestSearchSeesDB(t *testing.T) {
	db, err := embedded.Open(1)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	p, err := engine.ParseFEN("W:W21,K30:B5,K13,K15") // five pieces, white to move: a win for black
	if err != nil {
		t.Fatal(err)
	}
	want := probeOutcome(db.Probe(&p))
	if want != player.DBLoss {
		t.Fatalf("the database says %v; the test wants a loss", want)
	}
	// The same with a sixth piece, black to move: the search reaches
	// positions of five pieces within its depth, and only the database
	// tells it they are won.
	six, err := engine.ParseFEN("B:W21,K30:B5,K13,K15,1")
	if err != nil {
		t.Fatal(err)
	}
	factory, err := eval.Load("heuristic")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		db   string
		want bool
	}{{EmbeddedDB, true}, {"", false}} {
		cfg := withDB()
		cfg.DB, cfg.DBPieces = c.db, 0
		if c.db != "" {
			cfg.DBPieces = embedded.Pieces
		}
		s, err := NewSearcher(cfg, factory)
		if err != nil {
			t.Fatal(err)
		}
		r := s.w.eng.Search(context.Background(), six, nil, player.Limits{Depth: 3}, nil)
		if got := r.Score.IsKnownWin(); got != c.want {
			t.Errorf("db %q: score %d, a known win: %v", c.db, r.Score, got)
		}
	}
}
