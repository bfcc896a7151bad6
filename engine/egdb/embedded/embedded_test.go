package embedded

import (
	"testing"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/egdb"
)

// TestOpenHoldsEverySlice opens the embedded database: every slice up to
// Pieces present and whole, and positions of Pieces pieces answered.
// (engine/egdb's TestEmbeddedIsTheBuild compares the files with a build.)
func TestOpenHoldsEverySlice(t *testing.T) {
	db, err := Open(1)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if p := db.Problems(); len(p) > 0 || db.Pieces() != Pieces || db.Dir() != Name {
		t.Fatalf("pieces %d, dir %q, problems %v; want %d, %q, none", db.Pieces(), db.Dir(), p, Pieces, Name)
	}
	for _, tc := range []struct {
		fen  string
		want egdb.Value
	}{
		{"B:WK1,K5:BK18,K23,K27", egdb.Win}, // three kings beat two
		{"W:WK1,K5:BK18,K23,K27", egdb.Loss},
		{"B:WK1,K5:BK23,K27", egdb.Draw}, // two kings each
		{"B:W25,26,27,28:B1", egdb.Loss}, // four men against one
	} {
		p, err := engine.ParseFEN(tc.fen)
		if err != nil {
			t.Fatal(err)
		}
		if got := db.Probe(&p); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.fen, got, tc.want)
		}
	}
}
