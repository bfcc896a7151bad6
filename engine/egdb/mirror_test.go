package egdb

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/nechecb/nechecb/engine"
)

// TestMirrorsAgree solves the slices that are not stored (the mirrors of
// stored ones) and the self-mirror slices for both sides to move, as if
// they were to be stored, and checks them position by position against the
// board turned round: a mirror against the stored slice, the two sides of
// a self-mirror slice against each other.
func TestMirrorsAgree(t *testing.T) {
	db := testDB(t)
	for _, m := range sampled(Slices(testPieces())) {
		if m.Canonical() && !m.SelfMirror() {
			continue
		}
		b := solveAgain(t, db, m)
		for c := engine.Black; c <= engine.White; c++ {
			it := newIter(b.sh, c, 0, b.sh.size)
			for it.next() {
				v := b.get(c, it.idx)
				r := it.q.rotated()
				var want Value
				if m.SelfMirror() {
					want = b.get(r.side, b.sh.index(r.bm, r.bk, r.wm, r.wk))
				} else {
					p := r.position()
					want = db.Probe(&p)
				}
				if v != want {
					p, rp := it.q.position(), r.position()
					t.Fatalf("%s is %v, but turned round, %s is %v", p.FEN(), v, rp.FEN(), want)
				}
			}
		}
	}
}

func TestBuildRefusesBadOptions(t *testing.T) {
	dir := t.TempDir()
	for _, o := range []BuildOptions{
		{Dir: dir, Pieces: 1, Threads: 1},
		{Dir: dir, Pieces: MaxPieces + 1, Threads: 1},
		{Dir: dir, Pieces: 3, Threads: 0},
		{Dir: dir, Pieces: 3, Threads: 1, MemoryMB: 5},
	} {
		if err := Build(context.Background(), o); err == nil {
			t.Errorf("Build(%+v) succeeds", o)
		}
	}
}

// TestResume builds 3 pieces, takes one slice away and damages another,
// and builds 4 pieces on with Resume (3 again under -short): the files kept are not rebuilt, the
// others are, and every file ends up as a build in one go writes it (the
// test database, which TestConsistency verifies). Without Resume the
// directory is refused.
func TestResume(t *testing.T) {
	dir := t.TempDir()
	if err := Build(context.Background(), BuildOptions{Dir: dir, Pieces: 3, Threads: 2}); err != nil {
		t.Fatal(err)
	}
	if err := Build(context.Background(), BuildOptions{Dir: dir, Pieces: 3, Threads: 2}); err == nil {
		t.Fatal("building into a directory with slice files and no Resume succeeds")
	}
	kept := filepath.Join(dir, SliceFileName(Material{BK: 2, WK: 1}))
	removed := filepath.Join(dir, SliceFileName(Material{BK: 1, WM: 2}))
	damaged := filepath.Join(dir, SliceFileName(Material{BM: 1, BK: 1, WK: 1}))
	before, _ := os.Stat(kept)
	os.Remove(removed)
	data, _ := os.ReadFile(damaged)
	data[len(data)-1] ^= 1
	os.WriteFile(damaged, data, 0o644)
	var slices []string
	top := 4
	if testing.Short() {
		top = 3
	}
	err := Build(context.Background(), BuildOptions{Dir: dir, Pieces: top, Threads: 2, Resume: true, Progress: func(p Progress) {
		if p.Slice != "" && p.Done <= p.Total {
			slices = append(slices, p.Slice)
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	after, _ := os.Stat(kept)
	if !after.ModTime().Equal(before.ModTime()) {
		t.Error("a whole slice file was rebuilt on resuming")
	}
	built := map[string]bool{}
	for _, s := range slices {
		built[s] = true
	}
	for _, m := range []Material{{BK: 1, WM: 2}, {BM: 1, BK: 1, WK: 1}} {
		if !built[canonical(m).String()] {
			t.Errorf("%v was not built again (progress named %v)", canonical(m), slices)
		}
	}
	// The resumed build wrote the very files a build in one go writes.
	testDB(t)
	for _, m := range canonicalSlices(top) {
		got, err := os.ReadFile(filepath.Join(dir, SliceFileName(m)))
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(filepath.Join(testDBDir, SliceFileName(m)))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%v: the resumed build's file differs from the test database's", m)
		}
	}
}

func TestBuildStopsWhenCancelled(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	n := 0
	err := Build(ctx, BuildOptions{Dir: dir, Pieces: 4, Threads: 1, Progress: func(p Progress) {
		if n++; n == 3 {
			cancel()
		}
	}})
	if err == nil {
		t.Fatal("a cancelled build reports success")
	}
	// What was written is whole: it opens cleanly.
	db, err := Open(dir, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if p := db.Problems(); len(p) > 0 && db.Pieces() < 2 {
		t.Fatalf("after cancelling: %v", p)
	}
	for _, f := range db.files {
		if err := f.checkData(); err != nil {
			t.Error(err)
		}
	}
}

func TestBuildReportsProgress(t *testing.T) {
	var reports []Progress
	err := Build(context.Background(), BuildOptions{Dir: t.TempDir(), Pieces: 3, Threads: 2, Progress: func(p Progress) {
		reports = append(reports, p)
	}})
	if err != nil {
		t.Fatal(err)
	}
	if len(reports) == 0 {
		t.Fatal("no progress reported")
	}
	var done uint64
	for _, p := range reports {
		if p.Done < done || p.Done > p.Total || p.SlicesDone > p.Slices || p.Memory == 0 {
			t.Fatalf("report %+v after %d positions done", p, done)
		}
		done = p.Done
	}
	last := reports[len(reports)-1]
	if last.Done != last.Total || last.SlicesDone != last.Slices || last.Slices != len(canonicalSlices(3)) || last.ETA != 0 {
		t.Errorf("last report %+v, want everything done", last)
	}
	var want uint64
	for _, m := range canonicalSlices(3) {
		want += 2 * shapeOf(m).size // both sides to move
	}
	if last.Total != want {
		t.Errorf("3 pieces: %d positions solved, want %d", last.Total, want)
	}
}
