package eval

import (
	"fmt"

	"github.com/nechecb/nechecb/engine"
)

// Material values on the engine's scale, 100 = one man.
const (
	MaterialMan  = 100
	MaterialKing = 130
)

// Material counts material only: a man is 100, a king 130, from the side to
// move. Raw is the same count in men (a man 1, a king 1.3).
type Material struct{}

// Evaluate returns own material minus the opponent's: a man for every
// piece, and the king's extra value for every king.
func (Material) Evaluate(p *engine.Position) int {
	return p.Material(MaterialMan, MaterialKing)
}

// Raw returns the material difference in men.
func (m Material) Raw(p *engine.Position) float64 { return float64(m.Evaluate(p)) / MaterialMan }

// Describe says that Material is the kind "material", with no file.
func (Material) Describe() (kind, selector string, data []byte) { return "material", "", nil }

func init() {
	Register("material", func(path, selector string) (Factory, error) {
		if path != "" || selector != "" {
			return nil, fmt.Errorf("material takes no file")
		}
		return func() Evaluator { return Material{} }, nil
	})
}
