package patterntrain

import (
	"bytes"
	"fmt"
	"math"
	"strings"
)

// PlotSVG draws the loss curve of a fit, the training and the held-out
// loss over the epochs (epoch 0 is the start, held-out only), and below it
// the held-out loss by piece-count bucket at the start and at the kept
// epoch, as a standalone SVG document.
func PlotSVG(r *Result, title string) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%g" height="%g" viewBox="0 0 %g %g" font-family="sans-serif" font-size="12">`+"\n", width, 2*height, width, 2*height)
	b.WriteString(`<rect width="100%" height="100%" fill="white"/>` + "\n")
	curve(&b, r, title)
	buckets(&b, r)
	b.WriteString("</svg>\n")
	return b.Bytes()
}

// The size of each chart and its margins.
const (
	width, height            = 720.0, 420.0
	left, right, top, bottom = 72.0, 20.0, 40.0, 48.0
)

// span returns the range of the finite values of vs with a margin.
func span(vs []float64) (lo, hi float64) {
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

// axes draws the title, the horizontal grid with its labels and the axis
// names of a chart whose top edge is at y0.
func axes(b *bytes.Buffer, y0 float64, title, xName string, y func(float64) float64, lo, hi float64) {
	fmt.Fprintf(b, `<text x="%g" y="%g" font-size="15">%s</text>`+"\n", left, y0+22, escape(title))
	for i := 0; i <= 4; i++ {
		v := lo + (hi-lo)*float64(i)/4
		fmt.Fprintf(b, `<line x1="%g" y1="%.1f" x2="%g" y2="%.1f" stroke="#ddd"/>`+"\n", left, y(v), width-right, y(v))
		fmt.Fprintf(b, `<text x="%g" y="%.1f" text-anchor="end">%.4f</text>`+"\n", left-6, y(v)+4, v)
	}
	fmt.Fprintf(b, `<text x="%g" y="%g" text-anchor="middle">%s</text>`+"\n", (left+width-right)/2, y0+height-10, xName)
	fmt.Fprintf(b, `<text transform="translate(16 %g) rotate(-90)" text-anchor="middle">loss (cross-entropy)</text>`+"\n", y0+(top+height-bottom)/2)
}

// line draws a polyline through pts with its name in the legend's row.
func line(b *bytes.Buffer, y0 float64, colour, name string, pts []string, row int) {
	if len(pts) == 0 {
		return
	}
	fmt.Fprintf(b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="2"/>`+"\n", strings.Join(pts, " "), colour)
	fmt.Fprintf(b, `<text x="%g" y="%g" text-anchor="end" fill="%s">%s</text>`+"\n", width-right, y0+top+16*float64(row), colour, escape(name))
}

// curve draws the losses over the epochs.
func curve(b *bytes.Buffer, r *Result, title string) {
	vs := []float64{r.StartValid}
	for _, e := range r.Curve {
		vs = append(vs, e.Train, e.Valid)
	}
	lo, hi := span(vs)
	n := max(len(r.Curve), 1)
	x := func(ep int) float64 { return left + (width-left-right)*float64(ep)/float64(n) }
	y := func(v float64) float64 { return top + (height-top-bottom)*(hi-v)/(hi-lo) }
	axes(b, 0, title, "epoch", y, lo, hi)
	for ep := 0; ep <= n; ep += max(1, n/10) {
		fmt.Fprintf(b, `<text x="%.1f" y="%g" text-anchor="middle">%d</text>`+"\n", x(ep), height-bottom+16, ep)
	}
	var train, valid []string
	if !math.IsNaN(r.StartValid) && r.ValidN > 0 {
		valid = append(valid, fmt.Sprintf("%.1f,%.1f", x(0), y(r.StartValid)))
	}
	for _, e := range r.Curve {
		train = append(train, fmt.Sprintf("%.1f,%.1f", x(e.Epoch), y(e.Train)))
		if !math.IsNaN(e.Valid) {
			valid = append(valid, fmt.Sprintf("%.1f,%.1f", x(e.Epoch), y(e.Valid)))
		}
	}
	line(b, 0, "#08519c", "training", train, 1)
	line(b, 0, "#d94801", fmt.Sprintf("held out (best: epoch %d)", r.Best), valid, 2)
}

// buckets draws the held-out loss by piece-count bucket, at the start and
// at the kept epoch, below the curve.
func buckets(b *bytes.Buffer, r *Result) {
	kept := r.StartBuckets
	if r.Best > 0 && r.Best <= len(r.Curve) {
		kept = r.Curve[r.Best-1].Buckets
	}
	lo, hi := span(append(r.StartBuckets[:], kept[:]...))
	x := func(i int) float64 { return left + (width-left-right)*(float64(i)+0.5)/NumBuckets }
	y := func(v float64) float64 { return height + top + (height-top-bottom)*(hi-v)/(hi-lo) }
	axes(b, height, "held-out loss by pieces on the board", "pieces", y, lo, hi)
	for i := range NumBuckets {
		fmt.Fprintf(b, `<text x="%.1f" y="%g" text-anchor="middle">%s (%d)</text>`+"\n", x(i), 2*height-bottom+16, BucketName(i), r.BucketN[i])
	}
	points := func(ls [NumBuckets]float64) []string {
		var pts []string
		for i, v := range ls {
			if !math.IsNaN(v) && r.BucketN[i] > 0 {
				pts = append(pts, fmt.Sprintf("%.1f,%.1f", x(i), y(v)))
			}
		}
		return pts
	}
	line(b, height, "#969696", "start", points(r.StartBuckets), 1)
	line(b, height, "#d94801", fmt.Sprintf("kept epoch %d", r.Best), points(kept), 2)
}

func escape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}
