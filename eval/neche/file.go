package neche

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/nechecb/nechecb/internal/fileio"
)

// File is a genome file (neche's best_networks.txt or N_nets.txt) read into
// memory: one genome per line, each line ending in a newline; line k of
// best_networks.txt is the best network of generation k-1. Every line is
// parsed when the file is read, but a bad line is an error only when it is
// used, so that the good lines of a file (say one whose last line was cut
// short while neche wrote it) can still be selected.
type File struct {
	name  string
	lines []fileLine
}

// fileLine is one line of a File: its genome, or why it is not one.
type fileLine struct {
	genome Genome
	err    error
	blank  bool
}

// ReadFile reads the genome file at path; see Read.
func ReadFile(path string) (*File, error) {
	return fileio.ReadFile(path, Read)
}

// Read reads a genome file from r; name is used in errors. Only a failure
// to read r is an error here: a line that is not a genome is reported, with
// the file, the line and (for a bad letter) the column, by the Select or
// Genomes call that uses it.
func Read(r io.Reader, name string) (*File, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	lines := bytes.Split(data, []byte("\n"))
	if n := len(lines); n > 0 && len(lines[n-1]) == 0 {
		lines = lines[:n-1] // the empty piece after the last newline
	}
	f := &File{name: name, lines: make([]fileLine, len(lines))}
	for i, line := range lines {
		g, err := parseLine(name, i+1, line)
		f.lines[i] = fileLine{genome: g, err: err, blank: len(bytes.TrimSpace(line)) == 0}
	}
	return f, nil
}

// parseLine reads line number lineNo (1-based) of file name, naming the file,
// the line and, for a bad letter, the column in its error.
func parseLine(name string, lineNo int, line []byte) (Genome, error) {
	g, err := Parse(string(line))
	var se *SyntaxError
	if errors.As(err, &se) && se.Column > 0 {
		return nil, fmt.Errorf("%s:%d:%d: %s", name, lineNo, se.Column, se.Msg)
	}
	if err != nil {
		return nil, fmt.Errorf("%s:%d: %w", name, lineNo, err)
	}
	return g, nil
}

// Select returns one genome of the file: selector is a 1-based line number,
// or "last" (or empty) for the last line that is not blank. The error names
// the file, the line and, for a bad letter, the column.
func (f *File) Select(selector string) (Genome, error) {
	var k int
	switch sel := strings.ToLower(strings.TrimSpace(selector)); sel {
	case "", "last":
		k = len(f.lines)
		for k > 0 && f.lines[k-1].blank {
			k--
		}
		if k == 0 {
			return nil, fmt.Errorf("%s: no genomes in the file", f.name)
		}
	default:
		n, err := strconv.Atoi(sel)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%s: selector %q is not a line number (1, 2, ...) or \"last\"", f.name, selector)
		}
		if n > len(f.lines) {
			return nil, fmt.Errorf("%s: line %d is past the end (the file has %d lines)", f.name, n, len(f.lines))
		}
		k = n
	}
	l := f.lines[k-1]
	return l.genome, l.err
}

// Genomes returns the genome of every line, or the error of the first line
// that is not one.
func (f *File) Genomes() ([]Genome, error) {
	out := make([]Genome, len(f.lines))
	for i, l := range f.lines {
		if l.err != nil {
			return nil, l.err
		}
		out[i] = l.genome
	}
	return out, nil
}

// FormatGenomes encodes genomes as a genome file: one per line, each line
// ending in a newline.
func FormatGenomes(gs []Genome) []byte {
	var b bytes.Buffer
	for _, g := range gs {
		b.WriteString(g.String())
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// WriteGenomes writes genomes to path as a genome file, atomically (a
// temporary file renamed over path).
func WriteGenomes(path string, gs []Genome) error {
	for i, g := range gs {
		if len(g) == 0 {
			return fmt.Errorf("write %s: genome %d is empty", path, i+1)
		}
	}
	return fileio.WriteAtomic(path, FormatGenomes(gs))
}

// FromSpec resolves the PATH and SELECTOR of a "neche" evaluator spec to a
// genome: a path starting with '=' is a bare genome string, an empty path
// with selector "g1" is the built-in material network, a folder is an
// evolution run (its best_networks.txt), and anything else is a genome
// file; of a file the selector picks a line number or "last" (the
// default), so that neche:RUN follows a live run's latest best genome.
func FromSpec(path, selector string) (Genome, error) {
	switch {
	case strings.HasPrefix(path, "="):
		if selector != "" {
			return nil, fmt.Errorf("a bare genome takes no #selector")
		}
		g, err := Parse(path[1:])
		if err != nil {
			return nil, fmt.Errorf("bare genome: %w", err)
		}
		return g, nil
	case path == "":
		if strings.EqualFold(selector, "g1") {
			return G1(), nil
		}
		return nil, fmt.Errorf("no genome given (want neche:PATH#LINE, neche:PATH#last, neche:=ACGT... or neche:#g1)")
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		path = filepath.Join(path, RunBestFile) // a run folder: follow its best genomes
	}
	f, err := ReadFile(path)
	if err != nil {
		return nil, err
	}
	return f.Select(selector)
}

// RunBestFile is the file of an evolution run folder (neche's, or
// nechecb evolve neche's) that holds the best genome of each generation,
// one a line; a spec naming the folder reads it.
const RunBestFile = "best_networks.txt"
