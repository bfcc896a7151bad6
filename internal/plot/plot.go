// Package plot owns the SVG charts nechecb draws, so that they read alike.
// SVG draws Elo estimates against a count (games in a match, generations in
// an evolution run), each series a line with its 95% confidence interval as
// a shaded band: the match runner (match) and the evolution runs
// (train/evolve) draw through it. LossSVG draws a fit's loss curve and its
// held-out loss by piece count: the trainers (train/fit) draw through it.
package plot

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Geometry, in SVG user units.
const (
	width, height         = 720.0, 420.0
	left, right           = 64.0, 20.0
	top, bottom           = 40.0, 48.0
	defaultSpan, maxSpan  = 100.0, 800.0
	legendRow, legendLeft = 16.0, 12.0
)

// Point is one estimate: at X, the value Y with the interval [Lo, Hi].
// Infinite values are drawn at the edge of the chart.
type Point struct {
	X, Y, Lo, Hi float64
}

// Series is one line of the chart.
type Series struct {
	// Name labels the line in the legend, which is drawn only when a chart
	// has more than one series.
	Name   string
	Points []Point
}

// Chart is what SVG draws.
type Chart struct {
	Title string
	// XLabel names the horizontal axis ("games", "generation"); the
	// vertical axis is always the Elo difference.
	XLabel string
	// Note, when not empty, is written at the top right (the latest value).
	Note   string
	Series []Series
}

// colours of the series, line and band, in order; they repeat after the
// last.
var colours = []struct{ line, band string }{
	{"#08519c", "#9ecae1"},
	{"#a63603", "#fdae6b"},
	{"#006d2c", "#a1d99b"},
	{"#54278f", "#bcbddc"},
}

// SVG draws c as a standalone SVG document: the horizontal axis runs from 0
// to the largest X (at least 1), the vertical one is symmetric around 0 and
// wide enough for every finite value, rounded up to 1, 2 or 5 times a power
// of ten and at most ±800.
func SVG(c Chart) []byte {
	xmax := 0.0
	span := defaultSpan
	for _, s := range c.Series {
		for _, p := range s.Points {
			xmax = math.Max(xmax, p.X)
			for _, v := range []float64{p.Y, p.Lo, p.Hi} {
				if !math.IsInf(v, 0) && !math.IsNaN(v) {
					span = math.Max(span, math.Abs(v))
				}
			}
		}
	}
	span = math.Min(niceCeil(span), maxSpan)
	xmax = math.Max(xmax, 1)
	x := func(v float64) float64 { return left + (width-left-right)*v/xmax }
	y := func(elo float64) float64 {
		elo = math.Max(-span, math.Min(span, elo)) // clamps ±Inf too
		return top + (height-top-bottom)*(span-elo)/(2*span)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%g" height="%g" viewBox="0 0 %g %g" font-family="sans-serif" font-size="12">`+"\n",
		width, height, width, height)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<text x="%g" y="22" font-size="15">%s</text>`+"\n", left, escapeXML(c.Title))
	// Grid and axes.
	step := niceCeil(span / 4)
	for v := -math.Floor(span/step) * step; v <= span+1e-9; v += step {
		fmt.Fprintf(&b, `<line x1="%g" y1="%.1f" x2="%g" y2="%.1f" stroke="%s"/>`+"\n", left, y(v), width-right, y(v), gridColour(v))
		fmt.Fprintf(&b, `<text x="%g" y="%.1f" text-anchor="end">%+g</text>`+"\n", left-6, y(v)+4, v)
	}
	fmt.Fprintf(&b, `<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="black"/>`+"\n", left, top, left, height-bottom)
	fmt.Fprintf(&b, `<text x="%g" y="%g" text-anchor="middle">%s</text>`+"\n", (left+width-right)/2, height-10, escapeXML(c.XLabel))
	fmt.Fprintf(&b, `<text x="%g" y="%g" text-anchor="start">0</text><text x="%g" y="%g" text-anchor="end">%s</text>`+"\n",
		left, height-bottom+16, width-right, height-bottom+16, strconv.FormatFloat(xmax, 'f', -1, 64))
	fmt.Fprintf(&b, `<text transform="translate(16 %g) rotate(-90)" text-anchor="middle">Elo difference</text>`+"\n", (top+height-bottom)/2)
	for i, s := range c.Series {
		if len(s.Points) == 0 {
			continue
		}
		col := colours[i%len(colours)]
		var band, line []string
		for _, p := range s.Points {
			band = append(band, fmt.Sprintf("%.1f,%.1f", x(p.X), y(p.Hi)))
			line = append(line, fmt.Sprintf("%.1f,%.1f", x(p.X), y(p.Y)))
		}
		for k := len(s.Points) - 1; k >= 0; k-- {
			band = append(band, fmt.Sprintf("%.1f,%.1f", x(s.Points[k].X), y(s.Points[k].Lo)))
		}
		fmt.Fprintf(&b, `<polygon points="%s" fill="%s" fill-opacity="0.6" stroke="none"/>`+"\n", strings.Join(band, " "), col.band)
		fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="%s" stroke-width="2"/>`+"\n", strings.Join(line, " "), col.line)
	}
	if len(c.Series) > 1 {
		for i, s := range c.Series {
			col := colours[i%len(colours)]
			ly := top + legendRow*float64(i+1)
			fmt.Fprintf(&b, `<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="%s" stroke-width="3"/>`+"\n",
				left+legendLeft, ly-4, left+legendLeft+18, ly-4, col.line)
			fmt.Fprintf(&b, `<text x="%g" y="%g">%s</text>`+"\n", left+legendLeft+24, ly, escapeXML(s.Name))
		}
	}
	if c.Note != "" {
		fmt.Fprintf(&b, `<text x="%g" y="%g" text-anchor="end">%s</text>`+"\n", width-right, top-6, escapeXML(c.Note))
	}
	b.WriteString("</svg>\n")
	return b.Bytes()
}

func gridColour(v float64) string {
	if v == 0 {
		return "#555"
	}
	return "#ddd"
}

// niceCeil rounds v up to 1, 2 or 5 times a power of ten.
func niceCeil(v float64) float64 {
	if v <= 0 {
		return 1
	}
	p := math.Pow(10, math.Floor(math.Log10(v)))
	for _, m := range []float64{1, 2, 5, 10} {
		if m*p >= v {
			return m * p
		}
	}
	return 10 * p
}

func escapeXML(s string) string {
	return strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;").Replace(s)
}
