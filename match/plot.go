package match

import (
	"fmt"

	"github.com/nechecb/nechecb/internal/elo"
	"github.com/nechecb/nechecb/internal/plot"
)

// PlotSVG draws the first engine's Elo estimate over the games with its 95%
// confidence band, as a standalone SVG document (internal/plot). Infinite
// bounds (all wins or all losses so far) are drawn at the edge of the chart.
func PlotSVG(s *Summary, title string) []byte {
	c := plot.Chart{Title: title, XLabel: "games"}
	if len(s.Curve) > 0 {
		pts := make([]plot.Point, len(s.Curve))
		for i, p := range s.Curve {
			pts[i] = plot.Point{X: float64(p.Games), Y: p.Elo, Lo: p.Lo, Hi: p.Hi}
		}
		c.Series = []plot.Series{{Points: pts}}
		last := s.Curve[len(s.Curve)-1]
		c.Note = fmt.Sprintf("after %d games: %s %s", last.Games, elo.FormatElo(last.Elo), elo.FormatInterval(last.Lo, last.Hi))
	}
	return plot.SVG(c)
}
