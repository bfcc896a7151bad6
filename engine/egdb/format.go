package egdb

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"

	"github.com/nechecb/nechecb/internal/fileio"
)

// The file of one stored slice (docs/egdb-format.md is the full
// description). Little-endian throughout:
//
//	header (headerSize bytes)
//	for each stored table: its block index (blocks+1 offsets into its data,
//	  8 bytes each), then its Huffman code (a length per symbol, 256 bytes)
//	data of each stored table: its blocks one after the other
//
// A table holds one side to move. A self-mirror slice stores only Black to
// move; any other stored slice stores both. Each block starts with the
// CRC-32C of its code and holds blockSize positions (the last one fewer).
// The header carries a CRC-32C of itself and the block indexes and codes,
// checked on opening, and one of everything after the header, checked by
// Verify.

const (
	fileMagic     = "NECHEGDB"
	formatVersion = 1
	blockShift    = 16
	blockSize     = 1 << blockShift
	headerSize    = 160
	// maxBlockBytes bounds a block's length in a file: at most blockSize/4
	// symbols of at most maxCodeLen bits, and the CRC.
	maxBlockBytes = 4 + blockSize/4*maxCodeLen/8
	// FileExt is the extension of slice files.
	FileExt = ".egdb"
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// tableInfo describes one stored table in the header.
type tableInfo struct {
	blocks, indexOff, dataOff, dataLen uint64
	// wins, losses and draws count the table's positions by value,
	// captures those where the side to move must capture (stored free).
	wins, losses, draws, captures uint64
}

// header is a slice file's header.
type header struct {
	mat       Material
	sides     uint8 // bit c set: the table of side c to move is stored
	shift     uint8
	positions uint64
	t         [2]tableInfo
	dataCRC   uint32
	headerCRC uint32
}

// marshal writes h into the first headerSize bytes of b.
func (h *header) marshal(b []byte) {
	clear(b[:headerSize])
	copy(b, fileMagic)
	le := binary.LittleEndian
	le.PutUint16(b[8:], formatVersion)
	b[10], b[11], b[12], b[13] = byte(h.mat.BM), byte(h.mat.BK), byte(h.mat.WM), byte(h.mat.WK)
	b[14], b[15] = h.sides, h.shift
	le.PutUint64(b[16:], h.positions)
	for i, t := range h.t {
		o := 24 + 64*i
		for j, x := range []uint64{t.blocks, t.indexOff, t.dataOff, t.dataLen, t.wins, t.losses, t.draws, t.captures} {
			le.PutUint64(b[o+8*j:], x)
		}
	}
	le.PutUint32(b[152:], h.dataCRC)
	le.PutUint32(b[156:], h.headerCRC)
}

// unmarshal reads a header, checking only what it needs to parse it.
func (h *header) unmarshal(b []byte) error {
	if len(b) < headerSize || string(b[:8]) != fileMagic {
		return errors.New("not an endgame database file (bad magic)")
	}
	le := binary.LittleEndian
	if v := le.Uint16(b[8:]); v != formatVersion {
		return fmt.Errorf("format version %d, this program reads %d", v, formatVersion)
	}
	h.mat = Material{int(b[10]), int(b[11]), int(b[12]), int(b[13])}
	h.sides, h.shift = b[14], b[15]
	h.positions = le.Uint64(b[16:])
	for i := range h.t {
		o := 24 + 64*i
		t := &h.t[i]
		for j, x := range []*uint64{&t.blocks, &t.indexOff, &t.dataOff, &t.dataLen, &t.wins, &t.losses, &t.draws, &t.captures} {
			*x = le.Uint64(b[o+8*j:])
		}
	}
	h.dataCRC = le.Uint32(b[152:])
	h.headerCRC = le.Uint32(b[156:])
	return nil
}

// storedSides returns the sides-to-move bits a slice file of m must hold.
func storedSides(m Material) uint8 {
	if m.SelfMirror() {
		return 1
	}
	return 3
}

// encodedTable is a compressed table ready to be written.
type encodedTable struct {
	blocks                        [][]byte   // CRC-32C of the code, then the code
	lens                          [256]uint8 // the Huffman code
	wins, losses, draws, captures uint64
}

// writeSliceFile writes the tables of slice m atomically to path; tabs[c]
// is the table of side c to move, nil when it is not stored.
func writeSliceFile(path string, m Material, tabs [2]*encodedTable) error {
	h := header{mat: m, shift: blockShift, positions: shapeOf(m).size}
	off := uint64(headerSize)
	for c, t := range tabs {
		if t == nil {
			continue
		}
		h.sides |= 1 << c
		h.t[c] = tableInfo{blocks: uint64(len(t.blocks)), indexOff: off, wins: t.wins, losses: t.losses, draws: t.draws, captures: t.captures}
		off += 8*uint64(len(t.blocks)+1) + 256
	}
	index := make([]byte, 0, off-headerSize)
	for c, t := range tabs {
		if t == nil {
			continue
		}
		h.t[c].dataOff = off
		var o uint64
		for _, b := range t.blocks {
			index = binary.LittleEndian.AppendUint64(index, o)
			o += uint64(len(b))
		}
		index = binary.LittleEndian.AppendUint64(index, o)
		index = append(index, t.lens[:]...)
		h.t[c].dataLen = o
		off += o
	}
	dataCRC := crc32.Update(0, castagnoli, index)
	for _, t := range tabs {
		if t != nil {
			for _, b := range t.blocks {
				dataCRC = crc32.Update(dataCRC, castagnoli, b)
			}
		}
	}
	h.dataCRC = dataCRC
	var hb [headerSize]byte
	h.marshal(hb[:])
	h.headerCRC = crc32.Update(crc32.Checksum(hb[:headerSize-4], castagnoli), castagnoli, index)
	h.marshal(hb[:])
	return fileio.WriteAtomicFunc(path, func(w io.Writer) error {
		bw := bufio.NewWriterSize(w, 1<<20)
		bw.Write(hb[:])
		bw.Write(index)
		for _, t := range tabs {
			if t != nil {
				for _, b := range t.blocks {
					bw.Write(b)
				}
			}
		}
		return bw.Flush()
	})
}

// sliceFile is an opened slice file: its header and block indexes, read and
// checked, and the reader of its blocks.
type sliceFile struct {
	name  string
	h     header
	sh    *shape
	index [2][]uint64 // block offsets into the table's data, blocks+1 each
	dec   [2]*huffDecoder
	r     io.ReaderAt
	size  int64
}

// openSliceFile reads and checks the header and block indexes of a slice
// file of size bytes. Every error names the file.
func openSliceFile(name string, r io.ReaderAt, size int64) (*sliceFile, error) {
	f, err := readSliceFile(r, size)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	f.name = name
	return f, nil
}

func readSliceFile(r io.ReaderAt, size int64) (*sliceFile, error) {
	var hb [headerSize]byte
	if size < headerSize {
		return nil, fmt.Errorf("%d bytes, shorter than a header", size)
	}
	if _, err := r.ReadAt(hb[:], 0); err != nil {
		return nil, fmt.Errorf("reading the header: %w", err)
	}
	f := &sliceFile{r: r, size: size}
	h := &f.h
	if err := h.unmarshal(hb[:]); err != nil {
		return nil, err
	}
	m := h.mat
	if !m.valid() || m.BM+m.BK == 0 || m.WM+m.WK == 0 || !m.Canonical() {
		return nil, fmt.Errorf("header names slice %v, which is not a stored slice", m)
	}
	if h.shift != blockShift {
		return nil, fmt.Errorf("block size 2^%d, this program reads 2^%d", h.shift, blockShift)
	}
	if h.sides != storedSides(m) {
		return nil, fmt.Errorf("slice %v stores side mask %d, want %d", m, h.sides, storedSides(m))
	}
	f.sh = shapeOf(m)
	if h.positions != f.sh.size {
		return nil, fmt.Errorf("slice %v has %d positions, the header says %d", m, f.sh.size, h.positions)
	}
	crc := crc32.Checksum(hb[:headerSize-4], castagnoli)
	end := uint64(headerSize)
	for c := range h.t {
		if h.sides&(1<<c) == 0 {
			continue
		}
		t := &h.t[c]
		want := (h.positions + blockSize - 1) >> blockShift
		if t.blocks != want || t.indexOff != end {
			return nil, fmt.Errorf("table %d: %d blocks at %d, want %d at %d", c, t.blocks, t.indexOff, want, end)
		}
		if sum := t.wins + t.losses + t.draws; sum != h.positions || t.captures > h.positions {
			return nil, fmt.Errorf("table %d: counts add up to %d positions, want %d", c, sum, h.positions)
		}
		raw := make([]byte, 8*(t.blocks+1)+256)
		if _, err := r.ReadAt(raw, int64(t.indexOff)); err != nil {
			return nil, fmt.Errorf("reading block index %d: %w", c, err)
		}
		crc = crc32.Update(crc, castagnoli, raw)
		idx := make([]uint64, t.blocks+1)
		for i := range idx {
			idx[i] = binary.LittleEndian.Uint64(raw[8*i:])
		}
		f.index[c] = idx
		var lens [256]uint8
		copy(lens[:], raw[8*(t.blocks+1):])
		dec, err := newHuffDecoder(&lens)
		if err != nil {
			return nil, fmt.Errorf("table %d: %w", c, err)
		}
		f.dec[c] = dec
		end += uint64(len(raw))
	}
	if crc != h.headerCRC {
		return nil, fmt.Errorf("header checksum %08x, computed %08x: the header or block index is damaged", h.headerCRC, crc)
	}
	for c := range h.t {
		if h.sides&(1<<c) == 0 {
			continue
		}
		t := &h.t[c]
		if t.dataOff != end {
			return nil, fmt.Errorf("table %d: data at %d, want %d", c, t.dataOff, end)
		}
		idx := f.index[c]
		if idx[0] != 0 || idx[len(idx)-1] != t.dataLen {
			return nil, fmt.Errorf("table %d: block index spans %d..%d, data is %d bytes", c, idx[0], idx[len(idx)-1], t.dataLen)
		}
		for i := 1; i < len(idx); i++ {
			if n := idx[i] - idx[i-1]; idx[i] < idx[i-1] || n < 5 || n > maxBlockBytes {
				return nil, fmt.Errorf("table %d: block %d is %d bytes long", c, i-1, int64(n))
			}
		}
		end += t.dataLen
	}
	if end != uint64(size) {
		return nil, fmt.Errorf("file is %d bytes, the header accounts for %d", size, end)
	}
	return f, nil
}

// blockPositions returns how many positions block b of the file holds.
func (f *sliceFile) blockPositions(b uint64) int {
	return int(min(blockSize, f.h.positions-b<<blockShift))
}

// readBlock reads block b of the table of side c into buf (grown when
// short), checks its CRC and decodes it into out.
func (f *sliceFile) readBlock(c int, b uint64, buf []byte, out []uint32) ([]byte, error) {
	idx := f.index[c]
	lo, hi := idx[b], idx[b+1]
	n := int(hi - lo)
	if cap(buf) < n {
		buf = make([]byte, maxBlockBytes)
	}
	buf = buf[:n]
	if _, err := f.r.ReadAt(buf, int64(f.h.t[c].dataOff+lo)); err != nil {
		return buf, fmt.Errorf("%s: table %d block %d: %w", f.name, c, b, err)
	}
	if got, want := crc32.Checksum(buf[4:], castagnoli), binary.LittleEndian.Uint32(buf); got != want {
		return buf, fmt.Errorf("%s: table %d block %d: checksum %08x, computed %08x: the block is damaged", f.name, c, b, want, got)
	}
	if err := decodeBlock(buf[4:], f.blockPositions(b), out, f.dec[c]); err != nil {
		return buf, fmt.Errorf("%s: table %d block %d: %w", f.name, c, b, err)
	}
	return buf, nil
}

// checkData recomputes the CRC of everything after the header.
func (f *sliceFile) checkData() error {
	buf := make([]byte, 1<<20)
	var crc uint32
	for off := int64(headerSize); off < f.size; {
		n := min(int64(len(buf)), f.size-off)
		if _, err := f.r.ReadAt(buf[:n], off); err != nil {
			return fmt.Errorf("%s: %w", f.name, err)
		}
		crc = crc32.Update(crc, castagnoli, buf[:n])
		off += n
	}
	if crc != f.h.dataCRC {
		return fmt.Errorf("%s: data checksum %08x, computed %08x: the file is damaged", f.name, f.h.dataCRC, crc)
	}
	return nil
}
