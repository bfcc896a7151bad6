package books

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"strconv"
	"strings"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/internal/fileio"
)

// Magic opens every binary book file.
const Magic = "nechbook"

// Version is the binary and text format version this package writes and
// reads.
const Version = 1

// textHeader is the first line of a text dump.
var textHeader = fmt.Sprintf("nechecb book %d", Version)

// maxPathSquares bounds a move's path in the file: a man or king captures at
// most 9 pieces in English draughts, so a path has at most 10 squares; one
// more is allowed for safety.
const maxPathSquares = 11

// WriteBinary writes the book in the binary format.
func (b *Book) WriteBinary(w io.Writer) error {
	var buf bytes.Buffer
	buf.WriteString(Magic)
	le := binary.LittleEndian
	buf.Write(le.AppendUint16(nil, Version))
	buf.Write(le.AppendUint16(nil, 0))
	buf.Write(le.AppendUint32(nil, uint32(b.size)))
	var path [16]int
	for _, e := range b.Entries() {
		p := &e.Position
		for _, bb := range []uint64{p.Pieces[engine.Black], p.Pieces[engine.White], p.Kings} {
			buf.Write(le.AppendUint32(nil, engine.PackSquares(bb)))
		}
		buf.WriteByte(byte(p.Side))
		buf.Write(le.AppendUint32(nil, e.Count))
		buf.WriteByte(byte(len(e.Moves)))
		for _, m := range e.Moves {
			sq := m.Move.PathSquares(path[:0])
			buf.WriteByte(byte(len(sq)))
			for _, s := range sq {
				buf.WriteByte(byte(s))
			}
			buf.Write(le.AppendUint32(nil, m.Weight))
			buf.Write(le.AppendUint16(nil, uint16(m.Score)))
		}
	}
	buf.Write(le.AppendUint32(nil, crc32.ChecksumIEEE(buf.Bytes())))
	_, err := w.Write(buf.Bytes())
	return err
}

// readBinary reads a binary book, refusing anything that is not exactly a
// version-1 book: the error names the byte offset and what was wrong.
func readBinary(data []byte) (*Book, error) {
	r := &byteReader{data: data}
	if len(data) < len(Magic) || string(data[:len(Magic)]) != Magic {
		return nil, errors.New("not a nechecb book file (it does not start with \"nechbook\")")
	}
	r.off = len(Magic)
	version := r.u16()
	r.u16()
	if r.err == nil && version != Version {
		return nil, fmt.Errorf("book file version %d; this program reads version %d", version, Version)
	}
	if len(data) >= 4 {
		body, sum := data[:len(data)-4], binary.LittleEndian.Uint32(data[len(data)-4:])
		if crc32.ChecksumIEEE(body) != sum {
			return nil, errors.New("book file is damaged: its checksum does not match")
		}
		r.data = body
	}
	n := r.u32()
	b := New()
	var lastKey uint64
	for i := 0; r.err == nil && i < int(n); i++ {
		start := r.off
		e, err := r.entry()
		if err != nil {
			return nil, fmt.Errorf("book entry %d at byte %d: %w", i+1, start, err)
		}
		if i > 0 && e.Position.Hash < lastKey {
			return nil, fmt.Errorf("book entry %d at byte %d: out of key order", i+1, start)
		}
		lastKey = e.Position.Hash
		if b.Probe(&e.Position) != nil {
			return nil, fmt.Errorf("book entry %d at byte %d: position %s given twice", i+1, start, e.Position.FEN())
		}
		if err := b.Set(e); err != nil {
			return nil, fmt.Errorf("book entry %d at byte %d: %w", i+1, start, err)
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	if r.off != len(r.data) {
		return nil, fmt.Errorf("book file has %d unexpected bytes after its last entry, at byte %d", len(r.data)-r.off, r.off)
	}
	return b, nil
}

// entry reads one position and its moves.
func (r *byteReader) entry() (Entry, error) {
	black, white, kings := r.u32(), r.u32(), r.u32()
	side := r.u8()
	count := r.u32()
	nmoves := r.u8()
	if r.err != nil {
		return Entry{}, r.err
	}
	p, err := positionOf(black, white, kings, side)
	if err != nil {
		return Entry{}, err
	}
	e := Entry{Position: p, Count: count}
	for j := 0; j < int(nmoves); j++ {
		length := int(r.u8())
		if r.err == nil && (length < 2 || length > maxPathSquares) {
			return Entry{}, fmt.Errorf("move %d has a path of %d squares (want 2..%d)", j+1, length, maxPathSquares)
		}
		path := make([]string, length)
		for k := range path {
			path[k] = strconv.Itoa(int(r.u8()))
		}
		weight, score := r.u32(), int16(r.u16())
		if r.err != nil {
			return Entry{}, r.err
		}
		m, err := parseFullPath(&p, strings.Join(path, "-"))
		if err != nil {
			return Entry{}, fmt.Errorf("%s: %w", p.FEN(), err)
		}
		e.Moves = append(e.Moves, MoveEntry{Move: m, Weight: weight, Score: score})
	}
	return e, nil
}

// positionOf builds a position from packed square sets through FEN, so that
// the rules' own checks (overlaps, too many pieces, men on their crowning
// row) apply.
func positionOf(black, white, kings uint32, side uint8) (engine.Position, error) {
	if side > 1 {
		return engine.Position{}, fmt.Errorf("side to move %d (want 0 or 1)", side)
	}
	if black&white != 0 {
		return engine.Position{}, fmt.Errorf("squares %v hold both colours", engine.Squares(engine.UnpackSquares(black&white)))
	}
	if kings&^(black|white) != 0 {
		return engine.Position{}, fmt.Errorf("kings on empty squares %v", engine.Squares(engine.UnpackSquares(kings&^(black|white))))
	}
	var p engine.Position
	p.Pieces[engine.Black] = engine.UnpackSquares(black)
	p.Pieces[engine.White] = engine.UnpackSquares(white)
	p.Kings = engine.UnpackSquares(kings)
	p.Side = engine.Color(side)
	return engine.ParseFEN(p.FEN())
}

// parseFullPath reads a move written with every square of its path and
// checks that the path is exactly a legal move's.
func parseFullPath(p *engine.Position, text string) (engine.Move, error) {
	m, err := p.ParseNumeric(text)
	if err != nil {
		return m, err
	}
	if got := m.String(); strings.ReplaceAll(got, "x", "-") != strings.ReplaceAll(text, "x", "-") {
		return m, fmt.Errorf("move %q is not a full path (the legal move is %s)", text, got)
	}
	return m, nil
}

// byteReader reads little-endian numbers, remembering the first overrun.
type byteReader struct {
	data []byte
	off  int
	err  error
}

func (r *byteReader) take(n int) []byte {
	if r.err != nil {
		return make([]byte, n)
	}
	if r.off+n > len(r.data) {
		r.err = fmt.Errorf("book file is truncated at byte %d (wanted %d more bytes)", r.off, n)
		return make([]byte, n)
	}
	b := r.data[r.off : r.off+n]
	r.off += n
	return b
}

func (r *byteReader) u8() uint8   { return r.take(1)[0] }
func (r *byteReader) u16() uint16 { return binary.LittleEndian.Uint16(r.take(2)) }
func (r *byteReader) u32() uint32 { return binary.LittleEndian.Uint32(r.take(4)) }

// WriteText writes the text dump.
func (b *Book) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintln(bw, textHeader)
	for _, e := range b.Entries() {
		fmt.Fprintf(bw, "%016x %s %d", e.Position.Hash, e.Position.FEN(), e.Count)
		for _, m := range e.Moves {
			fmt.Fprintf(bw, " %s:%d:%d", m.Move, m.Weight, m.Score)
		}
		fmt.Fprintln(bw)
	}
	return bw.Flush()
}

// readText reads a text dump; name is used in errors, which name the file,
// the line and what was wrong.
func readText(r io.Reader, name string) (*Book, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), 1<<20)
	b := New()
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if line == 1 {
			if text != textHeader {
				return nil, fmt.Errorf("%s:1: want the header %q, found %q", name, textHeader, truncate(text))
			}
			continue
		}
		if text == "" || text[0] == '#' {
			continue
		}
		e, err := parseTextEntry(text)
		if err == nil && b.Probe(&e.Position) != nil {
			err = fmt.Errorf("position %s given twice", e.Position.FEN())
		}
		if err == nil {
			err = b.Set(e)
		}
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s:%d: %w", name, line+1, err)
	}
	if line == 0 {
		return nil, fmt.Errorf("%s: empty book text (want the header %q)", name, textHeader)
	}
	return b, nil
}

func parseTextEntry(text string) (Entry, error) {
	f := strings.Fields(text)
	if len(f) < 4 {
		return Entry{}, fmt.Errorf("want <key> <FEN> <count> <move>:<weight>:<score>..., found %d fields", len(f))
	}
	key, err := strconv.ParseUint(f[0], 16, 64)
	if err != nil || len(f[0]) != 16 {
		return Entry{}, fmt.Errorf("key %q is not 16 hex digits", truncate(f[0]))
	}
	p, err := engine.ParseFEN(f[1])
	if err != nil {
		return Entry{}, err
	}
	if p.Hash != key {
		return Entry{}, fmt.Errorf("key %s does not match the FEN %s (its key is %016x)", f[0], p.FEN(), p.Hash)
	}
	count, err := strconv.ParseUint(f[2], 10, 32)
	if err != nil {
		return Entry{}, fmt.Errorf("count %q is not a number 0..%d", truncate(f[2]), uint32(1<<32-1))
	}
	e := Entry{Position: p, Count: uint32(count)}
	for _, item := range f[3:] {
		parts := strings.Split(item, ":")
		if len(parts) != 3 {
			return Entry{}, fmt.Errorf("move %q: want <move>:<weight>:<score>", truncate(item))
		}
		m, err := parseFullPath(&p, parts[0])
		if err != nil {
			return Entry{}, err
		}
		weight, err := strconv.ParseUint(parts[1], 10, 32)
		if err != nil {
			return Entry{}, fmt.Errorf("move %s: weight %q is not a number 0..%d", parts[0], truncate(parts[1]), uint32(1<<32-1))
		}
		score, err := strconv.ParseInt(parts[2], 10, 16)
		if err != nil {
			return Entry{}, fmt.Errorf("move %s: score %q is not a number -32768..32767", parts[0], truncate(parts[2]))
		}
		e.Moves = append(e.Moves, MoveEntry{Move: m, Weight: uint32(weight), Score: int16(score)})
	}
	return e, nil
}

func truncate(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}

// ReadFile reads the book file at path, in either format; see Read.
func ReadFile(path string) (*Book, error) {
	return fileio.ReadFile(path, Read)
}

// Read reads a book from r in either format, telling them apart by the
// binary magic or the text header; name is used in errors. Anything that is
// not exactly a valid book is refused: errors name the file and, for the
// text dump, the line, or for the binary format the entry and byte offset.
func Read(r io.Reader, name string) (*Book, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	switch {
	case bytes.HasPrefix(data, []byte(Magic)):
		b, err := readBinary(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return b, nil
	case bytes.HasPrefix(data, []byte("nechecb book")):
		return readText(bytes.NewReader(data), name)
	}
	return nil, fmt.Errorf("%s: not a nechecb book (neither the binary magic %q nor the text header %q)", name, Magic, textHeader)
}

// Save writes the book to path, in the binary format unless text is set,
// through a temporary file renamed into place, so a reader never sees half a
// book.
func (b *Book) Save(path string, text bool) error {
	var buf bytes.Buffer
	write := b.WriteBinary
	if text {
		write = b.WriteText
	}
	if err := write(&buf); err != nil {
		return err
	}
	return fileio.WriteAtomic(path, buf.Bytes())
}
