package positions

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// TestReadsFileWrittenBefore reads testdata/before.positions, written by the
// code as it was before the board packing moved into engine (see
// testdata/SOURCES): every record must give the position listed in
// before.fen, and formatting the records again must give the file's bytes.
func TestReadsFileWrittenBefore(t *testing.T) {
	data, err := os.ReadFile("testdata/before.positions")
	if err != nil {
		t.Fatal(err)
	}
	fens, err := os.ReadFile("testdata/before.fen")
	if err != nil {
		t.Fatal(err)
	}
	f, err := Read(bytes.NewReader(data), "before.positions")
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Fields(string(fens))
	if len(f.Records) != len(want) {
		t.Fatalf("%d records, before.fen lists %d positions", len(f.Records), len(want))
	}
	for i := range f.Records {
		p := f.Records[i].Position()
		if got := p.FEN(); got != want[i] {
			t.Errorf("record %d is %s, want %s", i, got, want[i])
		}
		if again := NewRecord(&p, f.Records[i].Result, int(f.Records[i].Score), f.Records[i].Fold); again != f.Records[i] {
			t.Errorf("record %d packs again as %+v, read %+v", i, again, f.Records[i])
		}
	}
	if again := Format(f.Settings, f.Games, f.Records); !bytes.Equal(again, data) {
		t.Errorf("the records format to %d bytes that differ from the %d of the file", len(again), len(data))
	}
}
