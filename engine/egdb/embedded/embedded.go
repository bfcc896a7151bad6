// Package embedded holds the endgame database compiled into the binary:
// every slice of up to Pieces pieces (about 1.7 MB), so that an engine
// plays simple endings perfectly with no database files.
//
// The slice files in slices/ are generated, not written: from the
// module's root,
//
//	rm -rf engine/egdb/embedded/slices
//	go run ./cmd/nechecb egdb build --pieces 5 --dir engine/egdb/embedded/slices
//	go run ./cmd/nechecb egdb verify --dir engine/egdb/embedded/slices
//
// The builder writes the same bytes whatever its threads and memory, and
// engine/egdb's TestEmbeddedIsTheBuild compares these files with the ones
// its tests build, so a change to the builder, the index or the file
// format that would leave them stale fails there.
package embedded

import (
	"embed"
	"io/fs"

	"github.com/nechecb/nechecb/engine/egdb"
)

// Pieces is the most pieces of a position the embedded database holds.
const Pieces = 5

// Name stands for the embedded database where a directory would be named:
// in DB.Dir and in the database's messages.
const Name = "(embedded)"

//go:embed slices/*.egdb
var files embed.FS

// FS returns the embedded slice files, at its root.
func FS() fs.FS {
	sub, err := fs.Sub(files, "slices")
	if err != nil {
		panic(err) // fs.Sub fails only for an invalid name, and "slices" is valid
	}
	return sub
}

// Open opens the embedded database with a cache of decoded blocks of about
// cacheMB megabytes. Its files are read from the binary's memory.
func Open(cacheMB int) (*egdb.DB, error) {
	return egdb.OpenFS(FS(), Name, cacheMB)
}
