package nn

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"math"
	"unicode/utf8"

	"github.com/nechecb/nechecb/internal/fileio"
)

// The weight file is binary, little-endian:
//
//	offset  size  field
//	0       6     magic "nchnet"
//	6       2     version, 1
//	8       2     stages, 1 or 4
//	10      2     flags: bit 0 set when the stages share the first layer;
//	              bits 1-2 the second layer's shift less WeightShift (0
//	              in the first files, 2 for FineShift); bit 3 set when
//	              each stage has two heads (even material, then the rest)
//	12      2     hidden units per perspective
//	14      2     second layer's units
//	16      2     third layer's units
//	18      2     inputs, Inputs
//	20      4     centipawns per unit of output, float32, finite and > 0
//	24      4     note length in bytes, 0..MaxNote
//	28      n     note, UTF-8: the lineage of the weights
//	28+n    ...   each first layer: W (int16, Inputs·hidden), B (int16,
//	              hidden); then each head, by stage: W2 (int8, L2·2·hidden),
//	              B2 (int32, L2), W3 (int8, L3·L2), B3 (int32, L3),
//	              W4 (int8, L3), B4 (int32)
//	end-4   4     CRC-32 (IEEE) of every byte before it
//
// Read refuses a file that differs from this in any way, naming the file,
// the offset and what was wrong.
const (
	magic      = "nchnet"
	version    = 1
	headerSize = 28
	// MaxNote bounds the note, which grows by a paragraph a round.
	MaxNote = 1 << 16
)

// FileSize returns the size of a weight file of layout l whose note is
// noteLen bytes.
func FileSize(l Layout, noteLen int) int {
	first := 2 * (Inputs*l.Hidden + l.Hidden)
	head := l.L2*2*l.Hidden + 4*l.L2 + l.L3*l.L2 + 4*l.L3 + l.L3 + 4
	return headerSize + noteLen + l.FirstLayers()*first + l.Heads()*head + 4
}

// Format returns n in the file format. It panics when n's slices do not
// have its layout's sizes, a programming error.
func (n *Net) Format() []byte {
	l := n.Layout
	var b bytes.Buffer
	b.Grow(FileSize(l, len(n.Note)))
	b.WriteString(magic)
	le := binary.LittleEndian
	flags := (n.SecondShift - WeightShift) << 1
	if l.SharedFirst {
		flags |= 1
	}
	if l.SplitHeads {
		flags |= 8
	}
	for _, v := range []int{version, l.Stages, flags, l.Hidden, l.L2, l.L3, Inputs} {
		b.Write(le.AppendUint16(nil, uint16(v)))
	}
	b.Write(le.AppendUint32(nil, math.Float32bits(n.CPPerUnit)))
	b.Write(le.AppendUint32(nil, uint32(len(n.Note))))
	b.WriteString(n.Note)
	for _, f := range n.First {
		put16(&b, f.W, Inputs*l.Hidden)
		put16(&b, f.B, l.Hidden)
	}
	for _, h := range n.Heads {
		put8(&b, h.W2, l.L2*2*l.Hidden)
		put32(&b, h.B2, l.L2)
		put8(&b, h.W3, l.L3*l.L2)
		put32(&b, h.B3, l.L3)
		put8(&b, h.W4, l.L3)
		put32(&b, []int32{h.B4}, 1)
	}
	if len(n.First) != l.FirstLayers() || len(n.Heads) != l.Heads() || !shiftOK(n.SecondShift) {
		panic("nn: Format: the net does not have its layout's layers, or its second layer's shift is out of range")
	}
	b.Write(le.AppendUint32(nil, crc32.ChecksumIEEE(b.Bytes())))
	return b.Bytes()
}

func put16(b *bytes.Buffer, v []int16, n int) {
	if len(v) != n {
		panic(fmt.Sprintf("nn: Format: %d int16 weights where the layout has %d", len(v), n))
	}
	for _, x := range v {
		b.Write(binary.LittleEndian.AppendUint16(nil, uint16(x)))
	}
}

func put8(b *bytes.Buffer, v []int8, n int) {
	if len(v) != n {
		panic(fmt.Sprintf("nn: Format: %d int8 weights where the layout has %d", len(v), n))
	}
	for _, x := range v {
		b.WriteByte(byte(x))
	}
}

func put32(b *bytes.Buffer, v []int32, n int) {
	if len(v) != n {
		panic(fmt.Sprintf("nn: Format: %d int32 biases where the layout has %d", len(v), n))
	}
	for _, x := range v {
		b.Write(binary.LittleEndian.AppendUint32(nil, uint32(x)))
	}
}

// WriteFile writes n to path atomically.
func (n *Net) WriteFile(path string) error { return fileio.WriteAtomic(path, n.Format()) }

// ReadFile reads the weight file at path; see Read.
func ReadFile(path string) (*Net, error) { return fileio.ReadFile(path, Read) }

// shiftOK reports whether a second layer's shift can be written: WeightShift
// to WeightShift+3.
func shiftOK(s int) bool { return s >= WeightShift && s <= WeightShift+3 }

// maxFileSize is the size of the largest file Read accepts.
var maxFileSize = FileSize(Layout{Stages: 4, Hidden: 1024, L2: 256, L3: 256}, MaxNote)

// readError is a file's fault found at an offset.
type readError struct {
	off int
	msg string
}

func fault(off int, format string, args ...any) *readError {
	return &readError{off, fmt.Sprintf(format, args...)}
}

// Read reads a network in the file format from r; name is what errors call
// the file.
func Read(r io.Reader, name string) (*Net, error) {
	data, err := io.ReadAll(io.LimitReader(r, int64(maxFileSize)+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	n, e := parse(data)
	if e != nil {
		return nil, fmt.Errorf("%s: offset %d: %s", name, e.off, e.msg)
	}
	return n, nil
}

// parse decodes a whole weight file.
func parse(data []byte) (*Net, *readError) {
	l, shift, cp, noteLen, e := parseHeader(data)
	if e != nil {
		return nil, e
	}
	size := FileSize(l, noteLen)
	switch {
	case len(data) < size:
		return nil, fault(len(data), "the file ends early: a %s net with a %d-byte note has %d bytes", l, noteLen, size)
	case len(data) > size:
		return nil, fault(size, "%d bytes after the checksum, which ends the file", len(data)-size)
	}
	le := binary.LittleEndian
	note := data[headerSize : headerSize+noteLen]
	if !utf8.Valid(note) {
		return nil, fault(headerSize, "the note is not UTF-8")
	}
	if got, want := crc32.ChecksumIEEE(data[:size-4]), le.Uint32(data[size-4:]); got != want {
		return nil, fault(size-4, "checksum %08x, but the bytes before it give %08x: the file is damaged", want, got)
	}
	n := NewNet(l, cp)
	n.Note, n.SecondShift = string(note), shift
	rd := reader{data: data, off: headerSize + noteLen, bad: -1}
	for i := range n.First {
		rd.int16s(n.First[i].W)
		rd.int16s(n.First[i].B)
	}
	for i := range n.Heads {
		h := &n.Heads[i]
		rd.int8s(h.W2)
		rd.int32s(h.B2)
		rd.int8s(h.W3)
		rd.int32s(h.B3)
		rd.int8s(h.W4)
		var b4 [1]int32
		rd.int32s(b4[:])
		h.B4 = b4[0]
	}
	if rd.bad >= 0 {
		return nil, fault(rd.bad, "an int8 weight of -128 (weights are within ±%d)", MaxWeight)
	}
	return n, nil
}

// reader decodes the weights that follow the note; parse has checked the
// size, so it never runs out. bad is the offset of the first int8 weight
// outside ±MaxWeight, or -1.
type reader struct {
	data []byte
	off  int
	bad  int
}

func (r *reader) int16s(v []int16) {
	for i := range v {
		v[i] = int16(binary.LittleEndian.Uint16(r.data[r.off:]))
		r.off += 2
	}
}

func (r *reader) int8s(v []int8) {
	for i := range v {
		if v[i] = int8(r.data[r.off]); v[i] < -MaxWeight && r.bad < 0 {
			r.bad = r.off
		}
		r.off++
	}
}

func (r *reader) int32s(v []int32) {
	for i := range v {
		v[i] = int32(binary.LittleEndian.Uint32(r.data[r.off:]))
		r.off += 4
	}
}

// parseHeader decodes and checks the header: the layout, the second
// layer's shift, the centipawn scale and the note's length.
func parseHeader(data []byte) (l Layout, shift int, cp float32, noteLen int, e *readError) {
	if len(data) < headerSize {
		return l, 0, 0, 0, fault(len(data), "the file ends inside the %d-byte header (is it an nn weight file?)", headerSize)
	}
	if string(data[:6]) != magic {
		return l, 0, 0, 0, fault(0, "not an nn weight file (want the magic %q)", magic)
	}
	le := binary.LittleEndian
	field := func(off int) int { return int(le.Uint16(data[off:])) }
	if v := field(6); v != version {
		return l, 0, 0, 0, fault(6, "version %d, this reader knows version %d", v, version)
	}
	flags := field(10)
	if flags > 15 {
		return l, 0, 0, 0, fault(10, "flags %#x, only bits 0-3 (a shared first layer, the second layer's shift, split heads) are known", flags)
	}
	if in := field(18); in != Inputs {
		return l, 0, 0, 0, fault(18, "%d inputs, the net has %d", in, Inputs)
	}
	l = Layout{Stages: field(8), SharedFirst: flags&1 == 1, SplitHeads: flags&8 != 0, Hidden: field(12), L2: field(14), L3: field(16)}
	if err := l.Check(); err != nil {
		return l, 0, 0, 0, fault(8, "%v", err)
	}
	cp = math.Float32frombits(le.Uint32(data[20:]))
	if !(cp > 0) || math.IsInf(float64(cp), 0) {
		return l, 0, 0, 0, fault(20, "centipawns per unit %v (want a finite positive number)", cp)
	}
	if noteLen = int(le.Uint32(data[24:])); noteLen > MaxNote {
		return l, 0, 0, 0, fault(24, "note of %d bytes, at most %d allowed", uint32(noteLen), MaxNote)
	}
	return l, WeightShift + flags>>1&3, cp, noteLen, nil
}
