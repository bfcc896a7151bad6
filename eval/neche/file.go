package neche

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/nechecb/nechecb/internal/fileio"
)

// A genome file (neche's best_networks.txt or N_nets.txt) holds one genome
// per line, each line ending in a newline. Line k of best_networks.txt is the
// best network of generation k-1.

// fileLines splits file content into lines, without the final empty piece
// after the last newline.
func fileLines(data []byte) [][]byte {
	lines := bytes.Split(data, []byte("\n"))
	if n := len(lines); n > 0 && len(lines[n-1]) == 0 {
		lines = lines[:n-1]
	}
	return lines
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

// SelectGenome returns one genome of a genome file's content: selector is a
// 1-based line number, or "last" (or empty) for the last line that is not
// blank. name is used
// in errors, which name the line and, for a bad letter, the column. Only the
// chosen line is parsed.
func SelectGenome(name string, data []byte, selector string) (Genome, error) {
	lines := fileLines(data)
	var k int
	switch sel := strings.ToLower(strings.TrimSpace(selector)); sel {
	case "", "last":
		k = len(lines)
		for k > 0 && len(bytes.TrimSpace(lines[k-1])) == 0 {
			k--
		}
		if k == 0 {
			return nil, fmt.Errorf("%s: no genomes in the file", name)
		}
	default:
		n, err := strconv.Atoi(sel)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%s: selector %q is not a line number (1, 2, ...) or \"last\"", name, selector)
		}
		if n > len(lines) {
			return nil, fmt.Errorf("%s: line %d is past the end (the file has %d lines)", name, n, len(lines))
		}
		k = n
	}
	return parseLine(name, k, lines[k-1])
}

// ReadGenomes parses every line of a genome file's content; name is used in
// errors.
func ReadGenomes(name string, data []byte) ([]Genome, error) {
	lines := fileLines(data)
	out := make([]Genome, len(lines))
	for i, line := range lines {
		g, err := parseLine(name, i+1, line)
		if err != nil {
			return nil, err
		}
		out[i] = g
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

// LoadGenome resolves the path and selector of a neche spec to a genome:
// a path starting with '=' is a bare genome string, an empty path with
// selector "g1" is the built-in material network, and anything else is a
// genome file read from disk with a line number or "last" (the default).
func LoadGenome(path, selector string) (Genome, error) {
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
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	return SelectGenome(path, data, selector)
}
