package evolve

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"

	"github.com/nechecb/nechecb/books"
	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/eval"
	"github.com/nechecb/nechecb/eval/heuristic"
	"github.com/nechecb/nechecb/eval/neche"
	"github.com/nechecb/nechecb/internal/elo"
	"github.com/nechecb/nechecb/internal/fileio"
	"github.com/nechecb/nechecb/internal/plot"
)

// CurveFile and PlotFile are the curve's table and the default name of its
// chart in a run folder.
const (
	CurveFile = "curve.tsv"
	PlotFile  = "curve.svg"
)

// Names of the curve's fixed opponents.
const (
	// OpponentG1 is neche's material genome G1 (men 1, kings 2), the
	// network of testdata/neche_g1.txt.
	OpponentG1 = "g1"
	// OpponentHeuristic is the tuned hand-written heuristic, nechecb's
	// default evaluator.
	OpponentHeuristic = "heuristic"
	// OpponentGen0 is the best individual of generation 0 of the run.
	OpponentGen0 = "gen0"
)

// Opponent is one fixed opponent of the curve.
type Opponent struct {
	Name string
	Eval eval.Factory
}

// FixedOpponents returns G1 and the tuned heuristic.
func FixedOpponents() []Opponent {
	g1 := neche.Compile(neche.G1())
	model := heuristic.NewModel(heuristic.DefaultWeights())
	return []Opponent{
		{OpponentG1, func() eval.Evaluator { return g1 }},
		{OpponentHeuristic, func() eval.Evaluator { return heuristic.NewEvaluator(model) }},
	}
}

// FixedOpponent returns the fixed opponent named name (OpponentG1 or
// OpponentHeuristic), for learners that play it as a ladder.
func FixedOpponent(name string) (eval.Factory, error) {
	var names []string
	for _, o := range FixedOpponents() {
		if o.Name == name {
			return o.Eval, nil
		}
		names = append(names, o.Name)
	}
	return nil, fmt.Errorf("ladder opponent %q: want one of %v", name, names)
}

// CurveRow is one measurement: the best individual of generation Gen
// against Opponent. Tally counts its games and colour-reversed pairs; Elo,
// Lo and Hi are the Elo difference and its 95% interval (from the pairs).
type CurveRow struct {
	Gen         int
	Opponent    string
	Tally       elo.Tally
	Elo, Lo, Hi float64
}

// Openings returns the start positions of the curve games: the first n
// standard 3-move ballots, all of them (157) when n <= 0.
func Openings(n int) ([]engine.Position, error) {
	ballots, err := books.Standard("3move")
	if err != nil {
		return nil, err
	}
	if n > 0 && n < len(ballots) {
		ballots = ballots[:n]
	}
	out := make([]engine.Position, len(ballots))
	for i, b := range ballots {
		g, err := b.Play()
		if err != nil {
			return nil, fmt.Errorf("ballot %s: %w", b.Name, err)
		}
		out[i] = g.Current()
	}
	return out, nil
}

// MeasureCurve plays best against each opponent from every opening, once
// with each colour, on pool, and returns one row per opponent. The games'
// seeds come from (seed, gen, StreamCurve, index), so a measurement is the
// same whatever the number of workers.
func MeasureCurve(ctx context.Context, pool *Pool, seed uint64, gen int, best eval.Factory, opps []Opponent, openings []engine.Position) ([]CurveRow, error) {
	cast := []eval.Factory{best}
	var games []Game
	for o, opp := range opps {
		cast = append(cast, opp.Eval)
		for _, start := range openings {
			for c := range 2 {
				g := Game{Black: 0, White: o + 1, Start: start, Seed: GameSeed(seed, gen, StreamCurve, len(games))}
				if c == 1 {
					g.Black, g.White = o+1, 0
				}
				games = append(games, g)
			}
		}
	}
	results := make([]Result, len(games))
	if err := pool.Play(ctx, cast, games, results); err != nil {
		return nil, err
	}
	rows := make([]CurveRow, len(opps))
	k := 0
	for o, opp := range opps {
		row := CurveRow{Gen: gen, Opponent: opp.Name}
		for range openings {
			pair := 0
			for c := range 2 {
				side := engine.Black
				if c == 1 {
					side = engine.White
				}
				half := int(2 * results[k].Points(side))
				row.Tally.Add(half)
				pair += half
				k++
			}
			row.Tally.AddPair(pair)
		}
		row.Elo, row.Lo, row.Hi = row.Tally.Elo()
		rows[o] = row
	}
	return rows, nil
}

// curveHeader names the columns of curve.tsv.
const curveHeader = "generation\topponent\twins\tlosses\tdraws\tscore\telo\telo_lo\telo_hi\tpairs"

// FormatCurve writes rows as curve.tsv: a header line, then one row per
// measurement: generation, opponent, W, L, D, the score (0..1), the Elo
// difference and its 95% interval, and the pair counts (pairs scoring 0..4
// half-points, comma-separated).
func FormatCurve(rows []CurveRow) []byte {
	var b bytes.Buffer
	b.WriteString(curveHeader + "\n")
	for _, r := range rows {
		p := r.Tally.Penta
		fmt.Fprintf(&b, "%d\t%s\t%d\t%d\t%d\t%.4f\t%s\t%s\t%s\t%d,%d,%d,%d,%d\n", r.Gen, r.Opponent, r.Tally.W, r.Tally.L, r.Tally.D,
			r.Tally.Score(), elo.FormatElo(r.Elo), elo.FormatElo(r.Lo), elo.FormatElo(r.Hi), p[0], p[1], p[2], p[3], p[4])
	}
	return b.Bytes()
}

// ReadCurveFile reads curve.tsv at path; a missing file is an empty curve.
func ReadCurveFile(path string) ([]CurveRow, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadCurve(f, path)
}

// ReadCurve reads a curve table written by FormatCurve; name is used in
// errors, which give the line.
func ReadCurve(r io.Reader, name string) ([]CurveRow, error) {
	var rows []CurveRow
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		if line == 1 {
			if text != curveHeader {
				return nil, fmt.Errorf("%s:1: not a curve table (want the header %q)", name, curveHeader)
			}
			continue
		}
		if strings.TrimSpace(text) == "" {
			continue
		}
		row, err := parseCurveRow(text)
		if err != nil {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		rows = append(rows, row)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return rows, nil
}

func parseCurveRow(text string) (CurveRow, error) {
	f := strings.Split(text, "\t")
	if len(f) != 10 {
		return CurveRow{}, fmt.Errorf("%d columns, want 10", len(f))
	}
	var r CurveRow
	var err error
	ints := []*int{&r.Gen, &r.Tally.W, &r.Tally.L, &r.Tally.D}
	for i, col := range []int{0, 2, 3, 4} {
		if *ints[i], err = strconv.Atoi(f[col]); err != nil || *ints[i] < 0 {
			return r, fmt.Errorf("column %d: %q is not a count", col+1, f[col])
		}
	}
	r.Opponent = f[1]
	for i, dst := range []*float64{&r.Elo, &r.Lo, &r.Hi} {
		if *dst, err = strconv.ParseFloat(f[6+i], 64); err != nil {
			return r, fmt.Errorf("column %d: %q is not a number", 7+i, f[6+i])
		}
	}
	pairs := strings.Split(f[9], ",")
	if len(pairs) != 5 {
		return r, fmt.Errorf("column 10: %q is not five pair counts", f[9])
	}
	for i, p := range pairs {
		if r.Tally.Penta[i], err = strconv.Atoi(p); err != nil || r.Tally.Penta[i] < 0 {
			return r, fmt.Errorf("column 10: %q is not five pair counts", f[9])
		}
	}
	return r, nil
}

// WriteCurve writes rows to path atomically.
func WriteCurve(path string, rows []CurveRow) error {
	return fileio.WriteAtomic(path, FormatCurve(rows))
}

// PlotCurve draws the curve: Elo against generation, one line per
// opponent (in order of first appearance) with its 95% interval as a band.
func PlotCurve(rows []CurveRow, title string) []byte {
	c := plot.Chart{Title: title, XLabel: "generation"}
	index := map[string]int{}
	for _, r := range rows {
		i, ok := index[r.Opponent]
		if !ok {
			i = len(c.Series)
			index[r.Opponent] = i
			c.Series = append(c.Series, plot.Series{Name: "vs " + r.Opponent})
		}
		c.Series[i].Points = append(c.Series[i].Points, plot.Point{X: float64(r.Gen), Y: r.Elo, Lo: r.Lo, Hi: r.Hi})
	}
	if n := len(rows); n > 0 {
		last := rows[n-1].Gen
		var parts []string
		for _, r := range rows {
			if r.Gen == last {
				parts = append(parts, fmt.Sprintf("%s %s", r.Opponent, elo.FormatElo(r.Elo)))
			}
		}
		c.Note = fmt.Sprintf("generation %d: %s", last, strings.Join(parts, ", "))
	}
	return plot.SVG(c)
}
