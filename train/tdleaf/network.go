package tdleaf

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/nechecb/nechecb/eval/heuristic"
	tdnet "github.com/nechecb/nechecb/eval/tdleaf"
)

// ParseInputs reads a network's input features: heuristic feature names,
// each optionally with ":SCALE", separated by commas ("men:0.2,kings").
func ParseInputs(list string) ([]tdnet.Input, error) {
	var inputs []tdnet.Input
	for _, item := range strings.Split(list, ",") {
		name, scaleText, hasScale := strings.Cut(strings.TrimSpace(item), ":")
		in := tdnet.Input{Feature: -1, Scale: 1}
		for i, f := range heuristic.FeatureNames {
			if f == name {
				in.Feature = i
			}
		}
		if in.Feature < 0 {
			return nil, fmt.Errorf("unknown feature %q (features: %s)", name, strings.Join(heuristic.FeatureNames[:], ", "))
		}
		if hasScale {
			v, err := strconv.ParseFloat(scaleText, 64)
			if err != nil {
				return nil, fmt.Errorf("bad scale %q for %s", scaleText, name)
			}
			in.Scale = v
		}
		inputs = append(inputs, in)
	}
	return inputs, nil
}

// FormatInputs writes inputs the way ParseInputs reads them.
func FormatInputs(inputs []tdnet.Input) string {
	var parts []string
	for _, in := range inputs {
		parts = append(parts, in.Name()+":"+strconv.FormatFloat(in.Scale, 'g', 4, 64))
	}
	return strings.Join(parts, ",")
}

// ParseHidden reads hidden layer sizes separated by commas ("6,6").
func ParseHidden(list string) ([]int, error) {
	var hidden []int
	for _, s := range strings.Split(list, ",") {
		v, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			return nil, fmt.Errorf("bad size %q", s)
		}
		hidden = append(hidden, v)
	}
	return hidden, nil
}

// OpenNetwork returns the network to train: the one in path, to resume its
// training, or when there is none a new one with inputs and hidden layers,
// its weights drawn from seed.
func OpenNetwork(path string, inputs []tdnet.Input, hidden []int, seed uint64) (*tdnet.Network, error) {
	n, err := tdnet.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return tdnet.New(inputs, hidden, rand.New(rand.NewPCG(seed, 0x7464)))
	}
	return n, err
}

// Summary says how cfg trains, opponent naming the opponent's evaluator
// ("self" for self-play), for the header of checkpoints and the curve.
func (cfg Config) Summary(opponent string) string {
	return fmt.Sprintf("nechecb tdleaf-train: opponent %s, depth %d, lambda %g, alpha %g, repetitions %d, lookahead %d, knightcap %v, max plies %d, random plies %d, seed %d",
		opponent, cfg.Depth, cfg.Lambda, cfg.Alpha, cfg.Repetitions, cfg.Lookahead, cfg.KnightCap, cfg.MaxPlies, cfg.RandomPlies, cfg.Seed)
}
