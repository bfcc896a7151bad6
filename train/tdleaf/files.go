package tdleaf

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/internal/badinput"
)

// FileRun is a training run as `nechecb tdleaf-train` gives it: the
// network file, the shape of a new network and the opponents by their
// evaluator specs.
type FileRun struct {
	// Out is the network file: read to resume when it exists, written
	// after every game.
	Out string
	// Inputs and Hidden give a new network's shape (ParseInputs,
	// ParseHidden).
	Inputs, Hidden string
	// Opponent is the opponent's evaluator spec, or "self" for self-play.
	// Config.CurveOpponentName is the curve opponent's spec.
	Opponent string
	// Config sets the training; its opponents, checkpoint and description
	// are filled in from the fields above.
	Config Config
}

// TrainFile checks the run, loads its evaluators and network and trains,
// logging to log; an interrupted run (ctx ended) keeps its checkpoint and
// is no error. Errors in what the user gave are bad input.
func TrainFile(ctx context.Context, r FileRun, log io.Writer) error {
	cfg := r.Config
	if r.Out == "" || cfg.Games < 0 || cfg.Depth < 1 || cfg.Repetitions < 2 || cfg.Repetitions > 3 {
		return badinput.Mark(errors.New("--out is required, --depth must be at least 1 and --repetitions 2 or 3"))
	}
	var err error
	if r.Opponent != "self" {
		if cfg.Opponent, err = eval.Load(r.Opponent); err != nil {
			return badinput.Mark(err)
		}
	}
	if cfg.Curve != "" {
		if cfg.CurveOpponent, err = eval.Load(cfg.CurveOpponentName); err != nil {
			return badinput.Mark(err)
		}
	}
	ins, err := ParseInputs(r.Inputs)
	if err != nil {
		return badinput.Mark(fmt.Errorf("--inputs: %w", err))
	}
	hid, err := ParseHidden(r.Hidden)
	if err != nil {
		return badinput.Mark(fmt.Errorf("--hidden: %w", err))
	}
	n, err := OpenNetwork(r.Out, ins, hid, cfg.Seed)
	if err != nil {
		return badinput.Mark(err)
	}
	cfg.Checkpoint = r.Out
	cfg.Describe = cfg.Summary(r.Opponent)
	fmt.Fprintln(log, cfg.Describe)
	if _, err := Run(ctx, n, cfg, log); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return nil
}
