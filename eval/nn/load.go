package nn

import (
	"bytes"
	_ "embed"
	"fmt"
	"sync"

	"github.com/nechecb/nechecb/eval"
)

// Kind is the name the evaluator is registered under. Spec forms: "nn"
// (the embedded default net) and "nn:FILE" (a weight file).
const Kind = "nn"

// defaultFile is the committed net, trained by the rounds of
// docs/training.md; its note says how (strings eval/nn/default.nn).
//
//go:embed default.nn
var defaultFile []byte

// DefaultName is how messages name the embedded net.
const DefaultName = "default.nn (embedded)"

// defaultModel reads the embedded net once.
var defaultModel = sync.OnceValues(func() (*model, error) {
	n, err := Read(bytes.NewReader(defaultFile), DefaultName)
	if err != nil {
		return nil, err
	}
	return newModel(n)
})

// Default returns the embedded default net, or the error that kept it
// from loading (a damaged file in the build).
func Default() (*Net, error) {
	m, err := defaultModel()
	if err != nil {
		return nil, err
	}
	return m.net, nil
}

// NewFactory returns a factory of evaluators of n, which they share and
// must not be changed afterwards, or an error saying why n cannot be
// evaluated.
func NewFactory(n *Net) (eval.Factory, error) {
	m, err := newModel(n)
	if err != nil {
		return nil, err
	}
	return m.factory(), nil
}

// factory returns a factory of evaluators of m.
func (m *model) factory() eval.Factory {
	return func() eval.Evaluator { return newEvaluator(m, DefaultSlots) }
}

// Accelerated reports whether evaluations run the kernels whose speed has
// been measured to make the net the better default: AVX2's, on amd64
// outside -tags purego. The SIMD kernels of wasm and arm64 (Fast) are not
// counted until a measurement on such a machine says so. The plain Go
// gives the same values at about a twelfth of AVX2's speed
// (docs/performance.md).
func Accelerated() bool { return useSIMD && kernelName == "AVX2" }

// Fast reports whether evaluations run SIMD kernels rather than the
// plain-Go twins: AVX2 on amd64, NEON on arm64 or SIMD128 on wasm, the
// last two built with Go 1.27 and GOEXPERIMENT=simd (docs/performance.md).
func Fast() bool { return useSIMD }

// plainGo is what Kernels says of the plain-Go twins.
const plainGo = "plain Go"

// Kernels names the kernels that evaluations run: "AVX2", "NEON",
// "wasm SIMD" or "plain Go".
func Kernels() string {
	if useSIMD {
		return kernelName
	}
	return plainGo
}

// load builds a factory from an "nn" spec: the embedded net when path is
// empty, else the weight file at path.
func load(path, selector string) (eval.Factory, error) {
	if selector != "" {
		return nil, fmt.Errorf("nn takes no selector (got #%s)", selector)
	}
	if path == "" {
		m, err := defaultModel()
		if err != nil {
			return nil, err
		}
		return m.factory(), nil
	}
	n, err := ReadFile(path)
	if err != nil {
		return nil, err
	}
	return NewFactory(n)
}

// loadData builds a factory from a weight file's bytes, as a work unit
// carries them (Describe).
func loadData(data []byte, selector string) (eval.Factory, error) {
	if selector != "" {
		return nil, fmt.Errorf("nn takes no selector (got #%s)", selector)
	}
	n, err := Read(bytes.NewReader(data), "weights")
	if err != nil {
		return nil, err
	}
	return NewFactory(n)
}

func init() {
	eval.Register(Kind, load)
	eval.RegisterData(Kind, loadData)
}
