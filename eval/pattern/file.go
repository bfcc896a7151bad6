package pattern

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"os"
	"unicode/utf8"

	"github.com/nechecb/nechecb/internal/fileio"
)

// The weight file is binary, little-endian:
//
//	offset  size  field
//	0       6     magic "nchpat"
//	6       2     version, 1
//	8       4     windows, NumWindows
//	12      4     states per window, WindowStates
//	16      4     globals, NumGlobals
//	20      4     king squares, KingSquares
//	24      4     phases, NumPhases
//	28      4     scale: weight units per centipawn, 1..MaxScale
//	32      4     note length in bytes, 0..MaxNote
//	36      n     note, UTF-8
//	36+n    2·N   the N = NumParams weights, int16, in Param order
//	end-4   4     CRC-32 (IEEE) of every byte before it
//
// Read refuses a file that differs from this in any way, naming the file,
// the offset and what was wrong.
const (
	magic      = "nchpat"
	version    = 1
	headerSize = 36
	// MaxScale bounds the scale a file may give.
	MaxScale = 1024
	// MaxNote bounds the length of the note.
	MaxNote = 4096
)

// FileSize returns the size of a weight file whose note is noteLen bytes.
func FileSize(noteLen int) int { return headerSize + noteLen + 2*NumParams + 4 }

// Format returns w in the file format. It panics if w does not have
// NumParams weights, since that is a programming error.
func (w *Weights) Format() []byte {
	if len(w.W) != NumParams {
		panic(fmt.Sprintf("pattern: Format of %d weights, want %d", len(w.W), NumParams))
	}
	var b bytes.Buffer
	b.Grow(FileSize(len(w.Note)))
	b.WriteString(magic)
	le := binary.LittleEndian
	b.Write(le.AppendUint16(nil, version))
	for _, v := range []int{NumWindows, WindowStates, NumGlobals, KingSquares, NumPhases, w.Scale, len(w.Note)} {
		b.Write(le.AppendUint32(nil, uint32(v)))
	}
	b.WriteString(w.Note)
	buf := make([]byte, 2*NumParams)
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

// Read reads weights in the file format from r; name is what errors call
// the file.
func Read(r io.Reader, name string) (*Weights, error) {
	data, err := io.ReadAll(io.LimitReader(r, int64(FileSize(MaxNote))+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	fail := func(off int, format string, args ...any) (*Weights, error) {
		return nil, fmt.Errorf("%s: offset %d: %s", name, off, fmt.Sprintf(format, args...))
	}
	if len(data) < headerSize {
		return fail(len(data), "the file ends inside the %d-byte header (is it a pattern weight file?)", headerSize)
	}
	if string(data[:6]) != magic {
		return fail(0, "not a pattern weight file (want the magic %q)", magic)
	}
	le := binary.LittleEndian
	if v := le.Uint16(data[6:]); v != version {
		return fail(6, "version %d, this reader knows version %d", v, version)
	}
	for i, f := range []struct {
		what string
		want int
	}{{"windows", NumWindows}, {"states per window", WindowStates}, {"globals", NumGlobals}, {"king squares", KingSquares}, {"phases", NumPhases}} {
		if got := le.Uint32(data[8+4*i:]); got != uint32(f.want) {
			return fail(8+4*i, "%d %s, the model has %d", got, f.what, f.want)
		}
	}
	scale := le.Uint32(data[28:])
	if scale < 1 || scale > MaxScale {
		return fail(28, "scale %d is outside 1..%d", scale, MaxScale)
	}
	noteLen := le.Uint32(data[32:])
	if noteLen > MaxNote {
		return fail(32, "note of %d bytes, at most %d allowed", noteLen, MaxNote)
	}
	size := FileSize(int(noteLen))
	switch {
	case len(data) < size:
		return fail(len(data), "the file ends early: a file with a %d-byte note has %d bytes", noteLen, size)
	case len(data) > size:
		return fail(size, "%d bytes after the checksum, which ends the file", len(data)-size)
	}
	note := data[headerSize : headerSize+noteLen]
	if !utf8.Valid(note) {
		return fail(headerSize, "the note is not UTF-8")
	}
	if got, want := crc32.ChecksumIEEE(data[:size-4]), le.Uint32(data[size-4:]); got != want {
		return fail(size-4, "checksum %08x, but the bytes before it give %08x: the file is damaged", want, got)
	}
	w := &Weights{Scale: int(scale), Note: string(note), W: make([]int16, NumParams)}
	body := data[headerSize+int(noteLen):]
	for i := range w.W {
		w.W[i] = int16(le.Uint16(body[2*i:]))
	}
	return w, nil
}
