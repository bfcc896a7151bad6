package books

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestReadsFileWrittenBefore reads testdata/before.book, written by the code
// as it was before the board packing moved into engine (see
// testdata/SOURCES): its positions must be those listed in before.fen, in
// the book's order, and writing the book again must give the file's bytes.
func TestReadsFileWrittenBefore(t *testing.T) {
	data, err := os.ReadFile("testdata/before.book")
	if err != nil {
		t.Fatal(err)
	}
	fens, err := os.ReadFile("testdata/before.fen")
	if err != nil {
		t.Fatal(err)
	}
	b, err := Read(bytes.NewReader(data), "before.book")
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Fields(string(fens))
	entries := b.Entries()
	if len(entries) != len(want) {
		t.Fatalf("%d entries, before.fen lists %d positions", len(entries), len(want))
	}
	for i, e := range entries {
		if got := e.Position.FEN(); got != want[i] {
			t.Errorf("entry %d is %s, want %s", i, got, want[i])
		}
	}
	var again bytes.Buffer
	if err := b.WriteBinary(&again); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again.Bytes(), data) {
		t.Errorf("the book writes %d bytes that differ from the %d of the file", again.Len(), len(data))
	}
}
