package plot

import (
	"bytes"
	"fmt"
	"math"
	"strings"
)

// LossChart is a fit's loss curve, which LossSVG draws: the training and
// the held-out loss over the epochs, and below it the held-out loss by
// group (the trainers' piece-count buckets) at the start and at the kept
// epoch.
type LossChart struct {
	Title string
	// Train[e] and Valid[e] are the losses after epoch e; index 0 is the
	// start, where only Valid counts. NaN values are not drawn.
	Train, Valid []float64
	// Best is the epoch whose weights were kept.
	Best int
	// Groups name the groups; Counts, Start and Kept give each group's
	// positions and its held-out loss at the start and at the kept epoch.
	Groups      []string
	Counts      []int
	Start, Kept []float64
}

// LossSVG draws c as a standalone SVG document of two charts.
func LossSVG(c LossChart) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%g" height="%g" viewBox="0 0 %g %g" font-family="sans-serif" font-size="12">`+"\n", width, 2*height, width, 2*height)
	b.WriteString(`<rect width="100%" height="100%" fill="white"/>` + "\n")
	lossCurve(&b, c)
	lossGroups(&b, c)
	b.WriteString("</svg>\n")
	return b.Bytes()
}

// lossSpan returns the range of the finite values of vs with a margin.
func lossSpan(vs []float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range vs {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if math.IsInf(lo, 1) {
		lo, hi = 0, 1
	}
	if hi-lo < 1e-6 {
		lo, hi = lo-1e-3, hi+1e-3
	}
	pad := (hi - lo) * 0.05
	return lo - pad, hi + pad
}

// lossAxes draws the title, the horizontal grid with its labels and the
// axis names of a chart whose top edge is at y0.
func lossAxes(b *bytes.Buffer, y0 float64, title, xName string, y func(float64) float64, lo, hi float64) {
	fmt.Fprintf(b, `<text x="%g" y="%g" font-size="15">%s</text>`+"\n", left, y0+22, escapeXML(title))
	for i := 0; i <= 4; i++ {
		v := lo + (hi-lo)*float64(i)/4
		fmt.Fprintf(b, `<line x1="%g" y1="%.1f" x2="%g" y2="%.1f" stroke="#ddd"/>`+"\n", left, y(v), width-right, y(v))
		fmt.Fprintf(b, `<text x="%g" y="%.1f" text-anchor="end">%.4f</text>`+"\n", left-6, y(v)+4, v)
	}
	fmt.Fprintf(b, `<text x="%g" y="%g" text-anchor="middle">%s</text>`+"\n", (left+width-right)/2, y0+height-10, xName)
	fmt.Fprintf(b, `<text transform="translate(16 %g) rotate(-90)" text-anchor="middle">loss (cross-entropy)</text>`+"\n", y0+(top+height-bottom)/2)
}

// lossLine draws a polyline through pts with its name in the legend's row.
func lossLine(b *bytes.Buffer, y0 float64, colour, name string, pts []string, row int) {
	if len(pts) == 0 {
		return
	}
	fmt.Fprintf(b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="2"/>`+"\n", strings.Join(pts, " "), colour)
	fmt.Fprintf(b, `<text x="%g" y="%g" text-anchor="end" fill="%s">%s</text>`+"\n", width-right, y0+top+legendRow*float64(row), colour, escapeXML(name))
}

// lossCurve draws the losses over the epochs.
func lossCurve(b *bytes.Buffer, c LossChart) {
	lo, hi := lossSpan(append(append([]float64(nil), c.Train...), c.Valid...))
	n := max(len(c.Train), len(c.Valid), 2) - 1
	x := func(ep int) float64 { return left + (width-left-right)*float64(ep)/float64(n) }
	y := func(v float64) float64 { return top + (height-top-bottom)*(hi-v)/(hi-lo) }
	lossAxes(b, 0, c.Title, "epoch", y, lo, hi)
	for ep := 0; ep <= n; ep += max(1, n/10) {
		fmt.Fprintf(b, `<text x="%.1f" y="%g" text-anchor="middle">%d</text>`+"\n", x(ep), height-bottom+16, ep)
	}
	points := func(vs []float64) []string {
		var pts []string
		for ep, v := range vs {
			if !math.IsNaN(v) {
				pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(ep), y(v)))
			}
		}
		return pts
	}
	lossLine(b, 0, "#08519c", "training", points(c.Train), 1)
	lossLine(b, 0, "#d94801", fmt.Sprintf("held out (best: epoch %d)", c.Best), points(c.Valid), 2)
}

// lossGroups draws the held-out loss by group, at the start and at the
// kept epoch, below the curve.
func lossGroups(b *bytes.Buffer, c LossChart) {
	lo, hi := lossSpan(append(append([]float64(nil), c.Start...), c.Kept...))
	n := float64(max(len(c.Groups), 1))
	x := func(i int) float64 { return left + (width-left-right)*(float64(i)+0.5)/n }
	y := func(v float64) float64 { return height + top + (height-top-bottom)*(hi-v)/(hi-lo) }
	lossAxes(b, height, "held-out loss by pieces on the board", "pieces", y, lo, hi)
	count := func(i int) int {
		if i < len(c.Counts) {
			return c.Counts[i]
		}
		return 0
	}
	for i, g := range c.Groups {
		fmt.Fprintf(b, `<text x="%.1f" y="%g" text-anchor="middle">%s (%d)</text>`+"\n", x(i), 2*height-bottom+16, escapeXML(g), count(i))
	}
	points := func(ls []float64) []string {
		var pts []string
		for i, v := range ls {
			if !math.IsNaN(v) && count(i) > 0 {
				pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(i), y(v)))
			}
		}
		return pts
	}
	lossLine(b, height, "#969696", "start", points(c.Start), 1)
	lossLine(b, height, "#d94801", fmt.Sprintf("kept epoch %d", c.Best), points(c.Kept), 2)
}
