package egdb

import (
	"errors"
	"fmt"
)

// The block code. A block holds the values of up to blockSize consecutive
// positions as a string of bytes, each of which writes the values of the
// next few positions:
//
//   - a byte below litCodes writes four positions, its base-3 digits (least
//     significant first) being value-1 of each;
//   - a byte b from litCodes on writes a run: (b-litCodes)%3+1 is the value
//     and runLens[(b-litCodes)/3] the number of positions.
//
// The last literal of a block may reach past its end; the digits past it
// are ignored. The bytes are then coded again, each table with a Huffman
// code of its own (huffman.go). Positions the table leaves free (captures, see format.go) may take
// any value: the encoder gives them the one that makes the runs longest.

const (
	litCodes = 81 // 3^4 literals
	runCodes = (256 - litCodes) / 3
	minRun   = 5
)

// runLens are the run lengths a byte can write: every length from minRun
// to 16, then about a fifth longer each time.
var runLens [runCodes]int

// litValues[b] holds the four values of literal b, two bits each, first
// position lowest.
var litValues [litCodes]uint8

func init() {
	l := minRun
	for i := range runLens {
		runLens[i] = l
		if l < 16 {
			l++
		} else {
			l += l / 5
		}
	}
	for b := 0; b < litCodes; b++ {
		x := b
		for i := 0; i < 4; i++ {
			litValues[b] |= uint8(x%3+1) << (2 * i)
			x /= 3
		}
	}
}

// encodeBlock appends the code of vals (values 1..3, or 0 for a position
// whose value does not matter) to dst.
func encodeBlock(dst []byte, vals []uint8) []byte {
	n := len(vals)
	for i := 0; i < n; {
		// The run that starts here: its value is the first that matters.
		j := i
		for j < n && vals[j] == 0 {
			j++
		}
		v := uint8(1)
		if j < n {
			v = vals[j]
		}
		k := j
		for k < n && (vals[k] == 0 || vals[k] == v) {
			k++
		}
		if r := k - i; r >= minRun {
			for r >= minRun {
				c := largestRun(r)
				dst = append(dst, byte(litCodes+3*c+int(v-1)))
				r -= runLens[c]
				i += runLens[c]
			}
			continue
		}
		// A literal of four: a free position copies the one before it (or
		// the run's value at the start) so that literals repeat.
		code, mult, prev := 0, 1, v
		for t := 0; t < 4; t++ {
			x := prev
			if i+t < n && vals[i+t] != 0 {
				x = vals[i+t]
			}
			code += int(x-1) * mult
			mult *= 3
			prev = x
		}
		dst = append(dst, byte(code))
		i += 4
	}
	return dst
}

// largestRun returns the class of the longest run length not above r (r is
// at least minRun).
func largestRun(r int) int {
	lo, hi := 0, runCodes-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if runLens[mid] <= r {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

var (
	errBlockShort = errors.New("block code ends before the block")
	errBlockLong  = errors.New("block code runs past the block")
	errBadSymbol  = errors.New("block code holds an unused byte")
)

// decodeBlock decodes the code src of a block of n positions, whose
// symbols are coded with d, into out, two bits a position, sixteen to a
// word (out must hold (n+15)/16 words; they are overwritten).
func decodeBlock(src []byte, n int, out []uint32, d *huffDecoder) error {
	if len(out) < (n+15)/16 {
		return fmt.Errorf("decode: %d words for %d positions", len(out), n)
	}
	clear(out[:(n+15)/16])
	r := bitReader{src: src}
	for p := 0; p < n; {
		b, err := r.next(d)
		if err != nil {
			return err
		}
		if b < litCodes {
			lit := uint64(litValues[b])
			if p+4 > n {
				lit &= 1<<(2*(n-p)) - 1
			}
			w, sh := p>>4, uint(p&15)*2
			out[w] |= uint32(lit << sh)
			if hi := uint32(lit >> (32 - sh)); hi != 0 {
				out[w+1] |= hi
			}
			p += 4
			continue
		}
		c := int(b) - litCodes
		if c >= 3*runCodes {
			return errBadSymbol
		}
		l := runLens[c/3]
		if p+l > n {
			return errBlockLong
		}
		fillRun(out, p, l, uint32(c%3+1))
		p += l
	}
	if r.left() >= 8 {
		return errBlockLong
	}
	return nil
}

// fillRun writes value v into positions p..p+l-1 of out, which are zero.
func fillRun(out []uint32, p, l int, v uint32) {
	pattern := v * 0x55555555
	end := p + l
	for p < end && p&15 != 0 {
		out[p>>4] |= v << (uint(p&15) * 2)
		p++
	}
	for ; p+16 <= end; p += 16 {
		out[p>>4] = pattern
	}
	for ; p < end; p++ {
		out[p>>4] |= v << (uint(p&15) * 2)
	}
}
