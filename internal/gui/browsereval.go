package gui

import "github.com/nechecb/nechecb/eval/nn"

// nnWonInBrowser says whether the neural net has won its gate against the
// pattern evaluator as the browser build runs them, each at its own speed
// there (docs/gui.md's browser build section has the speeds). No such
// gate has been played, so the browser keeps pattern; a gate won by the
// net sets it, and then the net is the default wherever its kernels are
// the fast ones.
const nnWonInBrowser = false

// BrowserEval is the evaluator the browser build uses when none is chosen
// (a page's Eval setting chooses another): the neural net where its
// kernels are SIMD ones (nn.Fast: in the browser, the WebAssembly SIMD128
// kernels of a build by Go 1.27 with GOEXPERIMENT=simd) and it has won
// there, the pattern evaluator otherwise. It does not follow
// all.DefaultSpec, whose nn.Accelerated counts AVX2 only.
func BrowserEval() string { return browserEval(nn.Fast(), nnWonInBrowser) }

// browserEval is BrowserEval's choice.
func browserEval(fastKernels, won bool) string {
	if fastKernels && won {
		return nn.Kind
	}
	return "pattern"
}
