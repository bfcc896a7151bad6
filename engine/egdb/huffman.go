package egdb

import (
	"container/heap"
	"errors"
	"sort"
)

// The bytes of the run-length code (rle.go) are not equally frequent: a
// few run lengths and literals dominate a table. Each table therefore has
// its own canonical Huffman code over those 256 symbols, stored as one code
// length per symbol (0 for an unused symbol, at most maxCodeLen), and its
// blocks hold the symbols' codes, most significant bit first, padded with
// zero bits to a whole byte.

const maxCodeLen = 12

// huffCode is a table's code: the length and bits of each symbol.
type huffCode struct {
	lens  [256]uint8
	codes [256]uint16
}

// huffDecoder maps the next maxCodeLen bits of a block to the symbol they
// start with and its length: entry = symbol<<4 | length, 0 for bits that
// start no code.
type huffDecoder [1 << maxCodeLen]uint16

// buildCode returns a code for symbols of the given counts whose lengths do
// not exceed maxCodeLen. Every counted symbol gets a code.
func buildCode(counts *[256]uint64) *huffCode {
	c := &huffCode{}
	cnt := *counts
	for {
		lens, ok := huffLengths(&cnt)
		if ok {
			c.lens = lens
			break
		}
		// Too deep: flatten the counts and try again.
		for i, x := range cnt {
			if x > 0 {
				cnt[i] = x/2 + 1
			}
		}
	}
	c.assign()
	return c
}

// huffLengths returns the Huffman code lengths of the counts, reporting
// false when one exceeds maxCodeLen.
func huffLengths(cnt *[256]uint64) ([256]uint8, bool) {
	var lens [256]uint8
	h := &nodeHeap{}
	type node struct{ left, right int }
	var nodes []node
	for s, x := range cnt {
		if x > 0 {
			nodes = append(nodes, node{-1, s})
			*h = append(*h, heapItem{x, len(nodes) - 1})
		}
	}
	switch len(nodes) {
	case 0:
		return lens, true
	case 1:
		lens[nodes[0].right] = 1
		return lens, true
	}
	heap.Init(h)
	for h.Len() > 1 {
		a := heap.Pop(h).(heapItem)
		b := heap.Pop(h).(heapItem)
		nodes = append(nodes, node{a.node, b.node})
		heap.Push(h, heapItem{a.weight + b.weight, len(nodes) - 1})
	}
	ok := true
	var walk func(n, depth int)
	walk = func(n, depth int) {
		if nd := nodes[n]; nd.left < 0 {
			if depth > maxCodeLen {
				ok = false
			}
			lens[nd.right] = uint8(min(depth, 255))
			return
		}
		walk(nodes[n].left, depth+1)
		walk(nodes[n].right, depth+1)
	}
	walk(len(nodes)-1, 0)
	return lens, ok
}

type heapItem struct {
	weight uint64
	node   int
}

type nodeHeap []heapItem

func (h nodeHeap) Len() int { return len(h) }
func (h nodeHeap) Less(i, j int) bool {
	if h[i].weight != h[j].weight {
		return h[i].weight < h[j].weight
	}
	return h[i].node < h[j].node
}
func (h nodeHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *nodeHeap) Push(x any)   { *h = append(*h, x.(heapItem)) }
func (h *nodeHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}

// assign gives the symbols their canonical codes from their lengths:
// shorter codes first, and within a length in symbol order.
func (c *huffCode) assign() {
	syms := make([]int, 0, 256)
	for s, l := range c.lens {
		if l > 0 {
			syms = append(syms, s)
		}
	}
	sort.Slice(syms, func(i, j int) bool {
		a, b := syms[i], syms[j]
		if c.lens[a] != c.lens[b] {
			return c.lens[a] < c.lens[b]
		}
		return a < b
	})
	code, prev := 0, 0
	for _, s := range syms {
		l := int(c.lens[s])
		code <<= l - prev
		prev = l
		c.codes[s] = uint16(code)
		code++
	}
}

var errBadCode = errors.New("code lengths do not form a prefix code")

// newHuffDecoder returns the decoding table of code lengths lens, refusing
// lengths that are too long, over-full or all zero.
func newHuffDecoder(lens *[256]uint8) (*huffDecoder, error) {
	c := &huffCode{lens: *lens}
	var kraft uint64
	used := 0
	for _, l := range lens {
		if l > maxCodeLen {
			return nil, errBadCode
		}
		if l > 0 {
			kraft += 1 << (maxCodeLen - l)
			used++
		}
	}
	if used == 0 || kraft > 1<<maxCodeLen {
		return nil, errBadCode
	}
	c.assign()
	d := &huffDecoder{}
	for s, l := range c.lens {
		if l == 0 {
			continue
		}
		first := int(c.codes[s]) << (maxCodeLen - l)
		for i := first; i < first+1<<(maxCodeLen-l); i++ {
			d[i] = uint16(s)<<4 | uint16(l)
		}
	}
	return d, nil
}

// encodeBits appends the codes of syms to dst, padded to a whole byte.
func (c *huffCode) encodeBits(dst []byte, syms []byte) []byte {
	var acc uint64
	n := uint(0)
	for _, s := range syms {
		acc = acc<<c.lens[s] | uint64(c.codes[s])
		n += uint(c.lens[s])
		for n >= 8 {
			n -= 8
			dst = append(dst, byte(acc>>n))
		}
	}
	if n > 0 {
		dst = append(dst, byte(acc<<(8-n)))
	}
	return dst
}

// bitReader reads codes most significant bit first.
type bitReader struct {
	src  []byte
	pos  int    // next byte of src to load
	acc  uint64 // bits loaded, left-aligned
	n    uint   // how many
	over uint   // zero bits supplied past the end
}

// next decodes one symbol with d.
func (r *bitReader) next(d *huffDecoder) (byte, error) {
	for r.n <= 56 {
		var b byte
		if r.pos < len(r.src) {
			b = r.src[r.pos]
			r.pos++
		} else {
			r.over += 8
		}
		r.acc |= uint64(b) << (56 - r.n)
		r.n += 8
	}
	e := d[r.acc>>(64-maxCodeLen)]
	l := uint(e & 15)
	if l == 0 {
		return 0, errBadBits
	}
	r.acc <<= l
	r.n -= l
	if r.n < r.over {
		return 0, errBlockShort // the code took bits past the end
	}
	return byte(e >> 4), nil
}

// left returns how many bits of src remain unread.
func (r *bitReader) left() int { return int(r.n) - int(r.over) + 8*(len(r.src)-r.pos) }

var errBadBits = errors.New("block holds bits that are no code")
