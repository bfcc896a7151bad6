package tdleaf

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/nechecb/nechecb/eval/heuristic"
	"github.com/nechecb/nechecb/internal/fileio"
)

// The network file format, line by line ('#' starts a comment, blank lines
// are skipped):
//
//	tdleaf v1
//	layers N0 N1 ... 1          # N0 inputs, hidden sizes, one output
//	input NAME SCALE            # N0 lines: a heuristic feature name and its factor
//	layer K                     # for K = 1 .. number of layers, in order:
//	W_1 ... W_{N(K-1)} BIAS     # N(K) rows: a unit's weights, then its bias
//
// Every number must be finite. Errors name the file, the line and what was
// wrong.
const header = "tdleaf v1"

// ReadFile reads a network file.
func ReadFile(path string) (*Network, error) {
	return fileio.ReadFile(path, Read)
}

// reader tracks the line being read, for error messages.
type reader struct {
	sc   *bufio.Scanner
	name string
	line int
}

// next returns the fields of the next line that is not blank or a comment,
// or nil at the end.
func (r *reader) next() ([]string, error) {
	for r.sc.Scan() {
		r.line++
		text, _, _ := strings.Cut(r.sc.Text(), "#")
		if f := strings.Fields(text); len(f) > 0 {
			return f, nil
		}
	}
	if err := r.sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", r.name, err)
	}
	return nil, nil
}

func (r *reader) errorf(format string, args ...any) error {
	return fmt.Errorf("%s:%d: %s", r.name, r.line, fmt.Sprintf(format, args...))
}

// expect reads the next line and fails at the end of the file.
func (r *reader) expect(what string) ([]string, error) {
	f, err := r.next()
	if err == nil && f == nil {
		err = fmt.Errorf("%s:%d: the file ends where %s should be", r.name, r.line, what)
	}
	return f, err
}

func (r *reader) number(s string) (float64, error) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, r.errorf("bad number %q", s)
	}
	return v, nil
}

// Read reads a network in the text format; name is used in errors.
func Read(rd io.Reader, name string) (*Network, error) {
	r := &reader{sc: bufio.NewScanner(rd), name: name}
	r.sc.Buffer(make([]byte, 0, 64*1024), 16<<20)
	f, err := r.expect("the header")
	if err != nil {
		return nil, err
	}
	if strings.Join(f, " ") != header {
		return nil, r.errorf("want the header %q, got %q", header, strings.Join(f, " "))
	}
	if f, err = r.expect("the layers line"); err != nil {
		return nil, err
	}
	if f[0] != "layers" || len(f) < 3 {
		return nil, r.errorf("want \"layers N0 ... 1\" with at least two sizes")
	}
	n := &Network{}
	for _, s := range f[1:] {
		v, err := strconv.Atoi(s)
		if err != nil || v < 1 || v > maxUnits {
			return nil, r.errorf("bad layer size %q (want 1..%d)", s, maxUnits)
		}
		n.Sizes = append(n.Sizes, v)
	}
	if n.Sizes[len(n.Sizes)-1] != 1 {
		return nil, r.errorf("the last layer has %d units, want 1", n.Sizes[len(n.Sizes)-1])
	}
	seen := map[string]int{}
	for range n.Sizes[0] {
		if f, err = r.expect("an input line"); err != nil {
			return nil, err
		}
		if f[0] != "input" || len(f) != 3 {
			return nil, r.errorf("want \"input NAME SCALE\" (%d inputs), got %q", n.Sizes[0], strings.Join(f, " "))
		}
		feature := featureNumber(f[1])
		if feature < 0 {
			return nil, r.errorf("unknown feature %q (features: %s)", f[1], strings.Join(heuristic.FeatureNames[:], ", "))
		}
		if first, dup := seen[f[1]]; dup {
			return nil, r.errorf("input %s appears twice (first on line %d)", f[1], first)
		}
		seen[f[1]] = r.line
		scale, err := r.number(f[2])
		if err != nil {
			return nil, err
		}
		n.Inputs = append(n.Inputs, Input{Feature: feature, Scale: scale})
	}
	for k := 1; k < len(n.Sizes); k++ {
		if f, err = r.expect(fmt.Sprintf("\"layer %d\"", k)); err != nil {
			return nil, err
		}
		if len(f) != 2 || f[0] != "layer" || f[1] != strconv.Itoa(k) {
			return nil, r.errorf("want \"layer %d\", got %q", k, strings.Join(f, " "))
		}
		in, out := n.Sizes[k-1], n.Sizes[k]
		w, b := make([]float64, 0, in*out), make([]float64, 0, out)
		for o := range out {
			if f, err = r.expect(fmt.Sprintf("row %d of layer %d", o+1, k)); err != nil {
				return nil, err
			}
			if len(f) != in+1 {
				return nil, r.errorf("layer %d row %d has %d numbers, want %d weights and a bias", k, o+1, len(f), in)
			}
			for i, s := range f {
				v, err := r.number(s)
				if err != nil {
					return nil, err
				}
				if i < in {
					w = append(w, v)
				} else {
					b = append(b, v)
				}
			}
		}
		n.W, n.B = append(n.W, w), append(n.B, b)
	}
	if f, err = r.next(); err != nil {
		return nil, err
	}
	if f != nil {
		return nil, r.errorf("unexpected line after the last layer: %q", strings.Join(f, " "))
	}
	return n, nil
}

func featureNumber(name string) int {
	for i, f := range heuristic.FeatureNames {
		if f == name {
			return i
		}
	}
	return -1
}

// Format writes n in the text format, with comment as leading "# " lines.
// Numbers are written so that they read back exactly.
func (n *Network) Format(comment string) []byte {
	var b bytes.Buffer
	b.WriteString(header + "\n")
	if comment != "" {
		for _, l := range strings.Split(strings.TrimRight(comment, "\n"), "\n") {
			fmt.Fprintf(&b, "# %s\n", l)
		}
	}
	b.WriteString("layers")
	for _, s := range n.Sizes {
		fmt.Fprintf(&b, " %d", s)
	}
	b.WriteString("\n")
	for _, in := range n.Inputs {
		fmt.Fprintf(&b, "input %s %s\n", in.Name(), num(in.Scale))
	}
	for k := range n.W {
		fmt.Fprintf(&b, "layer %d\n", k+1)
		in := n.Sizes[k]
		for o := range n.Sizes[k+1] {
			for _, v := range n.W[k][o*in : (o+1)*in] {
				b.WriteString(num(v) + " ")
			}
			b.WriteString(num(n.B[k][o]) + "\n")
		}
	}
	return b.Bytes()
}

func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// WriteFile writes n to path atomically (a temporary file renamed over it).
func (n *Network) WriteFile(path, comment string) error {
	return fileio.WriteAtomic(path, n.Format(comment))
}
