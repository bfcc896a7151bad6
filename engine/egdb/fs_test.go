package egdb

import (
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// smallFS returns the slice files of up to 3 pieces of the test database
// in a map file system.
func smallFS(t *testing.T) fstest.MapFS {
	t.Helper()
	testDB(t)
	m := fstest.MapFS{}
	for _, s := range canonicalSlices(3) {
		data, err := os.ReadFile(filepath.Join(testDBDir, SliceFileName(s)))
		if err != nil {
			t.Fatal(err)
		}
		m[SliceFileName(s)] = &fstest.MapFile{Data: data}
	}
	return m
}

// plainFS hides everything of its files but fs.File, io.ReaderAt included
// (and lists its root for fs.Glob).
type plainFS struct{ fsys fs.FS }

// plainFile is a file with only the methods of fs.File.
type plainFile struct{ f fs.File }

func (p plainFS) Open(name string) (fs.File, error) {
	f, err := p.fsys.Open(name)
	if err != nil {
		return nil, err
	}
	return plainFile{f}, nil
}

func (p plainFS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(p.fsys, name) }

func (f plainFile) Stat() (fs.FileInfo, error) { return f.f.Stat() }
func (f plainFile) Read(b []byte) (int, error) { return f.f.Read(b) }
func (f plainFile) Close() error               { return f.f.Close() }

// TestOpenFSReadsTheSameValues opens the same files from a directory, from
// a file system whose files are io.ReaderAt and from one whose files are
// read whole: every probe agrees.
func TestOpenFSReadsTheSameValues(t *testing.T) {
	good := testDB(t)
	m := smallFS(t)
	if _, ok := mustOpen(t, m, SliceFileName(Material{BK: 1, WK: 1})).(io.ReaderAt); !ok {
		t.Fatal("the map's files are no io.ReaderAt: the test would read every file whole")
	}
	for name, fsys := range map[string]fs.FS{"map": m, "plain": plainFS{m}} {
		db, err := OpenFS(fsys, name, 1)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if p := db.Problems(); len(p) > 0 || db.Pieces() != 3 || db.Dir() != name {
			t.Errorf("%s: pieces %d, dir %q, problems %v; want 3, %q, none", name, db.Pieces(), db.Dir(), p, name)
		}
		if n := compareProbes(t, good, db, 3); n != 0 {
			t.Errorf("%s: %d probes unknown", name, n)
		}
		if err := db.Close(); err != nil {
			t.Errorf("%s: closing: %v", name, err)
		}
	}
}

func mustOpen(t *testing.T, fsys fs.FS, name string) fs.File {
	t.Helper()
	f, err := fsys.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// TestOpenFSNamesItsFiles checks that the problems of a file system's
// database name the file under the name given, and that one with no slice
// file is refused by that name.
func TestOpenFSNamesItsFiles(t *testing.T) {
	m := smallFS(t)
	garbled := SliceFileName(Material{BM: 1, BK: 1, WK: 1})
	m[garbled] = &fstest.MapFile{Data: []byte("not a database")}
	delete(m, SliceFileName(Material{BK: 2, WM: 1}))
	db, err := OpenFS(m, "inside", 1)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if db.Pieces() != 2 {
		t.Errorf("with two 3-piece slices gone, Pieces is %d, want 2", db.Pieces())
	}
	var text strings.Builder
	for _, e := range db.Problems() {
		text.WriteString(e.Error() + "\n")
	}
	for _, want := range []string{"inside/" + garbled + ": 14 bytes, shorter than a header", "inside/" + SliceFileName(Material{BK: 2, WM: 1}) + ": missing"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("problems do not say %q:\n%s", want, text.String())
		}
	}
	if _, err := OpenFS(fstest.MapFS{"notes.txt": {}}, "nothing", 1); err == nil || !strings.Contains(err.Error(), "nothing holds no endgame database files") {
		t.Errorf("opening a file system with no slice file: %v", err)
	}
}
