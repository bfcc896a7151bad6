package egdb_test

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/nechecb/nechecb/engine/egdb"
	"github.com/nechecb/nechecb/engine/egdb/embedded"
)

// TestEmbeddedIsTheBuild compares the embedded slice files with the ones
// the tests build: the same names, every slice up to embedded.Pieces, and
// the same bytes for every slice the tests built (all of them without
// -short; up to 4 pieces under it, when the rest is checked against its
// checksums only). A change to the builder or the format that leaves the
// embedded files stale fails here; engine/egdb/embedded says how to
// regenerate them.
func TestEmbeddedIsTheBuild(t *testing.T) {
	dir, pieces := egdb.BuiltTestDB(t)
	want := fileNames(embedded.Pieces)
	got, err := fs.Glob(embedded.FS(), "*")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("embedded files %v, want %v", got, want)
	}
	compared := fileNames(min(pieces, embedded.Pieces))
	for _, name := range compared {
		built, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		emb, err := fs.ReadFile(embedded.FS(), name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(built, emb) {
			t.Errorf("%s: the embedded file (%d bytes) differs from the one built (%d bytes): regenerate it", name, len(emb), len(built))
		}
	}
	db, err := embedded.Open(1)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, err := range append(db.Problems(), egdb.CheckData(db)...) {
		t.Error(err)
	}
	t.Logf("%d embedded slice files, %d compared byte for byte with the build of %d pieces", len(got), len(compared), pieces)
}

// fileNames returns the names of the slice files of a database of up to
// n pieces, sorted.
func fileNames(n int) []string {
	var names []string
	for _, m := range egdb.Slices(n) {
		if name := egdb.SliceFileName(m); !slices.Contains(names, name) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return names
}
