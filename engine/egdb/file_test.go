package egdb

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/nechecb/nechecb/engine"
)

// solveAgain solves slice m afresh, reading the slices it leads into from
// db.
func solveAgain(t *testing.T, db *DB, m Material) *sliceBuild {
	t.Helper()
	st := &store{db: db}
	b := newSliceBuild(m, st)
	st.cur = b
	if err := b.solve(2); err != nil {
		t.Fatalf("solving %v again: %v", m, err)
	}
	return b
}

// TestFilesHoldTheValuesBuilt decodes every block of every stored slice of
// the test database and compares it with the values of a fresh solve: every
// position the file stores must decode to the value built.
func TestFilesHoldTheValuesBuilt(t *testing.T) {
	db := testDB(t)
	out := make([]uint32, blockWords)
	for _, m := range sampled(canonicalSlices(testPieces())) {
		f := db.slots[m.code()]
		b := solveAgain(t, db, m)
		for c := engine.Black; c <= engine.White; c++ {
			if f.h.sides&(1<<c) == 0 {
				continue
			}
			cnt := countValues(b.vals[c], b.sh.size)
			if cnt[Unknown] != 0 || cnt[Win] != f.h.t[c].wins || cnt[Loss] != f.h.t[c].losses || cnt[Draw] != f.h.t[c].draws {
				t.Errorf("%v side %d: solved %v (unknown, loss, draw, win), the header says W%d L%d D%d", m, c, cnt, f.h.t[c].wins, f.h.t[c].losses, f.h.t[c].draws)
			}
			for blk := uint64(0); blk < f.h.t[c].blocks; blk++ {
				if _, err := f.readBlock(int(c), blk, nil, out); err != nil {
					t.Fatal(err)
				}
				for i := 0; i < f.blockPositions(blk); i++ {
					idx := blk<<blockShift + uint64(i)
					if b.caps[c][idx>>5]>>(idx&31)&1 != 0 {
						continue
					}
					if got, want := Value(out[i>>4]>>(uint(i&15)*2)&3), b.get(c, idx); got != want {
						t.Fatalf("%v side %d position %d: file holds %v, built %v", m, c, idx, got, want)
					}
				}
			}
		}
	}
}

// smallFile returns the bytes of a small stored slice file of the test
// database.
func smallFile(t testing.TB, m Material) []byte {
	t.Helper()
	testDB(t)
	data, err := os.ReadFile(filepath.Join(testDBDir, SliceFileName(m)))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

func TestFlippedByteIsDetected(t *testing.T) {
	for _, m := range []Material{{BK: 2, WK: 1}, {BM: 1, BK: 1, WK: 1}} {
		data := smallFile(t, m)
		if _, err := openSliceFile("x", bytes.NewReader(data), int64(len(data))); err != nil {
			t.Fatalf("%v: the intact file fails: %v", m, err)
		}
		for i := range data {
			for _, flip := range []byte{1, 0x80} {
				bad := bytes.Clone(data)
				bad[i] ^= flip
				f, err := openSliceFile("x", bytes.NewReader(bad), int64(len(bad)))
				if err == nil {
					err = f.checkData()
				}
				if err == nil {
					t.Fatalf("%v: byte %d of %d xor %#x goes unnoticed", m, i, len(data), flip)
				}
			}
		}
	}
}

// TestDamagedBlockIsCaughtByTheProbe flips a byte inside a block: opening
// succeeds (only Verify reads every block), the probe that needs the block
// reports the file by name and answers Unknown, never a wrong value.
func TestDamagedBlockIsCaughtByTheProbe(t *testing.T) {
	good := testDB(t)
	dir := t.TempDir()
	copyDir(t, testDBDir, dir)
	m := Material{BK: 2, WK: 1}
	name := filepath.Join(dir, SliceFileName(m))
	data, _ := os.ReadFile(name)
	f, err := openSliceFile(name, bytes.NewReader(data), int64(len(data)))
	if err != nil {
		t.Fatal(err)
	}
	data[f.h.t[0].dataOff+f.index[0][0]+6] ^= 0xFF // inside block 0 of Black's table
	if err := os.WriteFile(name, data, 0o644); err != nil {
		t.Fatal(err)
	}
	db, err := Open(dir, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if p := db.Problems(); len(p) != 0 {
		t.Fatalf("problems on opening: %v", p)
	}
	unknown := compareProbes(t, good, db, 3)
	if unknown == 0 {
		t.Fatal("no probe met the damaged block")
	}
	if p := db.Problems(); len(p) != 1 || !bytes.Contains([]byte(p[0].Error()), []byte(name)) {
		t.Fatalf("problems after probing: %v, want one naming %s", p, name)
	}
}

func TestMissingAndUnreadableFiles(t *testing.T) {
	good := testDB(t)
	dir := t.TempDir()
	copyDir(t, testDBDir, dir)
	missing := filepath.Join(dir, SliceFileName(Material{BK: 2, WM: 1}))
	os.Remove(missing)
	garbled := filepath.Join(dir, SliceFileName(Material{BM: 1, BK: 1, WK: 1}))
	os.WriteFile(garbled, []byte("not a database"), 0o644)
	db, err := Open(dir, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if db.Pieces() != 2 {
		t.Errorf("with two 3-piece slices gone, Pieces is %d, want 2", db.Pieces())
	}
	p := db.Problems()
	text := ""
	for _, e := range p {
		text += e.Error() + "\n"
	}
	for _, name := range []string{missing, garbled} {
		if !bytes.Contains([]byte(text), []byte(name)) {
			t.Errorf("problems do not name %s:\n%s", name, text)
		}
	}
	if compareProbes(t, good, db, 3) == 0 {
		t.Error("no probe met a missing slice")
	}
	if _, err := Open(t.TempDir(), 1); err == nil {
		t.Error("opening an empty directory succeeds")
	}
}

// compareProbes probes every position of the stored slices of up to n
// pieces in both databases: db must agree with good or say Unknown. It
// returns how many Unknowns it met.
func compareProbes(t *testing.T, good, db *DB, n int) int {
	t.Helper()
	unknown := 0
	for _, m := range Slices(n) {
		sh := shapeOf(m)
		for c := engine.Black; c <= engine.White; c++ {
			it := newIter(sh, c, 0, sh.size)
			for it.next() {
				p := it.q.position()
				got, want := db.Probe(&p), good.Probe(&p)
				if got == Unknown {
					unknown++
				} else if got != want {
					t.Fatalf("%s: %v, the intact database says %v", p.FEN(), got, want)
				}
			}
		}
	}
	return unknown
}

func copyDir(t *testing.T, from, to string) {
	t.Helper()
	names, _ := filepath.Glob(filepath.Join(from, "*"+FileExt))
	for _, n := range names {
		data, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(to, filepath.Base(n)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func FuzzSliceFile(f *testing.F) {
	for _, m := range []Material{{BK: 1, WK: 1}, {BK: 2, WK: 1}, {BM: 1, WM: 1}} {
		f.Add(smallFile(f, m))
	}
	f.Add([]byte(fileMagic))
	out := make([]uint32, blockWords)
	f.Fuzz(func(t *testing.T, data []byte) {
		sf, err := openSliceFile("fuzz", bytes.NewReader(data), int64(len(data)))
		if err != nil {
			return
		}
		sf.checkData()
		var buf []byte
		for c := range sf.index {
			for b := uint64(0); b+1 < uint64(len(sf.index[c])); b++ {
				buf, _ = sf.readBlock(c, b, buf, out)
			}
		}
	})
}
