package eval

import (
	"fmt"
	"io"
	"strconv"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/internal/badinput"
)

// WriteEval writes what the evaluator of spec makes of the position fen,
// both for the side to move: "raw V", the model's own output, and "score
// S", on the engine's scale. A FEN that does not read or a spec that does
// not load is bad input (internal/badinput).
func WriteEval(w io.Writer, spec, fen string) error {
	pos, err := engine.ParseFEN(fen)
	if err != nil {
		return badinput.Mark(err)
	}
	f, err := Load(spec)
	if err != nil {
		return badinput.Mark(err)
	}
	e := f()
	fmt.Fprintf(w, "raw %s\nscore %d\n", strconv.FormatFloat(e.Raw(&pos), 'g', -1, 64), e.Evaluate(&pos))
	return nil
}
