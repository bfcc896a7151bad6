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

func TestBlockCodeRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	out := make([]uint32, blockWords)
	for trial := 0; trial < 300; trial++ {
		n := blockSize
		if trial%3 == 0 {
			n = 1 + rng.IntN(blockSize)
		}
		vals := randomRuns(rng, n, []float64{0, 0.1, 0.5, 1}[trial%4])
		code := encodeBlock(nil, vals)
		if err := decodeBlock(code, n, out); err != nil {
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

func TestBlockDecodeRefusesBadCode(t *testing.T) {
	out := make([]uint32, blockWords)
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
		{"bytes after the end", []byte{0, 0, 0}, 8, errBlockLong},
		{"literal past the end, then more", []byte{0, 0}, 3, errBlockLong},
	} {
		if err := decodeBlock(tc.code, tc.n, out); err != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
	if err := decodeBlock([]byte{0}, 3, out); err != nil {
		t.Errorf("a last literal reaching past the end: %v", err)
	}
}

func FuzzDecodeBlock(f *testing.F) {
	f.Add([]byte{0, 80, 81, 255}, 100)
	f.Add(encodeBlock(nil, randomRuns(rand.New(rand.NewPCG(2, 2)), 5000, 0.2)), 5000)
	out := make([]uint32, blockWords)
	f.Fuzz(func(t *testing.T, code []byte, n int) {
		if n < 1 || n > blockSize {
			return
		}
		if err := decodeBlock(code, n, out); err != nil {
			return
		}
		for i := 0; i < n; i++ {
			if out[i>>4]>>(uint(i&15)*2)&3 == 0 {
				t.Fatalf("decoded block leaves position %d empty", i)
			}
		}
	})
}
