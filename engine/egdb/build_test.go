package egdb

import (
	"context"
	"os"
	"sync"
	"testing"
)

// testPieces is the size of the database the tests build: 4 pieces under
// -short, 5 otherwise.
func testPieces() int {
	if testing.Short() {
		return 4
	}
	return 5
}

// sampled returns the slices a check solves again: all of them, or under
// -short those of fewer than testPieces() pieces and every fourth of the
// largest ones.
func sampled(ms []Material) []Material {
	if !testing.Short() {
		return ms
	}
	var out []Material
	largest := 0
	for _, m := range ms {
		if m.Pieces() < testPieces() {
			out = append(out, m)
		} else if largest++; largest%4 == 1 {
			out = append(out, m)
		}
	}
	return out
}

var (
	testDBOnce sync.Once
	testDBDir  string
	testDBErr  error
)

// testDB builds the test database once per test binary and opens it.
func testDB(t testing.TB) *DB {
	t.Helper()
	testDBOnce.Do(func() {
		dir, err := os.MkdirTemp("", "egdb-test")
		if err != nil {
			testDBErr = err
			return
		}
		testDBDir = dir
		testDBErr = Build(context.Background(), BuildOptions{Dir: dir, Pieces: testPieces(), Threads: 2, MemoryMB: 512})
	})
	if testDBErr != nil {
		t.Fatal(testDBErr)
	}
	db, err := Open(testDBDir, 64)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	if p := db.Problems(); len(p) > 0 {
		t.Fatalf("opening the test database: %v", p)
	}
	return db
}

func TestMain(m *testing.M) {
	code := m.Run()
	if testDBDir != "" {
		os.RemoveAll(testDBDir)
	}
	os.Exit(code)
}

// TestConsistency verifies the test database: every position of it, or
// under -short those of the slices sampled keeps (every file's checksum
// all the same).
func TestConsistency(t *testing.T) {
	db := testDB(t)
	if db.Pieces() != testPieces() {
		t.Fatalf("database holds %d pieces, want %d", db.Pieces(), testPieces())
	}
	var keep func(Material) bool
	if testing.Short() {
		some := map[Material]bool{}
		for _, m := range sampled(canonicalSlices(testPieces())) {
			some[m] = true
		}
		keep = func(m Material) bool { return some[m] }
	}
	var last VerifyProgress
	if errs := db.verify(context.Background(), 2, keep, func(p VerifyProgress) { last = p }); len(errs) > 0 {
		for _, e := range errs {
			t.Error(e)
		}
	}
	if last.Total == 0 || last.Done != last.Total {
		t.Errorf("verified %d of %d positions; want all of a sample that is not empty", last.Done, last.Total)
	}
	t.Logf("verified %d positions", last.Total)
}
