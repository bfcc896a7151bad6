package nn

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval/evaltest"
)

// randomNet returns a net of layout l with random weights, small enough in
// the first layer that accumulators stay well inside int16, and a second
// layer's shift that the seed picks among the four a file can hold.
func randomNet(l Layout, seed uint64) *Net {
	rng := rand.New(rand.NewPCG(seed, 1))
	n := NewNet(l, 150)
	n.Note, n.SecondShift = "random", WeightShift+int(seed%4)
	for _, f := range n.First {
		for i := range f.W {
			f.W[i] = int16(rng.IntN(81) - 40)
		}
		for i := range f.B {
			f.B[i] = int16(rng.IntN(121) - 20)
		}
	}
	for i := range n.Heads {
		h := &n.Heads[i]
		for _, w := range [][]int8{h.W2, h.W3, h.W4} {
			for j := range w {
				w[j] = int8(rng.IntN(2*MaxWeight+1) - MaxWeight)
			}
		}
		for _, b := range [][]int32{h.B2, h.B3} {
			for j := range b {
				b[j] = int32(rng.IntN(20000) - 10000)
			}
		}
		h.B4 = int32(rng.IntN(2000) - 1000)
	}
	return n
}

var testLayouts = []Layout{
	{Stages: 4, Hidden: 32, L2: 32, L3: 32},
	{Stages: 1, Hidden: 16, L2: 64, L3: 32},
	{Stages: 4, SharedFirst: true, Hidden: 48, L2: 32, L3: 64},
	{Stages: 4, SplitHeads: true, Hidden: 32, L2: 32, L3: 32},
}

func TestActiveMatchesFeature(t *testing.T) {
	for _, p := range evaltest.RandomPositions(300, 3) {
		for _, persp := range []engine.Color{engine.Black, engine.White} {
			var want []int16
			for sq := 1; sq <= 32; sq++ {
				pc := p.PieceAt(sq)
				if pc == engine.Empty {
					continue
				}
				color := engine.Black
				if pc == engine.WhiteMan || pc == engine.WhiteKing {
					color = engine.White
				}
				if f := Feature(persp, color, pc == engine.BlackKing || pc == engine.WhiteKing, sq); f >= 0 {
					want = append(want, int16(f))
				}
			}
			var act [MaxActive]int16
			got := act[:Active(&p, persp, &act)]
			slices.Sort(got)
			slices.Sort(want)
			if !slices.Equal(want, got) {
				t.Fatalf("%v from %v: Feature gives inputs %v, Active %v", p, persp, want, got)
			}
			for _, f := range got {
				if f < 0 || f >= Inputs {
					t.Fatalf("input %d out of range", f)
				}
			}
		}
	}
}

func TestOutputIsSymmetric(t *testing.T) {
	for i, l := range testLayouts {
		n := randomNet(l, uint64(i))
		distinct := map[int32]bool{}
		for _, p := range evaltest.RandomPositions(200, uint64(10+i)) {
			r := p.Rotated()
			a, b := n.Output(&p), n.Output(&r)
			if a != b {
				t.Fatalf("%s: %v gives %d, turned round %d", l, p, a, b)
			}
			distinct[a] = true
		}
		if len(distinct) < 20 {
			t.Fatalf("%s: only %d distinct outputs over 200 positions: the net is not looking at the board", l, len(distinct))
		}
	}
}

func TestFileRoundTrip(t *testing.T) {
	for i, l := range testLayouts {
		n := randomNet(l, uint64(i))
		data := n.Format()
		if len(data) != FileSize(l, len(n.Note)) {
			t.Fatalf("%s: %d bytes, FileSize says %d", l, len(data), FileSize(l, len(n.Note)))
		}
		got, err := Read(bytes.NewReader(data), "x.nn")
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(n, got); diff != "" {
			t.Fatalf("%s: read back differs:\n%s", l, diff)
		}
	}
}

func TestReadErrorsNameFileAndOffset(t *testing.T) {
	good := randomNet(testLayouts[0], 1).Format()
	damaged := bytes.Clone(good)
	damaged[len(damaged)/2] ^= 1
	neg := bytes.Clone(good)
	for _, c := range []struct {
		name, want string
		data       []byte
	}{
		{"empty", "offset 0: the file ends inside", nil},
		{"magic", "offset 0: not an nn weight file", append([]byte("nchpat"), good[6:]...)},
		{"short", "the file ends early", good[:len(good)-1]},
		{"long", "after the checksum", append(bytes.Clone(good), 0)},
		{"damaged", "the file is damaged", damaged},
		{"stages", "offset 8: stages 3", func() []byte { b := bytes.Clone(good); b[8] = 3; return b }()},
		{"flags", "offset 10: flags 0x10", func() []byte { b := bytes.Clone(good); b[10] = 16; return b }()},
		{"min weight", "weight of -128", neg},
	} {
		if c.name == "min weight" {
			// A -128 in the first head's W2, with the checksum made good.
			off := headerSize + len("random") + 2*(Inputs*32+32)*4
			c.data[off] = 0x80
			fixCRC(c.data)
		}
		_, err := Read(bytes.NewReader(c.data), "w.nn")
		if err == nil || !strings.HasPrefix(err.Error(), "w.nn: offset ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want one naming w.nn, an offset and %q", c.name, err, c.want)
		}
	}
}

// fixCRC rewrites the checksum at the end of a file.
func fixCRC(b []byte) {
	binary.LittleEndian.PutUint32(b[len(b)-4:], crc32.ChecksumIEEE(b[:len(b)-4]))
}

func FuzzRead(f *testing.F) {
	f.Add(randomNet(Layout{Stages: 1, Hidden: 16, L2: 32, L3: 32}, 1).Format())
	f.Add([]byte("nchnet"))
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := Read(bytes.NewReader(data), "fuzz.nn")
		if err != nil {
			if !strings.HasPrefix(err.Error(), "fuzz.nn: offset ") {
				t.Fatalf("error %q does not name the file and an offset", err)
			}
			return
		}
		if !bytes.Equal(n.Format(), data) {
			t.Fatal("a file read without error is not written back the same")
		}
	})
}

// A file's flags carry the second layer's shift: the committed net reads
// with the shift its file names, and every shift a file can hold is
// written and read back.
func TestSecondShiftInFile(t *testing.T) {
	n, err := Read(bytes.NewReader(defaultFile), "default.nn")
	if err != nil {
		t.Fatal(err)
	}
	flags := binary.LittleEndian.Uint16(defaultFile[10:])
	if want := WeightShift + int(flags>>1&3); n.SecondShift != want {
		t.Errorf("the default net's second layer shifts by %d, its flags %#x say %d", n.SecondShift, flags, want)
	}
	for shift := WeightShift; shift <= WeightShift+3; shift++ {
		n.SecondShift = shift
		back, err := Read(bytes.NewReader(n.Format()), "n.nn")
		if err != nil || back.SecondShift != shift {
			t.Errorf("shift %d written and read back: %v, %v", shift, back.SecondShift, err)
		}
	}
}

// TestSelect: the stages' split and, in a layout that splits its heads,
// the even-material head before the other.
func TestSelect(t *testing.T) {
	split := Layout{Stages: 4, SplitHeads: true, Hidden: 16, L2: 32, L3: 32}
	shared := Layout{Stages: 4, SharedFirst: true, Hidden: 16, L2: 32, L3: 32}
	for _, c := range []struct {
		fen              string
		stage, first, hd int
	}{
		{"B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12", 0, 0, 0},
		{"B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11", 0, 0, 1},
		{"W:W21,22,23,24,K25:B1,2,3,4,K5", 1, 1, 2},
		{"W:W21,22,23,24:B1,2,3,K4", 2, 2, 4},
		{"W:W21,22,K24:B1,2,K4,5", 2, 2, 5},
		{"B:WK21,22:BK1,2,3", 3, 3, 7},
	} {
		p, err := engine.ParseFEN(c.fen)
		if err != nil {
			t.Fatal(err)
		}
		if s := split.Stage(&p); s != c.stage {
			t.Errorf("%s: stage %d, want %d", c.fen, s, c.stage)
		}
		if f, h := split.Select(&p); f != c.first || h != c.hd {
			t.Errorf("%s: split heads select first layer %d and head %d, want %d and %d", c.fen, f, h, c.first, c.hd)
		}
		if f, h := shared.Select(&p); f != 0 || h != c.stage {
			t.Errorf("%s: a shared first layer selects %d and head %d, want 0 and %d", c.fen, f, h, c.stage)
		}
	}
}
