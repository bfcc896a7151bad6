package egdb

import (
	"math/rand/v2"
	"testing"
)

// randomRuns returns n values in runs of random lengths, with some
// positions free (0).
func randomRuns(rng *rand.Rand, n int, free float64) []uint8 {
	vals := make([]uint8, n)
	for i := 0; i < n; {
		v := uint8(1 + rng.IntN(3))
		l := 1 + rng.IntN(1<<uint(rng.IntN(18)))
		for j := i; j < min(n, i+l); j++ {
			vals[j] = v
			if rng.Float64() < free {
				vals[j] = 0
			}
		}
		i += l
	}
	return vals
}

// byteCode is the Huffman code with every symbol 8 bits long: the bits of a
// block are then its run-length bytes as they are.
func byteCode(t testing.TB) *huffDecoder {
	var lens [256]uint8
	for i := range lens {
		lens[i] = 8
	}
	d, err := newHuffDecoder(&lens)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestBlockCodeRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	out := make([]uint32, blockWords)
	ident := byteCode(t)
	for trial := 0; trial < 300; trial++ {
		n := blockSize
		if trial%3 == 0 {
			n = 1 + rng.IntN(blockSize)
		}
		vals := randomRuns(rng, n, []float64{0, 0.1, 0.5, 1}[trial%4])
		syms := encodeBlock(nil, vals)
		// Code the bytes with a Huffman code of their own, or with none.
		d, code := ident, syms
		if trial%2 == 0 {
			var counts [256]uint64
			for _, s := range syms {
				counts[s]++
			}
			c := buildCode(&counts)
			if d, code = mustDecoder(t, c), c.encodeBits(nil, syms); len(code) > len(syms) {
				t.Errorf("trial %d: Huffman code of %d bytes takes %d", trial, len(syms), len(code))
			}
		}
		if err := decodeBlock(code, n, out, d); err != nil {
			t.Fatalf("trial %d (%d positions): %v", trial, n, err)
		}
		for i, v := range vals {
			got := uint8(out[i>>4] >> (uint(i&15) * 2) & 3)
			if got == 0 || v != 0 && got != v {
				t.Fatalf("trial %d: position %d of %d decodes to %d, encoded %d", trial, i, n, got, v)
			}
		}
		// Nothing is written past the block.
		for i := n; i < (n+15)/16*16; i++ {
			if got := out[i>>4] >> (uint(i&15) * 2) & 3; got != 0 {
				t.Fatalf("trial %d: position %d past the block's %d holds %d", trial, i, n, got)
			}
		}
	}
}

func TestBlockCodeFillsFreePositionsIntoRuns(t *testing.T) {
	// Wins with every other position free code as one run, not literals.
	vals := make([]uint8, 1000)
	for i := range vals {
		if i%2 == 0 {
			vals[i] = uint8(Win)
		}
	}
	if code := encodeBlock(nil, vals); len(code) > 3 {
		t.Errorf("1000 wins with free positions between take %d bytes: %v", len(code), code)
	}
}

func mustDecoder(t testing.TB, c *huffCode) *huffDecoder {
	t.Helper()
	d, err := newHuffDecoder(&c.lens)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestBlockDecodeRefusesBadCode(t *testing.T) {
	out := make([]uint32, blockWords)
	ident := byteCode(t)
	run := func(c, v int) byte { return byte(litCodes + 3*c + v) }
	for _, tc := range []struct {
		name string
		code []byte
		n    int
		want error
	}{
		{"empty", nil, 10, errBlockShort},
		{"short", []byte{0, 0}, 10, errBlockShort},
		{"run past the end", []byte{run(0, 0)}, 4, errBlockLong},
		{"a byte after the end", []byte{0, 0, 0}, 8, errBlockLong},
		{"literal past the end, then more", []byte{0, 0}, 3, errBlockLong},
	} {
		if err := decodeBlock(tc.code, tc.n, out, ident); err != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
	if err := decodeBlock([]byte{0}, 3, out, ident); err != nil {
		t.Errorf("a last literal reaching past the end: %v", err)
	}
}

func TestHuffmanCodes(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for trial := 0; trial < 50; trial++ {
		var counts [256]uint64
		used := 1 + rng.IntN(256)
		for i := 0; i < used; i++ {
			// Skewed counts, some of them steep enough to need limiting.
			counts[rng.IntN(256)] += 1 + rng.Uint64N(1<<uint(rng.IntN(40)))
		}
		c := buildCode(&counts)
		var kraft float64
		for s, l := range c.lens {
			if (counts[s] > 0) != (l > 0) || l > maxCodeLen {
				t.Fatalf("trial %d: symbol %d counted %d has length %d", trial, s, counts[s], l)
			}
			if l > 0 {
				kraft += 1 / float64(uint(1)<<l)
			}
		}
		if kraft > 1 {
			t.Fatalf("trial %d: Kraft sum %v", trial, kraft)
		}
		d := mustDecoder(t, c)
		var syms []byte
		for s, x := range counts {
			for i := uint64(0); i < min(x, 3); i++ {
				syms = append(syms, byte(s))
			}
		}
		rng.Shuffle(len(syms), func(i, j int) { syms[i], syms[j] = syms[j], syms[i] })
		r := bitReader{src: c.encodeBits(nil, syms)}
		for i, want := range syms {
			if got, err := r.next(d); err != nil || got != want {
				t.Fatalf("trial %d: symbol %d decodes to %d (%v), coded %d", trial, i, got, err, want)
			}
		}
	}
	for _, lens := range []map[int]uint8{{}, {1: 13}, {1: 1, 2: 1, 3: 1}} {
		var l [256]uint8
		for s, x := range lens {
			l[s] = x
		}
		if _, err := newHuffDecoder(&l); err == nil {
			t.Errorf("lengths %v make a decoder", lens)
		}
	}
}

func FuzzDecodeBlock(f *testing.F) {
	f.Add([]byte{0, 80, 81, 255}, 100)
	f.Add(encodeBlock(nil, randomRuns(rand.New(rand.NewPCG(2, 2)), 5000, 0.2)), 5000)
	out := make([]uint32, blockWords)
	ident := byteCode(f)
	f.Fuzz(func(t *testing.T, code []byte, n int) {
		if n < 1 || n > blockSize {
			return
		}
		if err := decodeBlock(code, n, out, ident); err != nil {
			return
		}
		for i := 0; i < n; i++ {
			if out[i>>4]>>(uint(i&15)*2)&3 == 0 {
				t.Fatalf("decoded block leaves position %d empty", i)
			}
		}
	})
}
