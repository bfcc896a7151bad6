package neche

import (
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval/evaltest"
)

// goldenFile holds the golden values of neche's unit tests; its sources are
// in testdata/SOURCES.md.
const goldenFile = "testdata/golden.txt"

// goldenGene is a "gene" line: how one gene decodes.
type goldenGene struct {
	text         string
	source, sink int
	raw          uint32
	weight       float64
}

// goldenValue is a "value" line: a genome's output on a board.
type goldenValue struct {
	line   int
	genome string
	board  string
	pos    engine.Position
	want   float64
}

// golden is the content of goldenFile.
type golden struct {
	genomes map[string]string
	genes   []goldenGene
	values  []goldenValue
}

// readGolden reads goldenFile, failing tb on any line it cannot read.
func readGolden(tb testing.TB) golden {
	tb.Helper()
	data, err := os.ReadFile(goldenFile)
	if err != nil {
		tb.Fatal(err)
	}
	g := golden{genomes: map[string]string{}}
	for i, line := range strings.Split(string(data), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "#") {
			continue
		}
		bad := func(err error) {
			tb.Helper()
			tb.Fatalf("%s:%d: %q: %v", goldenFile, i+1, line, err)
		}
		switch {
		case f[0] == "genome" && len(f) == 3:
			g.genomes[f[1]] = f[2]
		case f[0] == "gene" && len(f) == 6:
			x := goldenGene{text: f[1]}
			var raw uint64
			var err error
			if x.source, err = strconv.Atoi(f[2]); err != nil {
				bad(err)
			}
			if x.sink, err = strconv.Atoi(f[3]); err != nil {
				bad(err)
			}
			if raw, err = strconv.ParseUint(f[4], 10, 32); err != nil {
				bad(err)
			}
			if x.weight, err = strconv.ParseFloat(f[5], 64); err != nil {
				bad(err)
			}
			x.raw = uint32(raw)
			g.genes = append(g.genes, x)
		case f[0] == "value" && len(f) == 4:
			v := goldenValue{line: i + 1, genome: f[1], board: f[2]}
			var err error
			if v.pos, err = evaltest.ParseBoard(f[2]); err != nil {
				bad(err)
			}
			if v.want, err = strconv.ParseFloat(f[3], 64); err != nil {
				bad(err)
			}
			g.values = append(g.values, v)
		default:
			tb.Fatalf("%s:%d: unknown line %q", goldenFile, i+1, line)
		}
	}
	return g
}

// goldenText returns the letters of a golden genome (G1, G2 or G3).
func goldenText(tb testing.TB, name string) string {
	tb.Helper()
	text, ok := readGolden(tb).genomes[name]
	if !ok {
		tb.Fatalf("%s has no genome %s", goldenFile, name)
	}
	return text
}

func TestGeneExample(t *testing.T) {
	genes := readGolden(t).genes
	if len(genes) == 0 {
		t.Fatal("no gene examples")
	}
	for _, x := range genes {
		g := mustParse(t, x.text)
		want := Genome{{Source: uint8(x.source), Sink: uint8(x.sink), Raw: x.raw}}
		if diff := cmp.Diff(want, g); diff != "" {
			t.Errorf("%s (-want +got):\n%s", x.text, diff)
		}
		if w := g[0].Weight(); math.Abs(w-x.weight) > 1e-12 {
			t.Errorf("%s: weight %v, want %v", x.text, w, x.weight)
		}
	}
	// The range follows from the definition: (raw - 524288) / 10000.
	if lo, hi := (Gene{Raw: 0}).Weight(), (Gene{Raw: MaxRaw}).Weight(); lo != -52.4288 || hi != 52.4287 {
		t.Errorf("weight range [%v, %v]", lo, hi)
	}
}

func TestG1Text(t *testing.T) {
	text := goldenText(t, "G1")
	if got := G1().String(); got != text {
		t.Errorf("G1() is\n%s\nwant\n%s", got, text)
	}
	// Line 1 of the sample file is G1 padded with ignored genes.
	if line1 := readTestFile(t, "1").String(); !strings.HasPrefix(line1, text) {
		t.Error("line 1 of best_networks.txt does not start with G1")
	}
}

func TestGolden(t *testing.T) {
	g := readGolden(t)
	if len(g.values) == 0 {
		t.Fatal("no golden values")
	}
	for _, v := range g.values {
		text, ok := g.genomes[v.genome]
		if !ok {
			t.Fatalf("%s:%d: unknown genome %s", goldenFile, v.line, v.genome)
		}
		genomes := map[string]Genome{v.genome: mustParse(t, text)}
		if v.genome == "G1" {
			genomes["G1()"] = G1()
			genomes["line 1 of best_networks.txt"] = readTestFile(t, "1")
		}
		for name, genome := range genomes {
			n := Compile(genome)
			// The same board seen by the other colour: turned round, colours
			// and side to move swapped.
			rot := v.pos.Rotated()
			for _, p := range []engine.Position{v.pos, rot} {
				if got := n.Raw(&p); math.Abs(got-v.want) > 1e-9 {
					t.Errorf("line %d, %s on %s, %s to move: raw %v, want %v", v.line, name, v.board, p.Side, got, v.want)
				}
				if got, want := n.Evaluate(&p), int(math.Round(100*v.want)); got != want {
					t.Errorf("line %d, %s on %s, %s to move: score %d, want %d", v.line, name, v.board, p.Side, got, want)
				}
			}
		}
	}
}
