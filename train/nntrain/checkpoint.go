package nntrain

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"hash/fnv"
	"io"
	"io/fs"
	"math"
	"os"
	"time"

	"github.com/nechecb/nechecb/internal/badinput"
	"github.com/nechecb/nechecb/internal/fileio"
	"github.com/nechecb/nechecb/train/fit"
)

// A checkpoint is binary, little-endian:
//
//	magic "nchnnckp", version (uint16), the fit's fingerprint (uint32
//	length, text), Adam's step (uint32), the curve: the start's held-out
//	loss and its buckets, the buckets' counts, the kept epoch, the number
//	of epochs done and each one's losses, elapsed time and speed; the
//	lineage (uint32 length, text); the number of weights n (uint32) and
//	the weights, the kept weights and Adam's two moments (4·n float32);
//	then CRC-32 (IEEE) of every byte before it.
//
// The fingerprint names the layout, the settings that shape the fit and
// the data (count and hash), so that a fit resumes only its own state.
const (
	ckMagic   = "nchnnckp"
	ckVersion = 1
	maxCkText = 1 << 20
)

// fingerprint describes what a checkpoint must match to be resumed.
func (t *trainer) fingerprint(trainN int) string {
	h := fnv.New64a()
	var b [16]byte
	for i := range t.recs {
		r := &t.recs[i]
		le := binary.LittleEndian
		le.PutUint32(b[0:], r.Black)
		le.PutUint32(b[4:], r.White)
		le.PutUint32(b[8:], r.Kings)
		b[12], b[13] = r.Result, r.Fold
		if r.WhiteToMove {
			b[12] |= 0x80
		}
		le.PutUint16(b[14:], uint16(r.Score))
		h.Write(b[:])
	}
	c := t.cfg
	return fmt.Sprintf("layout %s, lambda %g, k %g, epochs %d, batch %d, rate %g, validation %g, seed %d, %d positions (%d training) hashing %016x",
		c.Layout, c.Lambda, t.k, c.Epochs, c.Batch, c.Rate, c.Validation, c.Seed, len(t.recs), trainN, h.Sum64())
}

// checkpointExists reports whether the checkpoint file is there.
func checkpointExists(path string) bool {
	_, err := os.Stat(path)
	return !errors.Is(err, fs.ErrNotExist)
}

// CheckCheckpoint refuses a checkpoint file that exists when the fit does
// not resume (it would be overwritten), before any work.
func CheckCheckpoint(cfg Config) error {
	if cfg.Checkpoint == "" {
		return nil
	}
	if !cfg.Resume && checkpointExists(cfg.Checkpoint) {
		return badinput.Mark(fmt.Errorf("checkpoint %s exists: resume from it (--resume) or remove it", cfg.Checkpoint))
	}
	return fileio.CheckWritable(cfg.Checkpoint)
}

// save writes the fit's state to the checkpoint file, atomically.
func (t *trainer) save(res *Result) error {
	var b bytes.Buffer
	le := binary.LittleEndian
	u32 := func(v int) { b.Write(le.AppendUint32(nil, uint32(v))) }
	f64 := func(v float64) { b.Write(le.AppendUint64(nil, math.Float64bits(v))) }
	text := func(s string) { u32(len(s)); b.WriteString(s) }
	b.WriteString(ckMagic)
	b.Write(le.AppendUint16(nil, ckVersion))
	text(t.fingerprint(res.TrainN))
	u32(t.opt.Steps)
	f64(res.StartValid)
	for i := range fit.NumBuckets {
		f64(res.StartBuckets[i])
		u32(res.BucketN[i])
	}
	u32(res.Best)
	u32(len(res.Epochs))
	for i, e := range res.Epochs {
		f64(e.Train)
		f64(e.Valid)
		for _, x := range e.Buckets {
			f64(x)
		}
		f64(e.Elapsed.Seconds())
		f64(res.Speed[i])
	}
	text(res.Lineage)
	u32(t.m.n)
	for _, v := range [][]float32{t.opt.Theta, t.best, t.opt.M, t.opt.V} {
		for _, x := range v {
			b.Write(le.AppendUint32(nil, math.Float32bits(x)))
		}
	}
	b.Write(le.AppendUint32(nil, crc32.ChecksumIEEE(b.Bytes())))
	return fileio.WriteAtomic(t.cfg.Checkpoint, b.Bytes())
}

// resume loads the checkpoint when the fit resumes and one exists; it
// refuses one that exists when the fit does not resume, or that another
// fit wrote.
func (t *trainer) resume(res *Result, trainN int) error {
	if err := CheckCheckpoint(t.cfg); err != nil || !t.cfg.Resume || !checkpointExists(t.cfg.Checkpoint) {
		return err
	}
	data, err := fileio.ReadFile(t.cfg.Checkpoint, func(r io.Reader, _ string) ([]byte, error) { return io.ReadAll(r) })
	if err != nil {
		return err
	}
	fail := func(off int, format string, args ...any) error {
		return badinput.Mark(fmt.Errorf("checkpoint %s: offset %d: %s", t.cfg.Checkpoint, off, fmt.Sprintf(format, args...)))
	}
	if len(data) < len(ckMagic)+6 || string(data[:len(ckMagic)]) != ckMagic {
		return fail(0, "not an nn-train checkpoint (want the magic %q)", ckMagic)
	}
	le := binary.LittleEndian
	if got, want := crc32.ChecksumIEEE(data[:len(data)-4]), le.Uint32(data[len(data)-4:]); got != want {
		return fail(len(data)-4, "checksum %08x, but the bytes before it give %08x: the file is damaged", want, got)
	}
	d := ckReader{data: data[:len(data)-4], off: len(ckMagic), bad: -1}
	if v := d.u16(); v != ckVersion {
		return fail(len(ckMagic), "version %d, this reader knows version %d", v, ckVersion)
	}
	if got, want := d.text(), t.fingerprint(trainN); d.bad < 0 && got != want {
		return fail(len(ckMagic)+2, "made by another fit:\n  %s\nnot this one:\n  %s\n(use the same settings and data, or remove it)", got, want)
	}
	t.opt.Steps = d.u32()
	res.StartValid = d.f64()
	for i := range fit.NumBuckets {
		res.StartBuckets[i] = d.f64()
		res.BucketN[i] = d.u32()
	}
	best, n := d.u32(), d.u32()
	for i := range n {
		e := fit.Epoch{Epoch: i + 1, Train: d.f64(), Valid: d.f64()}
		for b := range e.Buckets {
			e.Buckets[b] = d.f64()
		}
		e.Elapsed = time.Duration(d.f64() * float64(time.Second))
		res.Epochs = append(res.Epochs, e)
		res.Speed = append(res.Speed, d.f64())
		if d.bad >= 0 {
			break
		}
	}
	res.Best, res.Resumed = best, n
	res.Lineage = d.text()
	if np := d.u32(); d.bad < 0 && np != t.m.n {
		return fail(d.off-4, "%d weights, the layout has %d", np, t.m.n)
	}
	for _, v := range [][]float32{t.opt.Theta, t.best, t.opt.M, t.opt.V} {
		d.f32s(v)
	}
	switch {
	case d.bad >= 0:
		return fail(d.bad, "the file ends early")
	case d.off != len(d.data):
		return fail(d.off, "%d bytes before the checksum that belong to nothing", len(d.data)-d.off)
	case best > n:
		return fail(0, "kept epoch %d of %d done", best, n)
	}
	return nil
}

// ckReader decodes a checkpoint; bad is the offset where it ran out, or
// -1, after which every value reads as 0.
type ckReader struct {
	data []byte
	off  int
	bad  int
}

func (r *ckReader) take(n int) []byte {
	if r.bad < 0 && r.off+n <= len(r.data) {
		r.off += n
		return r.data[r.off-n : r.off]
	}
	if r.bad < 0 {
		r.bad = r.off
	}
	return make([]byte, n)
}

func (r *ckReader) u16() int { return int(binary.LittleEndian.Uint16(r.take(2))) }
func (r *ckReader) u32() int { return int(binary.LittleEndian.Uint32(r.take(4))) }
func (r *ckReader) f64() float64 {
	return math.Float64frombits(binary.LittleEndian.Uint64(r.take(8)))
}

func (r *ckReader) text() string {
	n := r.u32()
	if n > maxCkText {
		n = len(r.data) + 1 // runs out
	}
	return string(r.take(n))
}

func (r *ckReader) f32s(v []float32) {
	b := r.take(4 * len(v))
	for i := range v {
		v[i] = math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:]))
	}
}
