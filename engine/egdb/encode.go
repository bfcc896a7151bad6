package egdb

import (
	"encoding/binary"
	"hash/crc32"
	"math/bits"
	"sync"
	"sync/atomic"

	"github.com/nechecb/nechecb/engine"
)

// encodeTable compresses the table of side c of a solved slice with threads
// goroutines, block by block, leaving capture positions free, and counts
// its values. The blocks are run-length coded first; the table's Huffman
// code is then made from the frequencies of the run-length bytes, and each
// block coded with it.
func (b *sliceBuild) encodeTable(c engine.Color, threads int) *encodedTable {
	size := b.sh.size
	nb := (size + blockSize - 1) / blockSize
	t := &encodedTable{blocks: make([][]byte, nb)}
	var wins, losses, draws, caps atomic.Uint64
	var mu sync.Mutex
	var counts [256]uint64
	parallel(threads, nb, func(bi uint64, vals []uint8) {
		start := bi * blockSize
		n := int(min(blockSize, size-start))
		var cw, cl, cd, cc uint64
		for i := 0; i < n; i++ {
			idx := start + uint64(i)
			v := uint8(b.vals[c][idx>>4] >> (uint(idx&15) * 2) & 3)
			switch Value(v) {
			case Win:
				cw++
			case Loss:
				cl++
			case Draw:
				cd++
			}
			if b.caps[c][idx>>5]>>(idx&31)&1 != 0 {
				v = 0
				cc++
			}
			vals[i] = v
		}
		syms := encodeBlock(nil, vals[:n])
		var local [256]uint64
		for _, s := range syms {
			local[s]++
		}
		t.blocks[bi] = syms
		wins.Add(cw)
		losses.Add(cl)
		draws.Add(cd)
		caps.Add(cc)
		mu.Lock()
		for s, x := range local {
			counts[s] += x
		}
		mu.Unlock()
	})
	code := buildCode(&counts)
	t.lens = code.lens
	parallel(threads, nb, func(bi uint64, _ []uint8) {
		out := code.encodeBits(make([]byte, 4, 4+len(t.blocks[bi])), t.blocks[bi])
		binary.LittleEndian.PutUint32(out, crc32.Checksum(out[4:], castagnoli))
		t.blocks[bi] = out
	})
	t.wins, t.losses, t.draws, t.captures = wins.Load(), losses.Load(), draws.Load(), caps.Load()
	return t
}

// parallel calls work(i, scratch) for i in 0..n-1 from threads goroutines,
// each with a scratch buffer of blockSize bytes.
func parallel(threads int, n uint64, work func(i uint64, scratch []uint8)) {
	var next atomic.Uint64
	var wg sync.WaitGroup
	for range max(1, threads) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			scratch := make([]uint8, blockSize)
			for {
				i := next.Add(1) - 1
				if i >= n {
					return
				}
				work(i, scratch)
			}
		}()
	}
	wg.Wait()
}

// countValues returns how many values of each kind a packed table holds in
// its first n positions: index Value.
func countValues(words []uint32, n uint64) [4]uint64 {
	var cnt [4]uint64
	full := n / 16
	for _, x := range words[:full] {
		lo, hi := x&0x55555555, x>>1&0x55555555
		cnt[Win] += uint64(bits.OnesCount32(lo & hi))
		cnt[Loss] += uint64(bits.OnesCount32(lo &^ hi))
		cnt[Draw] += uint64(bits.OnesCount32(hi &^ lo))
	}
	for i := full * 16; i < n; i++ {
		cnt[words[i>>4]>>(uint(i&15)*2)&3]++
	}
	cnt[Unknown] = n - cnt[Win] - cnt[Loss] - cnt[Draw]
	return cnt
}
