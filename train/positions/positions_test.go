package positions

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nechecb/nechecb/eval/evaltest"
)

// someRecords returns n records of random positions with random labels.
func someRecords(n int, seed uint64) []Record {
	rng := rand.New(rand.NewPCG(seed, 1))
	var out []Record
	for _, p := range evaltest.RandomPositions(n, seed) {
		out = append(out, NewRecord(&p, uint8(rng.IntN(3)), rng.IntN(2*ForcedScore+1)-ForcedScore, uint8(rng.IntN(256))))
	}
	return out
}

func TestRecordKeepsThePosition(t *testing.T) {
	for _, p := range evaltest.RandomPositions(500, 9) {
		r := NewRecord(&p, Win, 123, 7)
		q := r.Position()
		if !q.SameBoard(&p) || q.Hash != p.Hash {
			t.Fatalf("%s came back as %s", p.FEN(), q.FEN())
		}
	}
}

func TestRoundTrip(t *testing.T) {
	recs := someRecords(300, 1)
	path := filepath.Join(t.TempDir(), "d.pos")
	if err := WriteFile(path, "seed=1\n", 17, recs); err != nil {
		t.Fatal(err)
	}
	f, err := ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := &File{Settings: "seed=1\n", Records: recs, Games: 17}
	if diff := cmp.Diff(want, f); diff != "" {
		t.Errorf("(-written +read):\n%s", diff)
	}
}

// TestAppendAndResume writes chunks, tears the last one as a killed run
// would, and resumes: the torn chunk is dropped and the file goes on.
func TestAppendAndResume(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.pos")
	a, err := Create(path, "s")
	if err != nil {
		t.Fatal(err)
	}
	recs := someRecords(60, 2)
	if err := a.Append(3, recs[:20]); err != nil {
		t.Fatal(err)
	}
	if err := a.Append(2, recs[20:40]); err != nil {
		t.Fatal(err)
	}
	a.Close()
	if _, err := Create(path, "s"); err == nil {
		t.Errorf("Create replaced an existing file")
	}
	whole, _ := os.ReadFile(path)
	// Tear the second chunk.
	if err := os.WriteFile(path, whole[:len(whole)-7], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadFile(path); err == nil || !strings.Contains(err.Error(), "ends inside a chunk") {
		t.Errorf("Read of a torn file: %v", err)
	}
	if _, _, err := Resume(path, "other"); err == nil || !strings.Contains(err.Error(), "other settings") {
		t.Errorf("Resume with other settings: %v", err)
	}
	a, f, err := Resume(path, "s")
	if err != nil {
		t.Fatal(err)
	}
	if f.Games != 3 || len(f.Records) != 20 || a.Games() != 3 {
		t.Fatalf("resumed at %d games, %d records", f.Games, len(f.Records))
	}
	if err := a.Append(2, recs[40:]); err != nil {
		t.Fatal(err)
	}
	a.Close()
	f, err = ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := append(append([]Record{}, recs[:20]...), recs[40:]...)
	if f.Games != 5 || !cmp.Equal(f.Records, want) {
		t.Errorf("after resuming: %d games, records equal: %v", f.Games, cmp.Equal(f.Records, want))
	}
}

// TestReadRefuses damages a good file in each way the reader checks.
func TestReadRefuses(t *testing.T) {
	good := Format("abc", 4, someRecords(10, 3))
	le := binary.LittleEndian
	hdr := 12 + 3 + 4 // header size with a 3-byte settings text
	reseal := func(b []byte) []byte {
		le.PutUint32(b[len(b)-4:], crc32.ChecksumIEEE(b[hdr:len(b)-4]))
		return b
	}
	edit := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(good)) }
	rec := hdr + chunkHead // the first record
	cases := []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "offset 0: the file ends inside the header"},
		{"magic", edit(func(b []byte) []byte { b[0] = 'x'; return b }), "offset 0: not a positions file"},
		{"version", edit(func(b []byte) []byte { b[6] = 2; return b }), "offset 6: version 2"},
		{"header", edit(func(b []byte) []byte { b[12] = 'X'; return b }), "offset 15: header checksum"},
		{"chunk magic", edit(func(b []byte) []byte { b[hdr] = 'X'; return b }), "want a chunk"},
		{"first game", edit(func(b []byte) []byte { b[hdr+4] = 1; return reseal(b) }), "chunk starts at game 1, want 0"},
		{"no games", edit(func(b []byte) []byte { le.PutUint32(b[hdr+8:], 0); return reseal(b) }), "chunk of 0 games"},
		{"torn", good[:len(good)-1], "ends inside a chunk of 10 records"},
		{"checksum", edit(func(b []byte) []byte { b[rec+14]++; return b }), "the file is damaged"},
		{"colours", edit(func(b []byte) []byte { le.PutUint32(b[rec:], 1); le.PutUint32(b[rec+4:], 1); return reseal(b) }), "record 0: a square holds both colours"},
		{"flags", edit(func(b []byte) []byte { b[rec+12] |= 0x80; return reseal(b) }), "record 0: unknown flag bits"},
		{"result", edit(func(b []byte) []byte { b[rec+12] = 3 << 1; return reseal(b) }), "record 0: result 3"},
		{"crowned man", edit(func(b []byte) []byte {
			le.PutUint32(b[rec:], 1<<31)
			le.PutUint32(b[rec+4:], 0)
			le.PutUint32(b[rec+8:], 0)
			return reseal(b)
		}), "record 0: a man on its crowning row"},
	}
	for _, c := range cases {
		_, err := Read(bytes.NewReader(c.data), "d.pos")
		if err == nil || !strings.HasPrefix(err.Error(), "d.pos: offset ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one naming d.pos, an offset and %q", c.name, err, c.want)
		}
	}
}

func FuzzRead(f *testing.F) {
	f.Add(Format("x=1\n", 3, someRecords(5, 4)))
	f.Add(Format("", 0, nil))
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Read(bytes.NewReader(data), "f")
		if err != nil {
			return
		}
		for i := range file.Records {
			if msg := file.Records[i].check(); msg != "" {
				t.Fatalf("accepted record %d: %s", i, msg)
			}
		}
		// A file that reads writes back as one chunk that reads the same.
		again, err := Read(bytes.NewReader(Format(file.Settings, file.Games, file.Records)), "g")
		if err != nil {
			t.Fatalf("rewritten file does not read: %v", err)
		}
		if file.Games > 0 && !cmp.Equal(file, again) {
			t.Fatalf("rewritten file reads differently")
		}
	})
}
