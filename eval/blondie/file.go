package blondie

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/nechecb/nechecb/internal/fileio"
)

// Net is one individual: its architecture, king value, piece-difference
// weight, weights and (optionally) the self-adaptive step sizes, exactly as a
// blondie24 v1 file holds them. Weights run layer by layer from the input;
// within a layer node by node, each node's bias first and then its incoming
// weights in source order.
type Net struct {
	Arch      Arch
	King      float64
	PieceDiff float64
	Weights   []float64
	// Sigmas are the step sizes, one per weight, or nil.
	Sigmas []float64
	// PieceDiffSigma is the step size of the piece-difference weight, or 0
	// when the file gives none.
	PieceDiffSigma float64
}

// Paper's starting values for a new individual.
const (
	// InitRange bounds the uniform starting weights: [-0.2, 0.2].
	InitRange = 0.2
	// InitSigma is every starting step size.
	InitSigma = 0.05
	// InitKing is the starting king value K; it evolves within
	// [MinKing, MaxKing].
	InitKing = 2.0
	MinKing  = 1.0
	MaxKing  = 3.0
)

// Random returns a new individual as the paper starts one: every weight,
// the piece-difference weight included, uniform in [-0.2, 0.2], every step
// size (the piece-difference weight's too) 0.05, and K = 2.
func Random(arch Arch, rng *rand.Rand) *Net {
	n := &Net{Arch: arch, King: InitKing, PieceDiff: uniform(rng), PieceDiffSigma: InitSigma}
	n.Weights = make([]float64, arch.NumWeights())
	n.Sigmas = make([]float64, len(n.Weights))
	for i := range n.Weights {
		n.Weights[i] = uniform(rng)
		n.Sigmas[i] = InitSigma
	}
	return n
}

func uniform(rng *rand.Rand) float64 { return (2*rng.Float64() - 1) * InitRange }

// Check reports what is wrong with n, if anything: an unknown arch, a
// weight or step-size count that does not fit it, a number that is not
// finite, a step size that is not positive or a king value outside [1, 3].
func (n *Net) Check() error {
	if !n.Arch.Valid() {
		return fmt.Errorf("unknown arch %d (want 1999 or 2001)", int(n.Arch))
	}
	if want := n.Arch.NumWeights(); len(n.Weights) != want {
		return fmt.Errorf("arch %s has %d weights, not %d", n.Arch, want, len(n.Weights))
	}
	if n.Sigmas != nil && len(n.Sigmas) != len(n.Weights) {
		return fmt.Errorf("%d step sizes for %d weights", len(n.Sigmas), len(n.Weights))
	}
	if !finite(n.King) || n.King < MinKing || n.King > MaxKing {
		return fmt.Errorf("king value %v is outside [%v, %v]", n.King, MinKing, MaxKing)
	}
	if !finite(n.PieceDiff) {
		return fmt.Errorf("piece-difference weight %v is not finite", n.PieceDiff)
	}
	for i, w := range n.Weights {
		if !finite(w) {
			return fmt.Errorf("weight %d is %v", i+1, w)
		}
	}
	for i, s := range n.Sigmas {
		if !finite(s) || s <= 0 {
			return fmt.Errorf("step size %d is %v, not a positive number", i+1, s)
		}
	}
	if !finite(n.PieceDiffSigma) || n.PieceDiffSigma < 0 {
		return fmt.Errorf("piece-difference step size %v is not a positive number", n.PieceDiffSigma)
	}
	return nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// Format writes n as a blondie24 v1 file: the header, then the weights one
// node per line with a comment naming each layer, then the step sizes if
// any, every number in the shortest form that reads back exactly.
func (n *Net) Format() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "blondie24 v1\narch %s\nking %s\npiecediff %s\n", n.Arch, num(n.King), num(n.PieceDiff))
	if n.PieceDiffSigma > 0 {
		fmt.Fprintf(&b, "piecediffsigma %s\n", num(n.PieceDiffSigma))
	}
	n.writeList(&b, "weights", n.Weights)
	if n.Sigmas != nil {
		n.writeList(&b, "sigmas", n.Sigmas)
	}
	return b.Bytes()
}

// writeList writes a keyword, the count and the numbers, one node per line.
func (n *Net) writeList(b *bytes.Buffer, keyword string, xs []float64) {
	fmt.Fprintf(b, "%s %d\n", keyword, len(xs))
	k := 0
	line := func(count int) {
		for j := 0; j < count && k < len(xs); j++ {
			if j > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(num(xs[k]))
			k++
		}
		b.WriteByte('\n')
	}
	prev := Inputs
	sizes := n.Arch.layerSizes()
	if n.Arch == Arch2001 {
		fmt.Fprintf(b, "# spatial layer: %d nodes, each its bias then its squares in order\n", sizes[0])
		for _, in := range subBoards {
			line(1 + len(in))
		}
		prev, sizes = sizes[0], sizes[1:]
	}
	for _, s := range sizes {
		fmt.Fprintf(b, "# layer of %d nodes, each its bias then %d inputs\n", s, prev)
		for range s {
			line(1 + prev)
		}
		prev = s
	}
	for k < len(xs) { // only for a Net that fails Check
		line(16)
	}
}

func num(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }

// WriteFile writes n to path atomically (a temporary file renamed over
// path), after checking it.
func (n *Net) WriteFile(path string) error {
	if err := n.Check(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return fileio.WriteAtomic(path, n.Format())
}

// ReadFile reads the blondie24 v1 file at path; see Read.
func ReadFile(path string) (*Net, error) {
	return fileio.ReadFile(path, Read)
}

// Read reads a network in the blondie24 v1 format from r; name is used in
// errors. It checks the header, the arch, the king value (within [1, 3]),
// the counts, that every number is finite and every step size positive, and
// that nothing follows; each error names the file and the line.
func Read(r io.Reader, name string) (*Net, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return parse(name, data)
}

// token is one whitespace-separated word of a file, with its line and the
// column (in bytes, from 1) where it starts.
type token struct {
	text      string
	line, col int
}

// tokens splits a file into words, dropping '#' comments.
func tokens(data []byte) []token {
	var out []token
	for i, line := range strings.Split(string(data), "\n") {
		if c := strings.IndexByte(line, '#'); c >= 0 {
			line = line[:c]
		}
		for at := 0; at < len(line); {
			for at < len(line) && isSpace(line[at]) {
				at++
			}
			start := at
			for at < len(line) && !isSpace(line[at]) {
				at++
			}
			if at > start {
				out = append(out, token{line[start:at], i + 1, start + 1})
			}
		}
	}
	return out
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f' }

// parser walks the tokens of one file.
type parser struct {
	name string
	toks []token
	pos  int
}

// errorf reports a problem at the current token, naming its line and
// column (or at the end of the file).
func (p *parser) errorf(format string, args ...any) error {
	msg := fmt.Sprintf(format, args...)
	if p.pos < len(p.toks) {
		return fmt.Errorf("%s:%d:%d: %s", p.name, p.toks[p.pos].line, p.toks[p.pos].col, msg)
	}
	return fmt.Errorf("%s: at the end of the file: %s", p.name, msg)
}

// keyword consumes the word want.
func (p *parser) keyword(want string) error {
	if p.pos >= len(p.toks) {
		return p.errorf("want %q", want)
	}
	if p.toks[p.pos].text != want {
		return p.errorf("want %q, not %q", want, p.toks[p.pos].text)
	}
	p.pos++
	return nil
}

// number consumes a finite number; what names it in errors.
func (p *parser) number(what string) (float64, error) {
	if p.pos >= len(p.toks) {
		return 0, p.errorf("missing %s", what)
	}
	t := p.toks[p.pos].text
	v, err := strconv.ParseFloat(t, 64)
	if err != nil {
		return 0, p.errorf("%s %q is not a number", what, t)
	}
	if !finite(v) {
		return 0, p.errorf("%s %q is not finite", what, t)
	}
	p.pos++
	return v, nil
}

// list consumes "keyword COUNT" and COUNT numbers; COUNT must be want.
func (p *parser) list(keyword string, want int) ([]float64, error) {
	if err := p.keyword(keyword); err != nil {
		return nil, err
	}
	if p.pos >= len(p.toks) {
		return nil, p.errorf("missing the %s count", keyword)
	}
	count, err := strconv.Atoi(p.toks[p.pos].text)
	if err != nil || count != want {
		return nil, p.errorf("%s count %q: this arch has %d", keyword, p.toks[p.pos].text, want)
	}
	p.pos++
	xs := make([]float64, want)
	for i := range xs {
		if p.pos < len(p.toks) && !isNumber(p.toks[p.pos].text) {
			return nil, p.errorf("%s: found %q after %d of %d numbers", keyword, p.toks[p.pos].text, i, want)
		}
		if p.pos >= len(p.toks) {
			return nil, p.errorf("%s: the file ends after %d of %d numbers", keyword, i, want)
		}
		if xs[i], err = p.number(fmt.Sprintf("%s number %d", keyword, i+1)); err != nil {
			return nil, err
		}
	}
	return xs, nil
}

// isNumber reports whether a word reads as a number (finite or not).
func isNumber(s string) bool {
	_, err := strconv.ParseFloat(s, 64)
	return err == nil
}

// parse reads a blondie24 v1 file's content; see Read.
func parse(name string, data []byte) (*Net, error) {
	p := &parser{name: name, toks: tokens(data)}
	if err := p.keyword("blondie24"); err != nil {
		return nil, fmt.Errorf("%w (not a blondie24 v1 file)", err)
	}
	if err := p.keyword("v1"); err != nil {
		return nil, fmt.Errorf("%w (only version v1 is known)", err)
	}
	n := new(Net)
	if err := p.keyword("arch"); err != nil {
		return nil, err
	}
	if p.pos >= len(p.toks) {
		return nil, p.errorf("missing the arch")
	}
	arch, err := strconv.Atoi(p.toks[p.pos].text)
	if n.Arch = Arch(arch); err != nil || !n.Arch.Valid() {
		return nil, p.errorf("unknown arch %q (want 1999 or 2001)", p.toks[p.pos].text)
	}
	p.pos++
	if err := p.keyword("king"); err != nil {
		return nil, err
	}
	if n.King, err = p.number("king value"); err != nil {
		return nil, err
	}
	if n.King < MinKing || n.King > MaxKing {
		p.pos--
		return nil, p.errorf("king value %v is outside [%v, %v]", n.King, MinKing, MaxKing)
	}
	if err := p.keyword("piecediff"); err != nil {
		return nil, err
	}
	if n.PieceDiff, err = p.number("piece-difference weight"); err != nil {
		return nil, err
	}
	if p.pos < len(p.toks) && p.toks[p.pos].text == "piecediffsigma" {
		p.pos++
		if n.PieceDiffSigma, err = p.number("piece-difference step size"); err != nil {
			return nil, err
		}
		if n.PieceDiffSigma <= 0 {
			p.pos--
			return nil, p.errorf("piece-difference step size %v is not positive", n.PieceDiffSigma)
		}
	}
	if n.Weights, err = p.list("weights", n.Arch.NumWeights()); err != nil {
		return nil, err
	}
	if p.pos < len(p.toks) && p.toks[p.pos].text == "sigmas" {
		start := p.pos
		if n.Sigmas, err = p.list("sigmas", len(n.Weights)); err != nil {
			return nil, err
		}
		for i, s := range n.Sigmas {
			if s <= 0 {
				p.pos = start + 2 + i
				return nil, p.errorf("step size %d is %v, not positive", i+1, s)
			}
		}
	}
	if p.pos < len(p.toks) {
		return nil, p.errorf("unexpected %q after the weights", p.toks[p.pos].text)
	}
	return n, nil
}
