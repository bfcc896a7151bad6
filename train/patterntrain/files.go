package patterntrain

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/nechecb/nechecb/eval/pattern"
	"github.com/nechecb/nechecb/internal/badinput"
	"github.com/nechecb/nechecb/internal/fileio"
	"github.com/nechecb/nechecb/train/positions"
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
	var recs []positions.Record
	var names []string
	for _, path := range f.Data {
		file, err := positions.ReadFile(path)
		if err != nil {
			return badinput.Mark(err)
		}
		recs = append(recs, file.Records...)
		names = append(names, fmt.Sprintf("%s (%d positions)", path, len(file.Records)))
	}
	var start *pattern.Weights
	fromText := "material"
	if f.From != "" {
		var err error
		if start, err = pattern.ReadFile(f.From); err != nil {
			return badinput.Mark(err)
		}
		fromText = f.From
	}
	fmt.Fprintf(f.Log, "training on %d positions from %s\n", len(recs), strings.Join(names, ", "))
	cfg := f.Config
	res, err := Train(ctx, recs, start, cfg, func(e Epoch) {
		fmt.Fprintf(f.Log, "epoch %d: training loss %.6f, held-out loss %.6f (%s)\n", e.Epoch, e.Train, e.Valid, e.Elapsed.Round(1e8))
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(f.Log, "k %.4f; %d training and %d held-out positions; held-out loss %.6f at the start; kept epoch %d\n",
		res.K, res.TrainN, res.ValidN, res.StartValid, res.Best)
	if res.Clipped > 0 {
		fmt.Fprintf(f.Log, "warning: %d weights clipped to the file's range\n", res.Clipped)
	}
	res.Weights.Note = fmt.Sprintf("nechecb pattern-train --from %s --lambda %g --k %g (fitted %.4f) --epochs %d --batch %d --rate %g --decay %g --validation %g --seed %d on %s; kept epoch %d",
		fromText, cfg.Lambda, cfg.K, res.K, cfg.Epochs, cfg.Batch, cfg.Rate, cfg.Decay, cfg.Validation, cfg.Seed, strings.Join(names, ", "), res.Best)
	if len(res.Weights.Note) > pattern.MaxNote {
		res.Weights.Note = res.Weights.Note[:pattern.MaxNote]
	}
	if err := res.Weights.WriteFile(f.Out); err != nil {
		return err
	}
	if f.Plot != "" {
		return fileio.WriteAtomic(f.Plot, PlotSVG(res, "pattern-train: "+f.Out))
	}
	return nil
}
