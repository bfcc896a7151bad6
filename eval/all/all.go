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
	_ "github.com/nechecb/nechecb/eval/nn"
	// The learned pattern evaluator.
	_ "github.com/nechecb/nechecb/eval/pattern"
	// The TD-Leaf(lambda) network.
	_ "github.com/nechecb/nechecb/eval/tdleaf"
)

// DefaultSpec is the evaluator nechecb uses when none is given.
const DefaultSpec = "nn"
