package match

import (
	"bytes"
	"fmt"
	"math"
	"strings"

	"github.com/nechecb/nechecb/internal/elo"
)

// plot geometry, in SVG user units.
const (
	plotWidth, plotHeight         = 720.0, 420.0
	plotLeft, plotRight           = 64.0, 20.0
	plotTop, plotBottom           = 40.0, 48.0
	defaultEloSpan, maxPlottedElo = 100.0, 800.0
)

// PlotSVG draws the first engine's Elo estimate over the games with its 95%
// confidence band, as a standalone SVG document. Infinite bounds (all wins
// or all losses so far) are drawn at the edge of the chart.
func PlotSVG(s *Summary, title string) []byte {
	pts := s.Curve
	n := 0
	span := defaultEloSpan
	for _, p := range pts {
		n = max(n, p.Games)
		for _, v := range []float64{p.Elo, p.Lo, p.Hi} {
			if !math.IsInf(v, 0) && !math.IsNaN(v) {
				span = max(span, math.Abs(v))
			}
		}
	}
	span = math.Min(niceCeil(span), maxPlottedElo)
	n = max(n, 1)
	x := func(games int) float64 {
		return plotLeft + (plotWidth-plotLeft-plotRight)*float64(games)/float64(n)
	}
	y := func(elo float64) float64 {
		elo = math.Max(-span, math.Min(span, elo)) // clamps ±Inf too
		return plotTop + (plotHeight-plotTop-plotBottom)*(span-elo)/(2*span)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%g" height="%g" viewBox="0 0 %g %g" font-family="sans-serif" font-size="12">`+"\n",
		plotWidth, plotHeight, plotWidth, plotHeight)
	fmt.Fprintf(&b, `<rect width="100%%" height="100%%" fill="white"/>`+"\n")
	fmt.Fprintf(&b, `<text x="%g" y="22" font-size="15">%s</text>`+"\n", plotLeft, escapeXML(title))
	// Grid and axes.
	step := niceCeil(span / 4)
	for v := -math.Floor(span/step) * step; v <= span+1e-9; v += step {
		fmt.Fprintf(&b, `<line x1="%g" y1="%.1f" x2="%g" y2="%.1f" stroke="%s"/>`+"\n", plotLeft, y(v), plotWidth-plotRight, y(v), gridColour(v))
		fmt.Fprintf(&b, `<text x="%g" y="%.1f" text-anchor="end">%+g</text>`+"\n", plotLeft-6, y(v)+4, v)
	}
	fmt.Fprintf(&b, `<line x1="%g" y1="%g" x2="%g" y2="%g" stroke="black"/>`+"\n", plotLeft, plotTop, plotLeft, plotHeight-plotBottom)
	fmt.Fprintf(&b, `<text x="%g" y="%g" text-anchor="middle">games</text>`+"\n", (plotLeft+plotWidth-plotRight)/2, plotHeight-10)
	fmt.Fprintf(&b, `<text x="%g" y="%g" text-anchor="start">0</text><text x="%g" y="%g" text-anchor="end">%d</text>`+"\n",
		plotLeft, plotHeight-plotBottom+16, plotWidth-plotRight, plotHeight-plotBottom+16, n)
	fmt.Fprintf(&b, `<text transform="translate(16 %g) rotate(-90)" text-anchor="middle">Elo difference</text>`+"\n", (plotTop+plotHeight-plotBottom)/2)
	if len(pts) > 0 {
		var band, line []string
		for _, p := range pts {
			band = append(band, fmt.Sprintf("%.1f,%.1f", x(p.Games), y(p.Hi)))
			line = append(line, fmt.Sprintf("%.1f,%.1f", x(p.Games), y(p.Elo)))
		}
		for i := len(pts) - 1; i >= 0; i-- {
			band = append(band, fmt.Sprintf("%.1f,%.1f", x(pts[i].Games), y(pts[i].Lo)))
		}
		fmt.Fprintf(&b, `<polygon points="%s" fill="#9ecae1" fill-opacity="0.6" stroke="none"/>`+"\n", strings.Join(band, " "))
		fmt.Fprintf(&b, `<polyline points="%s" fill="none" stroke="#08519c" stroke-width="2"/>`+"\n", strings.Join(line, " "))
		last := pts[len(pts)-1]
		fmt.Fprintf(&b, `<text x="%g" y="%g" text-anchor="end">after %d games: %s [%s, %s]</text>`+"\n",
			plotWidth-plotRight, plotTop-6, last.Games, elo.FormatElo(last.Elo), elo.FormatElo(last.Lo), elo.FormatElo(last.Hi))
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
