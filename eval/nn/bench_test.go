package nn

import (
	"flag"
	"fmt"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/engine/search"
	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/eval/pattern"
	"github.com/nechecb/nechecb/internal/cputime"
)

// benchDepth is the depth of the bench search whose evaluations the
// benchmarks replay: shallower than nechecb bench's, to keep the sequence
// (1,316,921 positions, 53 MB) quick to record.
const benchDepth = 11

// recorder is an evaluator that notes every position it is asked about.
type recorder struct {
	eval.Evaluator
	seen *[]engine.Position
}

func (r recorder) Evaluate(p *engine.Position) int {
	*r.seen = append(*r.seen, *p)
	return r.Evaluator.Evaluate(p)
}

// searchSequence returns the positions that the bench search to
// benchDepth with the pattern evaluator evaluates, in its order.
var searchSequence = sync.OnceValue(func() []engine.Position {
	var seen []engine.Position
	f := pattern.Default
	search.Bench(io.Discard, benchDepth, 1, func() search.Evaluator {
		return recorder{pattern.NewEvaluator(f()), &seen}
	}, search.Play)
	return seen
})

// BenchmarkSearchSequence evaluates the positions of the bench search
// (searchSequence) in the search's order with nn, incrementally, and with
// pattern, in one run. ns/op is per evaluation, counting the accumulator
// updates; cpu-ns/op is the process's CPU time per evaluation, less
// inflated by other programs on a shared machine; cols/eval is the
// average number of first-layer columns added or taken away per
// evaluation, both perspectives together.
func BenchmarkSearchSequence(b *testing.B) {
	seq := searchSequence()
	nf, err := NewFactory(randomNet(defaultLayout, 1))
	if err != nil {
		b.Fatal(err)
	}
	pf := func() eval.Evaluator { return pattern.NewEvaluator(pattern.Default()) }
	b.Run("nn", func(b *testing.B) { replay(b, nf, seq) })
	b.Run("pattern", func(b *testing.B) { replay(b, pf, seq) })
}

// BenchmarkSearch runs nechecb bench's search (all its positions, to
// depth searchDepth) with nn (speedNetOf the default layout) and with
// pattern, in one run, and reports "nps", the nodes searched per second of
// the process's CPU time (on a shared machine, wall-clock rates swing with
// the other programs), and "nodes", the size of the tree.
func BenchmarkSearch(b *testing.B) {
	nf, err := NewFactory(speedNetOf(defaultLayout))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("nn", func(b *testing.B) { benchSearch(b, nf) })
	b.Run("pattern", func(b *testing.B) {
		benchSearch(b, func() eval.Evaluator { return pattern.NewEvaluator(pattern.Default()) })
	})
}

// BenchmarkSearchSlots is BenchmarkSearch with nn caching several numbers
// of boards per first layer.
func BenchmarkSearchSlots(b *testing.B) {
	m, err := newModel(speedNetOf(defaultLayout))
	if err != nil {
		b.Fatal(err)
	}
	for _, slots := range []int{1, 2, 4, 8} {
		b.Run(fmt.Sprintf("slots=%d", slots), func(b *testing.B) {
			benchSearch(b, func() eval.Evaluator { return newEvaluator(m, slots) })
		})
	}
}

// benchSearch runs the bench search with f's evaluators b.N times.
func benchSearch(b *testing.B, f eval.Factory) {
	var nodes uint64
	cpu := startCPU(b)
	for range b.N {
		n, _ := search.Bench(io.Discard, searchDepth, 1, func() search.Evaluator { return f() }, search.Play)
		nodes += n
	}
	if t, ok := cputime.Self(); cpu.ok && ok {
		b.ReportMetric(float64(nodes)/(t-cpu.start).Seconds(), "nps")
	}
	b.ReportMetric(float64(nodes)/float64(b.N), "nodes")
}

// searchDepth is the depth of BenchmarkSearch's searches.
const searchDepth = 11

// BenchmarkSlots measures the evaluator with several numbers of cached
// boards over the bench search's sequence.
func BenchmarkSlots(b *testing.B) {
	seq := searchSequence()
	m, err := newModel(randomNet(defaultLayout, 1))
	if err != nil {
		b.Fatal(err)
	}
	for _, slots := range []int{1, 2, 4, 8, 16} {
		b.Run(fmt.Sprintf("slots=%d", slots), func(b *testing.B) {
			replay(b, func() eval.Evaluator { return newEvaluator(m, slots) }, seq)
		})
	}
}

// replay evaluates seq in order, from its start again when done, b.N
// positions in all.
func replay(b *testing.B, f eval.Factory, seq []engine.Position) {
	e := f()
	b.ReportAllocs()
	cpu := startCPU(b)
	sink := 0
	for i := range b.N {
		sink += e.Evaluate(&seq[i%len(seq)])
	}
	cpu.report()
	if ne, ok := e.(*Evaluator); ok && ne.evals > 0 {
		b.ReportMetric(float64(ne.columns)/float64(ne.evals), "cols/eval")
		b.ReportMetric(float64(ne.rebuilds)/float64(ne.evals), "rebuilds/eval")
	}
	_ = sink
}

var speedNet = flag.String("speednet", "", "write a random net of the default layout to this file (for nechecb bench --eval nn:FILE)")

// TestWriteSpeedNet writes, when -speednet names a file, speedNetOf the
// default layout, for measuring the search's speed with nn.

func TestWriteSpeedNet(t *testing.T) {
	if *speedNet == "" {
		t.Skip("no -speednet file asked for")
	}
	if err := speedNetOf(defaultLayout).WriteFile(*speedNet); err != nil {
		t.Fatal(err)
	}
}

// cpuClock measures the process's CPU time over a benchmark's loop.
type cpuClock struct {
	b     *testing.B
	start time.Duration
	ok    bool
}

// startCPU resets b's timer and starts measuring CPU time.
func startCPU(b *testing.B) cpuClock {
	b.ResetTimer()
	t, ok := cputime.Self()
	return cpuClock{b, t, ok}
}

// report adds "cpu-ns/op", the CPU time per iteration, where the system
// tells it: on a shared machine it is far less inflated by other programs
// than the wall-clock ns/op.
func (c cpuClock) report() {
	if t, ok := cputime.Self(); c.ok && ok {
		c.b.ReportMetric(float64(t-c.start)/float64(c.b.N), "cpu-ns/op")
	}
}

// speedNetOf returns a net of layout l for measuring speed: random weights,
// which cost what any weights cost, but with one path through the net that
// counts material (a man 125 cp, a king 200) and the rest's effect on the
// output scaled down to some 30 cp, so that a search with it grows a tree
// like one with a real evaluation rather than the huge trees of a purely
// random one.
func speedNetOf(l Layout) *Net {
	n := randomNet(l, 1)
	n.CPPerUnit = 1600
	h := l.Hidden
	for _, f := range n.First {
		for i := range Inputs {
			f.W[i*h] = 0
		}
		f.B[0] = 0
		for sq := 1; sq <= 32; sq++ {
			if i := Feature(engine.Black, engine.Black, false, sq); i >= 0 {
				f.W[i*h] = 5
			}
			f.W[Feature(engine.Black, engine.Black, true, sq)*h] = 8
		}
	}
	for i := range n.Heads {
		hd := &n.Heads[i]
		// Second layer's unit 0: 64 + own material - the opponent's.
		clear(hd.W2[:2*h])
		hd.W2[0], hd.W2[h], hd.B2[0] = 1<<n.SecondShift, -1<<n.SecondShift, 64<<n.SecondShift
		// Third layer's unit 0 copies it.
		clear(hd.W3[:l.L2])
		hd.W3[0], hd.B3[0] = 1<<WeightShift, 0
		for j := range hd.W4 {
			hd.W4[j] = int8(j%3 - 1)
		}
		hd.W4[0], hd.B4 = MaxWeight, -MaxWeight*64
	}
	return n
}
