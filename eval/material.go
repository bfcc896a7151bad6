package eval

import (
	"fmt"

	"github.com/nechecb/nechecb/engine"
)

// Material counts material only: a man is 100, a king 130, from the side to
// move; Raw is the same count in men. It is the search's own default
// evaluator, defined once in the engine package (below both) and registered
// here as "material".
type Material = engine.Material

func init() {
	Register("material", func(path, selector string) (Factory, error) {
		if path != "" || selector != "" {
			return nil, fmt.Errorf("material takes no file")
		}
		return func() Evaluator { return Material{} }, nil
	})
}
