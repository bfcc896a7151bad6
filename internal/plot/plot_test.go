package plot

import (
	"bytes"
	"encoding/xml"
	"io"
	"math"
	"strings"
	"testing"
)

func TestOneSeriesHasNoLegend(t *testing.T) {
	svg := string(SVG(Chart{Title: "a < b", XLabel: "games", Note: "last", Series: []Series{
		{Name: "only", Points: []Point{{X: 1, Y: 10, Lo: -5, Hi: 25}, {X: 2, Y: 20, Lo: 0, Hi: math.Inf(1)}}},
	}}))
	for _, want := range []string{"<svg", "a &lt; b", "<polygon", "<polyline", ">last<", ">games<"} {
		if !strings.Contains(svg, want) {
			t.Errorf("SVG lacks %q:\n%s", want, svg)
		}
	}
	if strings.Contains(svg, ">only<") || strings.Contains(svg, "Inf") || strings.Contains(svg, "NaN") {
		t.Errorf("one series drew a legend or a non-number:\n%s", svg)
	}
}

func TestSeveralSeriesEachDrawnWithLegend(t *testing.T) {
	var c Chart
	for i, name := range []string{"g1", "heuristic", "gen0"} {
		c.Series = append(c.Series, Series{Name: name, Points: []Point{{X: 0, Y: float64(i), Lo: -1, Hi: 1}, {X: 1000000, Y: 5, Lo: 0, Hi: 9}}})
	}
	svg := string(SVG(c))
	if n := strings.Count(svg, "<polyline"); n != 3 {
		t.Errorf("%d lines for 3 series", n)
	}
	for _, name := range []string{">g1<", ">heuristic<", ">gen0<", ">1000000<"} {
		if !strings.Contains(svg, name) {
			t.Errorf("SVG lacks %q", name)
		}
	}
}

func TestLossChartIsXML(t *testing.T) {
	nan := math.NaN()
	svg := LossSVG(LossChart{Title: "a <title> & more", Train: []float64{nan, 0.45, 0.44}, Valid: []float64{0.5, 0.48, 0.47}, Best: 2,
		Groups: []string{"2-6", "7-10"}, Counts: []int{3, 0}, Start: []float64{0.5, nan}, Kept: []float64{0.47, nan}})
	d := xml.NewDecoder(bytes.NewReader(svg))
	for {
		if _, err := d.Token(); err == io.EOF {
			break
		} else if err != nil {
			t.Fatalf("the loss chart is not XML: %v\n%s", err, svg)
		}
	}
	if s := string(svg); strings.Count(s, "<polyline") != 4 || strings.Contains(s, "NaN") || !strings.Contains(s, "best: epoch 2") {
		t.Errorf("want 4 lines, no NaN and the best epoch:\n%s", s)
	}
}
