package console

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/search"
	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/internal/player"
	"github.com/nechecb/nechecb/internal/session"
)

// fakeEngine is a one-ply engine for tests: it plays the move after which
// the evaluator likes the position least for the opponent, the first such
// move on ties. It reports one info line per depth up to Limits.Depth (one
// when there is none). Infinite searches, and searches given an hour or
// more, wait for their context after reporting.
type fakeEngine struct {
	factory eval.Factory
	evals   int // successful LoadEvaluator calls
	clears  int
	// onSearch, when set, runs as each search starts.
	onSearch func()
}

func (f *fakeEngine) LoadEvaluator(spec string) error {
	fac, err := eval.Load(spec)
	if err != nil {
		return err
	}
	f.factory = fac
	f.evals++
	return nil
}

func (f *fakeEngine) Clear() { f.clears++ }

// fakeSettings is a table of one option, Eval, on a fakeEngine.
type fakeSettings struct {
	eng  *fakeEngine
	spec string
}

func (f *fakeSettings) Options() []session.Option {
	return []session.Option{{Name: "Eval", Kind: session.String, Default: "material", Help: "evaluator spec"}}
}

func (f *fakeSettings) Set(name, value string) ([]string, error) {
	if !strings.EqualFold(name, "Eval") {
		return nil, fmt.Errorf("unknown option %q", name)
	}
	if err := f.eng.LoadEvaluator(value); err != nil {
		return nil, fmt.Errorf("option Eval %q: %w", value, err)
	}
	f.spec = value
	return nil, nil
}

func (f *fakeSettings) Get(name string) (string, error) {
	if !strings.EqualFold(name, "Eval") {
		return "", fmt.Errorf("unknown option %q", name)
	}
	return f.spec, nil
}

func (f *fakeEngine) Search(ctx context.Context, pos engine.Position, _ []engine.Position, lim player.Limits, progress func(player.Info)) player.Result {
	if f.onSearch != nil {
		f.onSearch()
	}
	ev := f.factory()
	var r player.Result
	best := 0
	for _, m := range pos.LegalMoves() {
		child := pos.Play(m)
		v := -ev.Evaluate(&child)
		if !r.HasMove || v > best {
			r = player.Result{Best: m, HasMove: true, PV: []engine.Move{m}}
			best = v
		}
	}
	r.Score = player.Score(best)
	if !r.HasMove {
		r.Score = search.LossIn(0)
	}
	for d := 1; d <= max(lim.Depth, 1); d++ {
		progress(player.Info{Depth: d, SelDepth: d, Score: r.Score, Nodes: uint64(10 * d), PV: r.PV})
	}
	if lim.Infinite || lim.MoveTime >= time.Hour {
		<-ctx.Done()
	}
	return r
}

// scriptReader feeds lines to a session and records what the session printed
// in answer to each.
type scriptReader struct {
	lines   []string
	out     *syncBuffer
	turns   []turn
	history []string
	// hook, when set, runs before each line is returned.
	hook func(line string)
}

// turn is one line typed and what was printed before the next prompt.
type turn struct {
	Prompt, Input, Output string
}

// Interrupt is the script line standing for Ctrl-C at the prompt.
const Interrupt = "^C"

func (r *scriptReader) Prompt(prompt string) (string, error) {
	r.closeTurn()
	if len(r.lines) == 0 {
		return "", io.EOF
	}
	line := r.lines[0]
	r.lines = r.lines[1:]
	r.turns = append(r.turns, turn{Prompt: prompt, Input: line})
	r.out.Mark()
	if r.hook != nil {
		r.hook(line)
	}
	if line == Interrupt {
		return "", ErrInterrupted
	}
	return line, nil
}

// closeTurn stores the output since the last line in the last turn.
func (r *scriptReader) closeTurn() {
	if len(r.turns) > 0 {
		r.turns[len(r.turns)-1].Output = r.out.SinceMark()
	}
}

func (r *scriptReader) AppendHistory(line string) { r.history = append(r.history, line) }

// syncBuffer is a buffer safe for the search's progress reports.
type syncBuffer struct {
	mu   sync.Mutex
	b    strings.Builder
	mark int
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) Mark() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.mark = b.b.Len()
}

func (b *syncBuffer) SinceMark() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()[b.mark:]
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
