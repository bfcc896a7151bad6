// Package positions owns the training-position file: the compact binary
// file in which train/datagen stores self-play positions, each with its
// game's result and a search score, and from which the trainers read them.
//
// A file is a header followed by chunks. The header holds the settings the
// positions were generated with (text, so that a resumed run can be checked
// against them); each chunk holds the positions of a run of consecutive
// games and ends with a checksum. Chunks are appended and synced one at a
// time, so a file interrupted while a chunk was written ends in a torn
// chunk, which Resume drops; every other damage is refused.
package positions

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"math/bits"
	"os"
	"unicode/utf8"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/internal/fileio"
)

// Result values: the game's result for the side to move.
const (
	Loss = 0
	Draw = 1
	Win  = 2
)

// Score bounds: a search score is stored clamped to ±MaxScore centipawns,
// and a forced win or loss as ±ForcedScore.
const (
	MaxScore    = 20000
	ForcedScore = 30000
)

// Record is one training position.
type Record struct {
	// Black, White and Kings hold the pieces, bit s-1 for square s.
	Black, White, Kings uint32
	// WhiteToMove says who is to move.
	WhiteToMove bool
	// Result is the game's result for the side to move: Loss, Draw or Win.
	Result uint8
	// Fold is a number 0..255 drawn for the record's game: records of one
	// game share it, so that a split by fold keeps games whole.
	Fold uint8
	// Score is a search score for the side to move, in centipawns.
	Score int16
}

// RecordSize is the size of a record in the file.
const RecordSize = 16

// NewRecord returns the record of p with its result and score.
func NewRecord(p *engine.Position, result uint8, score int, fold uint8) Record {
	return Record{
		Black: engine.PackSquares(p.Pieces[engine.Black]), White: engine.PackSquares(p.Pieces[engine.White]), Kings: engine.PackSquares(p.Kings),
		WhiteToMove: p.Side == engine.White, Result: result, Fold: fold,
		Score: int16(max(-ForcedScore, min(ForcedScore, score))),
	}
}

// Position returns the record's position, with its hash.
func (r *Record) Position() engine.Position {
	p := r.Board()
	p.Hash = p.ComputeHash()
	return p
}

// Board returns the record's position without its hash, which evaluators
// do not need: cheaper than Position.
func (r *Record) Board() engine.Position {
	var p engine.Position
	p.Pieces[engine.Black], p.Pieces[engine.White], p.Kings = engine.UnpackSquares(r.Black), engine.UnpackSquares(r.White), engine.UnpackSquares(r.Kings)
	if r.WhiteToMove {
		p.Side = engine.White
	}
	return p
}

// check says what is wrong with the record, or returns "".
func (r *Record) check() string {
	switch {
	case r.Black&r.White != 0:
		return "a square holds both colours"
	case r.Kings&^(r.Black|r.White) != 0:
		return "a king on an empty square"
	case bits.OnesCount32(r.Black) > 12 || bits.OnesCount32(r.White) > 12:
		return "more than 12 pieces a side"
	case r.Black&^r.Kings&0xf0000000 != 0 || r.White&^r.Kings&0xf != 0:
		return "a man on its crowning row"
	case r.Result > Win:
		return fmt.Sprintf("result %d (want 0 loss, 1 draw, 2 win)", r.Result)
	case r.Score < -ForcedScore || r.Score > ForcedScore:
		return fmt.Sprintf("score %d outside ±%d", r.Score, ForcedScore)
	}
	return ""
}

func (r *Record) put(b []byte) {
	le := binary.LittleEndian
	le.PutUint32(b[0:], r.Black)
	le.PutUint32(b[4:], r.White)
	le.PutUint32(b[8:], r.Kings)
	flags := r.Result << 1
	if r.WhiteToMove {
		flags |= 1
	}
	b[12] = flags
	b[13] = r.Fold
	le.PutUint16(b[14:], uint16(r.Score))
}

// get decodes a record; it returns false when flag bits outside the side
// and result are set.
func (r *Record) get(b []byte) bool {
	le := binary.LittleEndian
	r.Black, r.White, r.Kings = le.Uint32(b[0:]), le.Uint32(b[4:]), le.Uint32(b[8:])
	r.WhiteToMove = b[12]&1 != 0
	r.Result = b[12] >> 1
	r.Fold = b[13]
	r.Score = int16(le.Uint16(b[14:]))
	return b[12]>>3 == 0
}

// The file layout, little-endian:
//
//	header: "nchpos" (6 bytes), version 1 (uint16), settings length L
//	        (uint32, at most MaxSettings), the settings (L bytes of UTF-8),
//	        CRC-32 (IEEE) of the header's bytes before it (uint32)
//	chunk:  "chnk", first game (uint32), games (uint32, at least 1),
//	        records n (uint32), n records of RecordSize bytes, CRC-32 of
//	        the chunk's bytes before it (uint32)
//
// A record is Black, White and Kings (uint32 each), a flags byte (bit 0
// White to move, bits 1-2 the result, the others 0), the fold (byte) and the
// score (int16). The chunks' games follow on: each chunk's first game is
// the previous chunk's first plus its games, and the first chunk's is 0.
const (
	fileMagic  = "nchpos"
	chunkMagic = "chnk"
	version    = 1
	// MaxSettings bounds the settings text.
	MaxSettings = 1 << 16
	// MaxChunkRecords bounds the records of one chunk.
	MaxChunkRecords = 1 << 24
	chunkHead       = 16
)

// File is a positions file as read.
type File struct {
	// Settings is the text the file was created with.
	Settings string
	// Records are the positions, in file order.
	Records []Record
	// Games is the number of games the chunks cover.
	Games int
}

// errTorn marks a file that ends inside a chunk.
var errTorn = errors.New("a torn chunk: was the run stopped while writing?")

func header(settings string) []byte {
	le := binary.LittleEndian
	b := []byte(fileMagic)
	b = le.AppendUint16(b, version)
	b = le.AppendUint32(b, uint32(len(settings)))
	b = append(b, settings...)
	return le.AppendUint32(b, crc32.ChecksumIEEE(b))
}

// chunk returns the bytes of a chunk.
func chunk(first, games int, recs []Record) []byte {
	le := binary.LittleEndian
	b := make([]byte, chunkHead+RecordSize*len(recs)+4)
	copy(b, chunkMagic)
	le.PutUint32(b[4:], uint32(first))
	le.PutUint32(b[8:], uint32(games))
	le.PutUint32(b[12:], uint32(len(recs)))
	for i := range recs {
		recs[i].put(b[chunkHead+RecordSize*i:])
	}
	le.PutUint32(b[len(b)-4:], crc32.ChecksumIEEE(b[:len(b)-4]))
	return b
}

// Format returns the bytes of a file holding settings and, in one chunk
// covering games games, recs (no chunk when games is 0).
func Format(settings string, games int, recs []Record) []byte {
	b := header(settings)
	if games > 0 {
		b = append(b, chunk(0, games, recs)...)
	}
	return b
}

// ReadFile reads the positions file at path; see Read.
func ReadFile(path string) (*File, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, path)
}

// Read reads a positions file from r; name is what errors call it. Every
// damage is refused with the offset where it was found, a torn last chunk
// included.
func Read(r io.Reader, name string) (*File, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	f, _, err := parse(data, name)
	return f, err
}

// parse reads data. It returns the file up to the last whole chunk and the
// length of that prefix; the error wraps errTorn when data ends inside a
// chunk.
func parse(data []byte, name string) (*File, int, error) {
	fail := func(off int, format string, args ...any) error {
		return fmt.Errorf("%s: offset %d: %s", name, off, fmt.Sprintf(format, args...))
	}
	le := binary.LittleEndian
	if len(data) < 12 {
		return nil, 0, fail(len(data), "the file ends inside the header (is it a positions file?)")
	}
	if string(data[:6]) != fileMagic {
		return nil, 0, fail(0, "not a positions file (want the magic %q)", fileMagic)
	}
	if v := le.Uint16(data[6:]); v != version {
		return nil, 0, fail(6, "version %d, this reader knows version %d", v, version)
	}
	n := le.Uint32(data[8:])
	if n > MaxSettings {
		return nil, 0, fail(8, "settings of %d bytes, at most %d allowed", n, MaxSettings)
	}
	end := 12 + int(n) + 4
	if len(data) < end {
		return nil, 0, fail(len(data), "the file ends inside the header")
	}
	if got, want := crc32.ChecksumIEEE(data[:end-4]), le.Uint32(data[end-4:]); got != want {
		return nil, 0, fail(end-4, "header checksum %08x, but its bytes give %08x: the file is damaged", want, got)
	}
	settings := data[12 : 12+n]
	if !utf8.Valid(settings) {
		return nil, 0, fail(12, "the settings are not UTF-8")
	}
	f := &File{Settings: string(settings)}
	off := end
	count := 0
	// Count the records first, so that the slice is allocated once.
	for o := off; o+chunkHead <= len(data); {
		k := int(le.Uint32(data[o+12:]))
		if k > MaxChunkRecords {
			break
		}
		count += k
		o += chunkHead + RecordSize*k + 4
	}
	f.Records = make([]Record, 0, count)
	for off < len(data) {
		if len(data)-off < chunkHead {
			return f, off, fmt.Errorf("%s: offset %d: the file ends inside a chunk header (%w)", name, len(data), errTorn)
		}
		if string(data[off:off+4]) != chunkMagic {
			return f, off, fail(off, "want a chunk (%q)", chunkMagic)
		}
		first, games, k := int(le.Uint32(data[off+4:])), int(le.Uint32(data[off+8:])), int(le.Uint32(data[off+12:]))
		switch {
		case first != f.Games:
			return f, off, fail(off+4, "chunk starts at game %d, want %d (the previous chunks end there)", first, f.Games)
		case games < 1:
			return f, off, fail(off+8, "chunk of %d games", games)
		case k > MaxChunkRecords:
			return f, off, fail(off+12, "chunk of %d records, at most %d allowed", k, MaxChunkRecords)
		}
		size := chunkHead + RecordSize*k + 4
		if len(data)-off < size {
			return f, off, fmt.Errorf("%s: offset %d: the file ends inside a chunk of %d records (%w)", name, len(data), k, errTorn)
		}
		if got, want := crc32.ChecksumIEEE(data[off:off+size-4]), le.Uint32(data[off+size-4:]); got != want {
			return f, off, fail(off+size-4, "chunk checksum %08x, but its bytes give %08x: the file is damaged", want, got)
		}
		for i := range k {
			o := off + chunkHead + RecordSize*i
			var rec Record
			if !rec.get(data[o:]) {
				return f, off, fail(o+12, "record %d: unknown flag bits %#x", len(f.Records), data[o+12])
			}
			if msg := rec.check(); msg != "" {
				return f, off, fail(o, "record %d: %s", len(f.Records), msg)
			}
			f.Records = append(f.Records, rec)
		}
		f.Games += games
		off += size
	}
	return f, off, nil
}

// Appender adds chunks to a positions file.
type Appender struct {
	f     *os.File
	path  string
	games int
}

// Create makes a new positions file at path holding only the header with
// settings, refusing to replace an existing file.
func Create(path, settings string) (*Appender, error) {
	if len(settings) > MaxSettings || !utf8.ValidString(settings) {
		return nil, fmt.Errorf("positions %s: settings must be UTF-8 of at most %d bytes", path, MaxSettings)
	}
	if _, err := os.Stat(path); err == nil {
		return nil, fmt.Errorf("positions %s: the file exists (resume it, or remove it)", path)
	}
	if err := fileio.WriteAtomic(path, header(settings)); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return nil, err
	}
	return &Appender{f: f, path: path}, nil
}

// Resume opens the positions file at path to add to it. The file must have
// been created with the same settings; a torn last chunk (a run stopped
// while writing it) is cut off. It returns the file's contents so far.
func Resume(path, settings string) (*Appender, *File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	f, end, err := parse(data, path)
	if err != nil && !errors.Is(err, errTorn) {
		return nil, nil, err
	}
	if f.Settings != settings {
		return nil, nil, fmt.Errorf("%s was made with other settings:\n%s\nnot:\n%s", path, f.Settings, settings)
	}
	file, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		return nil, nil, err
	}
	if err := file.Truncate(int64(end)); err != nil {
		file.Close()
		return nil, nil, err
	}
	if _, err := file.Seek(int64(end), io.SeekStart); err != nil {
		file.Close()
		return nil, nil, err
	}
	return &Appender{f: file, path: path, games: f.Games}, f, nil
}

// Games returns the number of games the file covers.
func (a *Appender) Games() int { return a.games }

// Append writes a chunk of the records of the next games games and syncs
// the file.
func (a *Appender) Append(games int, recs []Record) error {
	if games < 1 || len(recs) > MaxChunkRecords {
		return fmt.Errorf("positions %s: a chunk of %d games and %d records", a.path, games, len(recs))
	}
	if err := a.write(chunk(a.games, games, recs)); err != nil {
		return err
	}
	a.games += games
	return nil
}

func (a *Appender) write(b []byte) error {
	if _, err := a.f.Write(b); err != nil {
		return fmt.Errorf("write %s: %w", a.path, err)
	}
	if err := a.f.Sync(); err != nil {
		return fmt.Errorf("write %s: %w", a.path, err)
	}
	return nil
}

// Close closes the file.
func (a *Appender) Close() error { return a.f.Close() }

// WriteFile writes a whole positions file (one chunk) atomically; tests and
// tools that filter files use it.
func WriteFile(path, settings string, games int, recs []Record) error {
	return fileio.WriteAtomic(path, Format(settings, games, recs))
}
