package gui

import "github.com/nechecb/nechecb/eval/nn"

// nnWonInBrowser says whether the neural net has won its gate against the
// pattern evaluator as the browser build runs them, each at its own speed
// there (docs/gui.md's browser build section has the speeds). The net
// lost its gate there on 2026-12-02 at 1b747b1, so the browser keeps
// pattern:
//
//	go test ./internal/gui -run 'TestSiteMatch$' -v -site-measure -timeout 3h \
//		-site-match-a browser:nn -site-match-b browser:pattern \
//		-site-match-games 100 -site-match-ms 200 -site-match-sprt elo0=0,elo1=10
//
// browser:nn against browser:pattern at 200 ms a move: +5 =78 -17
// (44.0/100, 44.0%), Elo -41.9 [-70.6, -13.8], LOS 0.5%, 50 pairs,
// pentanomial [0 15 32 3 0]; SPRT elo0=0 elo1=10 LLR -2.447, bounds
// (-2.944, 2.944), undecided. A gate won by the net sets it, and then the
// net is the default wherever its kernels are the fast ones.
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
