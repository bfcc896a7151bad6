package pattern

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"slices"
	"unicode/utf8"

	"github.com/nechecb/nechecb/internal/fileio"
)

// The weight file is binary, little-endian:
//
//	offset  size  field
//	0       6     magic "nchpat"
//	6       2     version, 1 or 2
//	8       4     windows, NumWindows
//	12      4     states per window, WindowStates
//	16      4     global terms: NumGlobals, or in version 2 also
//	              NumGlobals+NumEnding (the model has the ending terms)
//	20      4     king squares, KingSquares
//	24      4     knots K: 2 in version 1, 2..MaxKnots in version 2
//	28      4     scale: weight units per centipawn, 1..MaxScale
//	32      4     note length in bytes, 0..MaxNote
//	36      4·K   version 2 only: the knots' piece counts, descending
//	h       n     note, UTF-8 (h = 36, or 36+4·K in version 2)
//	h+n     2·N   the N = Model.Params weights, int16, in Param order
//	end-4   4     CRC-32 (IEEE) of every byte before it
//
// A version 1 file is the model V1 (knots 24 and 2, no ending terms).
// Read refuses a file that differs from this in any way, naming the file,
// the offset and what was wrong.
const (
	magic    = "nchpat"
	baseSize = 36
	// MaxScale bounds the scale a file may give.
	MaxScale = 1024
	// MaxNote bounds the length of the note.
	MaxNote = 4096
)

// headerSize returns the size of the header of a file holding m, before
// the note.
func headerSize(m Model) int {
	if m.Version() == 1 {
		return baseSize
	}
	return baseSize + 4*len(m.Knots)
}

// FileSize returns the size of a weight file of model m whose note is
// noteLen bytes.
func FileSize(m Model, noteLen int) int { return headerSize(m) + noteLen + 2*m.Params() + 4 }

// maxFileSize is the size of the largest file Read accepts.
var maxFileSize = FileSize(Model{Knots: make([]int, MaxKnots), Ending: true}, MaxNote)

// Format returns w in the file format: version 1 for the model V1,
// version 2 for any other. It panics if w's model is not valid or w does
// not have its number of weights, since that is a programming error.
func (w *Weights) Format() []byte {
	m := w.Model
	if err := m.Check(); err != nil || len(w.W) != m.Params() {
		panic(fmt.Sprintf("pattern: Format of %d weights for the model %+v (%v)", len(w.W), m, err))
	}
	var b bytes.Buffer
	b.Grow(FileSize(m, len(w.Note)))
	b.WriteString(magic)
	le := binary.LittleEndian
	b.Write(le.AppendUint16(nil, uint16(m.Version())))
	fields := []int{NumWindows, WindowStates, m.Globals(), KingSquares, len(m.Knots), w.Scale, len(w.Note)}
	if m.Version() == 2 {
		fields = append(fields, m.Knots...)
	}
	for _, v := range fields {
		b.Write(le.AppendUint32(nil, uint32(v)))
	}
	b.WriteString(w.Note)
	buf := make([]byte, 2*len(w.W))
	for i, v := range w.W {
		le.PutUint16(buf[2*i:], uint16(v))
	}
	b.Write(buf)
	b.Write(le.AppendUint32(nil, crc32.ChecksumIEEE(b.Bytes())))
	return b.Bytes()
}

// WriteFile writes w to path atomically.
func (w *Weights) WriteFile(path string) error {
	return fileio.WriteAtomic(path, w.Format())
}

// ReadFile reads the weight file at path; see Read.
func ReadFile(path string) (*Weights, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path)
}

// readError is a file's fault found at an offset.
type readError struct {
	off int
	msg string
}

func fault(off int, format string, args ...any) *readError {
	return &readError{off, fmt.Sprintf(format, args...)}
}

// Read reads weights in the file format from r; name is what errors call
// the file.
func Read(r io.Reader, name string) (*Weights, error) {
	data, err := io.ReadAll(io.LimitReader(r, int64(maxFileSize)+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	w, e := parse(data)
	if e != nil {
		return nil, fmt.Errorf("%s: offset %d: %s", name, e.off, e.msg)
	}
	return w, nil
}

// parse decodes a whole weight file.
func parse(data []byte) (*Weights, *readError) {
	m, scale, noteLen, e := parseHeader(data)
	if e != nil {
		return nil, e
	}
	h := headerSize(m)
	size := FileSize(m, noteLen)
	switch {
	case len(data) < size:
		return nil, fault(len(data), "the file ends early: a file of this model with a %d-byte note has %d bytes", noteLen, size)
	case len(data) > size:
		return nil, fault(size, "%d bytes after the checksum, which ends the file", len(data)-size)
	}
	le := binary.LittleEndian
	note := data[h : h+noteLen]
	if !utf8.Valid(note) {
		return nil, fault(h, "the note is not UTF-8")
	}
	if got, want := crc32.ChecksumIEEE(data[:size-4]), le.Uint32(data[size-4:]); got != want {
		return nil, fault(size-4, "checksum %08x, but the bytes before it give %08x: the file is damaged", want, got)
	}
	w := &Weights{Model: m, Scale: scale, Note: string(note), W: make([]int16, m.Params())}
	body := data[h+noteLen:]
	for i := range w.W {
		w.W[i] = int16(le.Uint16(body[2*i:]))
	}
	return w, nil
}

// parseHeader decodes and checks the header: the model, the scale and the
// note's length.
func parseHeader(data []byte) (m Model, scale, noteLen int, e *readError) {
	if len(data) < baseSize {
		return m, 0, 0, fault(len(data), "the file ends inside the %d-byte header (is it a pattern weight file?)", baseSize)
	}
	if string(data[:6]) != magic {
		return m, 0, 0, fault(0, "not a pattern weight file (want the magic %q)", magic)
	}
	le := binary.LittleEndian
	version := le.Uint16(data[6:])
	if version != 1 && version != 2 {
		return m, 0, 0, fault(6, "version %d, this reader knows versions 1 and 2", version)
	}
	field := func(i int) int { return int(le.Uint32(data[8+4*i:])) }
	for i, f := range []struct {
		what string
		want int
	}{{"windows", NumWindows}, {"states per window", WindowStates}, {"", 0}, {"king squares", KingSquares}} {
		if f.what != "" && field(i) != f.want {
			return m, 0, 0, fault(8+4*i, "%d %s, the model has %d", uint32(field(i)), f.what, f.want)
		}
	}
	switch g := field(2); {
	case g == NumGlobals:
	case g == NumGlobals+NumEnding && version == 2:
		m.Ending = true
	case version == 1:
		return m, 0, 0, fault(16, "%d global terms, a version 1 model has %d", uint32(g), NumGlobals)
	default:
		return m, 0, 0, fault(16, "%d global terms, a version 2 model has %d or %d", uint32(g), NumGlobals, NumGlobals+NumEnding)
	}
	switch knots := field(4); {
	case version == 1 && knots != len(V1.Knots):
		return m, 0, 0, fault(24, "%d phases, a version 1 model has %d", uint32(knots), len(V1.Knots))
	case knots < 2 || knots > MaxKnots:
		return m, 0, 0, fault(24, "%d knots, a version 2 model has 2..%d", uint32(knots), MaxKnots)
	}
	if scale = field(5); scale < 1 || scale > MaxScale {
		return m, 0, 0, fault(28, "scale %d is outside 1..%d", uint32(scale), MaxScale)
	}
	if noteLen = field(6); noteLen < 0 || noteLen > MaxNote {
		return m, 0, 0, fault(32, "note of %d bytes, at most %d allowed", uint32(noteLen), MaxNote)
	}
	if version == 1 {
		m.Knots = slices.Clone(V1.Knots)
		return m, scale, noteLen, nil
	}
	knots := field(4)
	if len(data) < baseSize+4*knots {
		return m, 0, 0, fault(len(data), "the file ends inside the list of %d knots", knots)
	}
	m.Knots = make([]int, knots)
	for i := range m.Knots {
		m.Knots[i] = int(le.Uint32(data[baseSize+4*i:]))
		if i > 0 && m.Knots[i] >= m.Knots[i-1] || m.Knots[i] > MaxPieces {
			return m, 0, 0, fault(baseSize+4*i, "knot %d is %d pieces: the knots must descend within 0..%d", i, uint32(m.Knots[i]), MaxPieces)
		}
	}
	if m.Version() != 2 {
		return m, 0, 0, fault(6, "version 2 holds the model of version 1 (knots 24 and 2, no ending terms): write it as version 1")
	}
	return m, scale, noteLen, nil
}
