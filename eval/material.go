package eval

import (
	"fmt"
	"math/bits"

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

// Evaluate returns own material minus the opponent's.
func (Material) Evaluate(p *engine.Position) int {
	us, them := p.Side, p.Side.Opponent()
	own := bits.OnesCount64(p.Men(us))*MaterialMan + bits.OnesCount64(p.KingsOf(us))*MaterialKing
	opp := bits.OnesCount64(p.Men(them))*MaterialMan + bits.OnesCount64(p.KingsOf(them))*MaterialKing
	return own - opp
}

// Raw returns the material difference in men.
func (m Material) Raw(p *engine.Position) float64 { return float64(m.Evaluate(p)) / MaterialMan }

func init() {
	Register("material", func(path, selector string) (Factory, error) {
		if path != "" || selector != "" {
			return nil, fmt.Errorf("material takes no file")
		}
		return func() Evaluator { return Material{} }, nil
	})
}
