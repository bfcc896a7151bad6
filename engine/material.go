package engine

// Material is the evaluator that counts material only, from the side to
// move: a man is 100 and a king 130. The search uses it when it is given
// none (so the bench signature depends on it), and eval registers it as the
// evaluator "material"; both name this type.
type Material struct{}

// Evaluate returns the side to move's material minus the opponent's.
func (Material) Evaluate(p *Position) int { return p.Material(100, 130) }

// Raw returns the same count in men: a man 1, a king 1.3.
func (m Material) Raw(p *Position) float64 { return float64(m.Evaluate(p)) / 100 }

// Describe says, for eval's registry and the work units that carry
// evaluators, that Material is the kind "material", with no file.
func (Material) Describe() (kind, selector string, data []byte) { return "material", "", nil }
