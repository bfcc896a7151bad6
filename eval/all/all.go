// Package all links in every evaluator kind, so that eval.Load knows them
// all. Import it (for its side effects) from commands and tests that load
// evaluators by spec.
package all

import (
	// The material evaluator registers itself in package eval.
	_ "github.com/nechecb/nechecb/eval"
	// The Blondie24 networks, 1999 and 2001.
	_ "github.com/nechecb/nechecb/eval/blondie"
	// The seed CNN of CheckersAI.
	_ "github.com/nechecb/nechecb/eval/cnn"
	// The neche genome networks.
	_ "github.com/nechecb/nechecb/eval/neche"
	// The hand-coded heuristic.
	_ "github.com/nechecb/nechecb/eval/heuristic"
	// The neural net evaluator.
	"github.com/nechecb/nechecb/eval/nn"
	// The learned pattern evaluator.
	_ "github.com/nechecb/nechecb/eval/pattern"
	// The TD-Leaf(lambda) network.
	_ "github.com/nechecb/nechecb/eval/tdleaf"
)

// DefaultSpec is the evaluator nechecb uses when none is given: the neural
// net where its assembly kernels run (amd64 with AVX2), and the pattern
// evaluation elsewhere (other CPUs, -tags purego, the browser build). The
// net won its gate searching at 0.62 times pattern's speed; with its
// plain-Go kernels it searches about 15 times fewer nodes a second than
// pattern, a cost no gate has measured (docs/nn.md). nn.Accelerated is
// AVX2 only: the NEON kernels of a SIMD arm64 build have been checked for
// their values, not their speed.
var DefaultSpec = defaultSpec(nn.Accelerated())

// defaultSpec is DefaultSpec's choice.
func defaultSpec(accelerated bool) string {
	if accelerated {
		return nn.Kind
	}
	return "pattern"
}
