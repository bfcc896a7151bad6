package nntrain

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/eval/nn"
	"github.com/nechecb/nechecb/train/fit"
)

// Rival is an evaluator whose held-out loss a fit reports next to its
// net's: its score s, in centipawns, predicts sigmoid(K·s/100) against the
// same target on the same held-out positions.
type Rival struct {
	// Name labels the rival in the summary (its spec, say).
	Name string
	// New makes the evaluator; one is made for each shard.
	New eval.Factory
}

// Comparison is one evaluator's held-out loss, from its integer scores.
type Comparison struct {
	Name string
	// Loss is the mean cross-entropy over the held-out positions, and
	// Buckets its value by piece-count bucket (NaN for an empty one).
	Loss    float64
	Buckets [fit.NumBuckets]float64
}

// ownName labels the written net's row of a comparison.
const ownName = "this net (integer scores)"

// checkPlan says what is wrong with the fit's plan beyond cfg's own
// bounds: 0 epochs evaluate a starting net and fit nothing, and a
// comparison needs held-out positions.
func checkPlan(cfg Config, hasStart bool) error {
	if cfg.Epochs == 0 && !hasStart {
		return errors.New("epochs 0 evaluates a starting net (--init) and fits nothing: give one")
	}
	if (cfg.Epochs == 0 || len(cfg.Rivals) > 0) && cfg.Validation == 0 {
		return errors.New("epochs 0 and --compare measure held-out positions: want a validation share above 0")
	}
	return nil
}

// compare returns the held-out loss of net's integer scores and then of
// each rival's, all as sigmoid(K·s/100) against the fit's target on the
// records of idx.
func (t *trainer) compare(net *nn.Net, idx []int32) []Comparison {
	own := func(_ int, p *engine.Position) float64 {
		return t.k * float64(eval.Clamp(net.Centipawns(net.Output(p)))) / 100
	}
	out := []Comparison{t.comparison(ownName, idx, own)}
	for _, r := range t.cfg.Rivals {
		var evs [shards]eval.Evaluator
		for s := range evs {
			evs[s] = r.New()
		}
		out = append(out, t.comparison(r.Name, idx, func(s int, p *engine.Position) float64 {
			return t.k * float64(evs[s].Evaluate(p)) / 100
		}))
	}
	return out
}

func (t *trainer) comparison(name string, idx []int32, logit func(s int, p *engine.Position) float64) Comparison {
	c := Comparison{Name: name}
	c.Loss, c.Buckets, _ = t.lossOf(idx, logit)
	return c
}

// writeComparison writes the comparison's summary lines.
func writeComparison(w io.Writer, res *Result) {
	if len(res.Compared) == 0 {
		return
	}
	fmt.Fprintf(w, "held-out loss compared on the same %d positions, target and k %.4f (cross-entropy, lower is better):\n", res.ValidN, res.K)
	width := 0
	for _, c := range res.Compared {
		width = max(width, len(c.Name))
	}
	for _, c := range res.Compared {
		fmt.Fprintf(w, "  %-*s %.6f%s\n", width, c.Name, c.Loss, fit.BucketText(c.Loss, c.Buckets))
	}
}

// comparisonText is the comparison as one line of a note.
func comparisonText(res *Result) string {
	var parts []string
	for _, c := range res.Compared {
		parts = append(parts, fmt.Sprintf("%s %.6f%s", c.Name, c.Loss, fit.BucketText(c.Loss, c.Buckets)))
	}
	return fmt.Sprintf("held-out loss compared on %d positions: %s", res.ValidN, strings.Join(parts, "; "))
}
