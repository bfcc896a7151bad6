package patterntrain

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/nechecb/nechecb/eval/pattern"
	"github.com/nechecb/nechecb/internal/badinput"
	"github.com/nechecb/nechecb/internal/fileio"
	"github.com/nechecb/nechecb/train/fit"
)

// Files is a fit from files to files, as `nechecb pattern-train` runs it.
type Files struct {
	// Data are the positions files (train/positions) to fit to; Out is
	// the weight file written.
	Data []string
	Out  string
	// From is the weight file the fit starts from (empty: material only);
	// Plot, when set, receives the loss curve as SVG.
	From, Plot string
	// Config sets the fit.
	Config Config
	// Log receives the lines of the fit: the data, every epoch, the
	// result.
	Log io.Writer
}

// TrainFiles reads the data and the starting weights, fits, and writes the
// best epoch's weights with a note that names the settings and the data,
// and the loss plot when asked. Unreadable input is bad input; output
// paths that cannot be written are refused before the fit.
func TrainFiles(ctx context.Context, f Files) error {
	if len(f.Data) == 0 || f.Out == "" {
		return badinput.Mark(errors.New("--data and --out are required"))
	}
	for _, path := range []string{f.Out, f.Plot} {
		if path == "" {
			continue
		}
		if err := fileio.CheckWritable(path); err != nil {
			return err // found before the fit rather than after it
		}
	}
	data, err := fit.ReadData(f.Data)
	if err != nil {
		return err
	}
	recs, names := data.Records, data.Files
	var start *pattern.Weights
	fromText := "material"
	if f.From != "" {
		if start, err = pattern.ReadFile(f.From); err != nil {
			return badinput.Mark(err)
		}
		fromText = f.From
	}
	fmt.Fprintf(f.Log, "training on %d positions from %s\n", len(recs), strings.Join(names, ", "))
	cfg := f.Config
	fmt.Fprintf(f.Log, "model %s\n", ModelName(cfg.Model))
	res, err := Train(ctx, recs, start, cfg, func(e fit.Epoch) { fmt.Fprintln(f.Log, fit.EpochLine(e)) })
	if err != nil {
		return err
	}
	fmt.Fprintf(f.Log, "k %.4f; %d training and %d held-out positions; held-out loss %.6f at the start%s; kept epoch %d\n",
		res.K, res.TrainN, res.ValidN, res.StartValid, fit.BucketText(res.StartValid, res.StartBuckets), res.Best)
	res.WriteKept(f.Log)
	if res.Clipped > 0 {
		fmt.Fprintf(f.Log, "warning: %d weights clipped to the file's range\n", res.Clipped)
	}
	flags := fmt.Sprintf(" --tie=%t", cfg.Tie)
	if len(cfg.Drop) > 0 {
		flags += " --drop " + strings.Join(cfg.Drop, ",")
	}
	if cfg.BucketWeights != nil {
		flags += " --bucket-weights " + formatFloats(cfg.BucketWeights)
	}
	res.Weights.Note = fmt.Sprintf("nechecb pattern-train %s%s --from %s --lambda %g --k %g (fitted %.4f) --epochs %d --batch %d --rate %g --decay %g --validation %g --seed %d on %s; kept epoch %d",
		ModelFlags(cfg.Model), flags, fromText, cfg.Lambda, cfg.K, res.K, cfg.Epochs, cfg.Batch, cfg.Rate, cfg.Decay, cfg.Validation, cfg.Seed, strings.Join(names, ", "), res.Best)
	if len(res.Weights.Note) > pattern.MaxNote {
		res.Weights.Note = res.Weights.Note[:pattern.MaxNote]
	}
	if err := res.Weights.WriteFile(f.Out); err != nil {
		return err
	}
	if f.Plot != "" {
		return fileio.WriteAtomic(f.Plot, res.SVG("pattern-train: "+f.Out))
	}
	return nil
}

// ParseBucketWeights reads Config.BucketWeights from text: a weight for
// each piece-count bucket, separated by commas; "" is nil (all alike).
func ParseBucketWeights(text string) ([]float64, error) {
	if text == "" {
		return nil, nil
	}
	var w []float64
	for _, f := range strings.Split(text, ",") {
		x, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
		if err != nil {
			return nil, fmt.Errorf("%q is not a number", f)
		}
		w = append(w, x)
	}
	return w, checkBucketWeights(w)
}

// formatFloats writes xs separated by commas.
func formatFloats(xs []float64) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.FormatFloat(x, 'g', -1, 64)
	}
	return strings.Join(parts, ",")
}

// ParseModel returns the model named by name ("v1" or "v2") with the
// knots of knots (piece counts separated by commas) when it is not empty.
func ParseModel(name, knots string) (pattern.Model, error) {
	var m pattern.Model
	switch name {
	case "v1":
		m = pattern.V1
	case "v2":
		m = pattern.V2
	default:
		return m, fmt.Errorf("unknown model %q (want v1 or v2)", name)
	}
	if knots != "" {
		if name == "v1" {
			return m, errors.New("the v1 model has the knots 24 and 2: --knots needs --model v2")
		}
		m.Knots = nil
		for _, k := range strings.Split(knots, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(k))
			if err != nil {
				return m, fmt.Errorf("knots %q: %q is not a piece count", knots, k)
			}
			m.Knots = append(m.Knots, n)
		}
	}
	if err := m.Check(); err != nil {
		return m, fmt.Errorf("knots %q: %w", knots, err)
	}
	return m, nil
}

// ModelName describes m, as "v2, knots 24,16,12,9,6,2, ending terms".
func ModelName(m pattern.Model) string {
	if m.Version() == 1 {
		return "v1 (phases at 24 and 2 pieces)"
	}
	s := "v2, knots " + knotList(m)
	if m.Ending {
		s += ", ending terms " + strings.Join(pattern.EndingNames[:], ",")
	}
	return s
}

// ModelFlags returns the pattern-train flags that select m.
func ModelFlags(m pattern.Model) string {
	if m.Version() == 1 {
		return "--model v1"
	}
	return "--model v2 --knots " + knotList(m)
}

func knotList(m pattern.Model) string {
	var ks []string
	for _, k := range m.Knots {
		ks = append(ks, strconv.Itoa(k))
	}
	return strings.Join(ks, ",")
}
