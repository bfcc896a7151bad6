package patterntrain

import (
	"bytes"
	"fmt"
	"math"
	"strings"
)

// PlotSVG draws the loss curve of a fit, the training and the held-out
// loss over the epochs (epoch 0 is the start, held-out only), as a
// standalone SVG document.
func PlotSVG(r *Result, title string) []byte {
	const (
		width, height            = 720.0, 420.0
		left, right, top, bottom = 72.0, 20.0, 40.0, 48.0
	)
	lo, hi := math.Inf(1), math.Inf(-1)
	see := func(v float64) {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	see(r.StartValid)
	for _, e := range r.Curve {
		see(e.Train)
		see(e.Valid)
	}
	if math.IsInf(lo, 1) {
		lo, hi = 0, 1
	}
	if hi-lo < 1e-6 {
		lo, hi = lo-1e-3, hi+1e-3
	}
	pad := (hi - lo) * 0.05
	lo, hi = lo-pad, hi+pad
	n := max(len(r.Curve), 1)
	x := func(ep int) float64 { return left + (width-left-right)*float64(ep)/float64(n) }
	y := func(v float64) float64 { return top + (height-top-bottom)*(hi-v)/(hi-lo) }
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%g" height="%g" viewBox="0 0 %g %g" font-family="sans-serif" font-size="12">`+"\n", width, height, width, height)
	b.WriteString(`<rect width="100%" height="100%" fill="white"/>` + "\n")
	fmt.Fprintf(&b, `<text x="%g" y="22" font-size="15">%s</text>`+"\n", left, escape(title))
	for i := 0; i <= 4; i++ {
		v := lo + (hi-lo)*float64(i)/4
		fmt.Fprintf(&b, `<line x1="%g" y1="%.1f" x2="%g" y2="%.1f" stroke="#ddd"/>`+"\n", left, y(v), width-right, y(v))
		fmt.Fprintf(&b, `<text x="%g" y="%.1f" text-anchor="end">%.4f</text>`+"\n", left-6, y(v)+4, v)
	}
	for ep := 0; ep <= n; ep += max(1, n/10) {
		fmt.Fprintf(&b, `<text x="%.1f" y="%g" text-anchor="middle">%d</text>`+"\n", x(ep), height-bottom+16, ep)
	}
	fmt.Fprintf(&b, `<text x="%g" y="%g" text-anchor="middle">epoch</text>`+"\n", (left+width-right)/2, height-10)
	fmt.Fprintf(&b, `<text transform="translate(16 %g) rotate(-90)" text-anchor="middle">loss (cross-entropy)</text>`+"\n", (top+height-bottom)/2)
	line := func(colour, name string, pts []string, row int) {
		if len(pts) == 0 {
			return
		}
		fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="2"/>`+"\n", strings.Join(pts, " "), colour)
		fmt.Fprintf(&b, `<text x="%g" y="%d" text-anchor="end" fill="%s">%s</text>`+"\n", width-right, int(top)+16*row, colour, name)
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
	line("#08519c", "training", train, 1)
	line("#d94801", fmt.Sprintf("held out (best: epoch %d)", r.Best), valid, 2)
	b.WriteString("</svg>\n")
	return b.Bytes()
}

func escape(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}
