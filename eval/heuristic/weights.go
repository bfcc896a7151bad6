package heuristic

import (
	"bufio"
	"bytes"
	_ "embed"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/nechecb/nechecb/internal/fileio"
)

// Weights are the two weight sets of the heuristic: Opening applies with all
// 24 pieces on the board, Endgame with none, and the evaluation blends them
// linearly by the number of pieces in between.
type Weights struct {
	Opening, Endgame Vector
}

// MaxWeight bounds the magnitude of every weight a file may give.
const MaxWeight = 1e6

// Phase names used as prefixes in weight files.
const (
	openingPrefix = "opening."
	endgamePrefix = "endgame."
)

//go:embed default.weights
var defaultWeightsText []byte

// DefaultWeightsName is how error messages and listings name the embedded
// default weight file.
const DefaultWeightsName = "default.weights (embedded)"

// DefaultWeights returns the embedded default weights, tuned by nechecb's
// own tools (see the file's comments for how).
func DefaultWeights() Weights {
	w, err := Read(bytes.NewReader(defaultWeightsText), DefaultWeightsName)
	if err != nil {
		panic("heuristic: embedded default weights are broken: " + err.Error())
	}
	return w
}

// ReadFile reads the weight file at path; see Read for the format.
func ReadFile(path string) (Weights, error) {
	return fileio.ReadFile(path, Read)
}

// Read reads weights in the text format: one "NAME VALUE" pair per
// line, where NAME is "opening." or "endgame." followed by a feature name
// (FeatureNames) and VALUE is a decimal number within ±MaxWeight. A '#'
// starts a comment that runs to the end of the line; blank lines are
// ignored. A weight that is not given is 0. Errors name the file (name), the
// line and what was wrong: an unknown name, a bad or out-of-range number, a
// duplicate, or a line that is not a pair.
func Read(r io.Reader, name string) (Weights, error) {
	var w Weights
	seen := map[string]int{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 4096), 1<<20)
	for line := 1; sc.Scan(); line++ {
		text, _, _ := strings.Cut(sc.Text(), "#")
		fields := strings.Fields(text)
		if len(fields) == 0 {
			continue
		}
		fail := func(format string, args ...any) (Weights, error) {
			return Weights{}, fmt.Errorf("%s:%d: %s", name, line, fmt.Sprintf(format, args...))
		}
		if len(fields) != 2 {
			return fail("want \"NAME VALUE\", got %d fields", len(fields))
		}
		slot := w.slot(fields[0])
		if slot == nil {
			return fail("unknown weight %q (want opening.FEATURE or endgame.FEATURE, features: %s)",
				fields[0], strings.Join(FeatureNames[:], ", "))
		}
		if first, dup := seen[fields[0]]; dup {
			return fail("duplicate weight %q (first on line %d)", fields[0], first)
		}
		seen[fields[0]] = line
		v, err := strconv.ParseFloat(fields[1], 64)
		if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
			return fail("bad number %q for %s", fields[1], fields[0])
		}
		if math.Abs(v) > MaxWeight {
			return fail("weight %s = %s is outside ±%g", fields[0], fields[1], float64(MaxWeight))
		}
		*slot = v
	}
	if err := sc.Err(); err != nil {
		return Weights{}, fmt.Errorf("%s: %w", name, err)
	}
	return w, nil
}

// slot returns the weight that a file name such as "opening.men" refers to,
// or nil for an unknown name.
func (w *Weights) slot(name string) *float64 {
	set := &w.Opening
	rest, ok := strings.CutPrefix(name, openingPrefix)
	if !ok {
		set = &w.Endgame
		if rest, ok = strings.CutPrefix(name, endgamePrefix); !ok {
			return nil
		}
	}
	for i, f := range FeatureNames {
		if f == rest {
			return &set[i]
		}
	}
	return nil
}

// Format writes w in the weight-file format, every weight included, with
// header as leading comment lines (each line of header gets a "# ").
// Numbers are written so that they read back exactly.
func (w *Weights) Format(header string) []byte {
	var b bytes.Buffer
	for _, l := range strings.Split(strings.TrimRight(header, "\n"), "\n") {
		if header != "" {
			fmt.Fprintf(&b, "# %s\n", l)
		}
	}
	for _, set := range []struct {
		prefix string
		v      *Vector
	}{{openingPrefix, &w.Opening}, {endgamePrefix, &w.Endgame}} {
		for i, f := range FeatureNames {
			fmt.Fprintf(&b, "%s%s %s\n", set.prefix, f, strconv.FormatFloat(set.v[i], 'g', -1, 64))
		}
	}
	return b.Bytes()
}

// WriteFile writes w to path atomically (a temporary file renamed over
// path), with header as comments.
func (w *Weights) WriteFile(path, header string) error {
	return fileio.WriteAtomic(path, w.Format(header))
}
