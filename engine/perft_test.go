package engine

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// perftCase is a position with its published perft counts, depth 1 first.
type perftCase struct {
	name   string
	fen    string
	counts []uint64
}

// readPerftCases reads testdata/perft.txt: "NAME | FEN | COUNTS" lines,
// whose sources are listed in testdata/SOURCES.md.
func readPerftCases(t *testing.T) []perftCase {
	t.Helper()
	data, err := os.ReadFile("testdata/perft.txt")
	if err != nil {
		t.Fatal(err)
	}
	var out []perftCase
	for i, line := range strings.Split(string(data), "\n") {
		if line = strings.TrimSpace(line); line == "" || line[0] == '#' {
			continue
		}
		parts := strings.Split(line, "|")
		if len(parts) != 3 {
			t.Fatalf("perft.txt:%d: want NAME | FEN | COUNTS", i+1)
		}
		tc := perftCase{name: strings.TrimSpace(parts[0]), fen: strings.TrimSpace(parts[1])}
		for _, f := range strings.Fields(parts[2]) {
			n, err := strconv.ParseUint(f, 10, 64)
			if err != nil {
				t.Fatalf("perft.txt:%d: %v", i+1, err)
			}
			tc.counts = append(tc.counts, n)
		}
		out = append(out, tc)
	}
	if len(out) == 0 {
		t.Fatal("perft.txt holds no positions")
	}
	return out
}

// perftCaseNamed returns the case called name from testdata/perft.txt.
func perftCaseNamed(t *testing.T, name string) perftCase {
	t.Helper()
	for _, tc := range readPerftCases(t) {
		if tc.name == name {
			return tc
		}
	}
	t.Fatalf("perft.txt has no case %q", name)
	return perftCase{}
}

func TestPerft(t *testing.T) {
	for _, tc := range readPerftCases(t) {
		t.Run(tc.name, func(t *testing.T) {
			pos, err := ParseFEN(tc.fen)
			if err != nil {
				t.Fatal(err)
			}
			for i, want := range tc.counts {
				depth := i + 1
				t.Run(fmt.Sprintf("depth%d", depth), func(t *testing.T) {
					if got := Perft(&pos, depth); got != want {
						t.Errorf("perft(%d) = %d, want %d", depth, got, want)
					}
				})
			}
		})
	}
}

func TestPerftThreadsAgree(t *testing.T) {
	start := perftCaseNamed(t, "start")
	pos, err := ParseFEN(start.fen)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := PerftParallel(&pos, 8, 3), start.counts[7]; got != want {
		t.Errorf("PerftParallel(8, 3 threads) = %d, want %d", got, want)
	}
}

func TestDivideLoopCapture(t *testing.T) {
	pos, err := ParseFEN("W:WK11:B6,7,14,15")
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]uint64{}
	for _, e := range Divide(&pos, 1, 1) {
		got[e.Move.String()] = e.Nodes
	}
	want := map[string]uint64{"11x18x9x2x11": 1, "11x2x9x18x11": 1}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("divide (-want +got):\n%s", diff)
	}
}

// TestCountMovesMatchesGenerate checks the bulk counter against the generator
// along many random games, since perft relies on it for the last ply.
func TestCountMovesMatchesGenerate(t *testing.T) {
	forRandomGames(t, 300, func(p *Position) {
		var l MoveList
		p.Generate(&l)
		if got := p.CountMoves(); got != uint64(l.N) {
			t.Fatalf("%s: CountMoves = %d, Generate gives %d", p.FEN(), got, l.N)
		}
	})
}

func TestZeroAllocs(t *testing.T) {
	pos := StartPosition()
	var l MoveList
	if n := testing.AllocsPerRun(100, func() { pos.Generate(&l) }); n != 0 {
		t.Errorf("Generate allocates %v times per run", n)
	}
	kings, _ := ParseFEN("W:WK2,13,15,27,31:B1,6,9,12,K25")
	if n := testing.AllocsPerRun(100, func() { kings.Generate(&l); _ = kings.Play(l.Moves[0]) }); n != 0 {
		t.Errorf("Generate and Play allocate %v times per run", n)
	}
	pf := new(Perfter)
	if n := testing.AllocsPerRun(5, func() { pf.Perft(&pos, 6) }); n != 0 {
		t.Errorf("Perfter.Perft allocates %v times per run", n)
	}
	if n := testing.AllocsPerRun(5, func() { Perft(&kings, 5) }); n != 0 {
		t.Errorf("Perft allocates %v times per run", n)
	}
}

func BenchmarkGenerate(b *testing.B) {
	pos, _ := ParseFEN("W:W13,19,21,23,25,26,27,29,31:B1,2,5,8,10,11,12,14,18")
	var l MoveList
	b.ReportAllocs()
	for b.Loop() {
		pos.Generate(&l)
	}
}

func BenchmarkCountMoves(b *testing.B) {
	pos := StartPosition()
	b.ReportAllocs()
	var n uint64
	for b.Loop() {
		n += pos.CountMoves()
	}
	_ = n
}

// TestDivideSplitMatchesSerial checks that splitting the tree below the root
// for several goroutines gives every root move the same count as counting
// each root move alone.
func TestDivideSplitMatchesSerial(t *testing.T) {
	for _, fen := range []string{StartFEN, "W:WK2,13,15,27,31:B1,6,9,12,K25"} {
		pos, err := ParseFEN(fen)
		if err != nil {
			t.Fatal(err)
		}
		serial := Divide(&pos, 8, 1)
		for _, e := range serial {
			child := pos.Play(e.Move)
			if n := Perft(&child, 7); n != e.Nodes {
				t.Fatalf("%s: Divide gives %s %d, Perft of the child %d", fen, e.Move, e.Nodes, n)
			}
		}
		if diff := cmp.Diff(serial, Divide(&pos, 8, 3)); diff != "" {
			t.Errorf("%s: Divide with 3 threads (-1 thread +3 threads):\n%s", fen, diff)
		}
	}
}

func TestSplitTasksSplits(t *testing.T) {
	pos := StartPosition()
	var l MoveList
	pos.Generate(&l)
	var tasks []perftTask
	for i, m := range l.Slice() {
		tasks = append(tasks, perftTask{pos: pos.Play(m), root: i, depth: 9})
	}
	got := splitTasks(tasks, 512)
	// 302 positions at ply 3 are too few; the 1469 at ply 4 are enough.
	if len(got) != 1469 || got[0].depth != 6 {
		t.Errorf("splitTasks gives %d tasks of depth %d, want 1469 of depth 6", len(got), got[0].depth)
	}
}

// benchmarkPerft counts the start position to depth, spread over threads
// goroutines, and reports leaves per second.
func benchmarkPerft(b *testing.B, depth, threads int) {
	pos := StartPosition()
	b.ReportAllocs()
	var nodes uint64
	for b.Loop() {
		nodes += PerftParallel(&pos, depth, threads)
	}
	b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
}

func BenchmarkPerft9(b *testing.B) { benchmarkPerft(b, 9, 1) }

// BenchmarkPerft11 is the start position to depth 11 (85 million leaves),
// deep enough for the kings and captures of the middle game to weigh in.
func BenchmarkPerft11(b *testing.B) { benchmarkPerft(b, 11, 1) }

// BenchmarkPerftParallel11 is BenchmarkPerft11 spread over GOMAXPROCS
// goroutines; compare the two for the scaling of the tree split.
func BenchmarkPerftParallel11(b *testing.B) { benchmarkPerft(b, 11, runtime.GOMAXPROCS(0)) }
