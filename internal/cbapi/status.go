package cbapi

import (
	"fmt"
	"strings"
	"time"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/internal/player"
)

// MaxText is the longest text the engine writes into one of the host's
// 1024-byte buffers (str, reply): 1023 bytes and the NUL.
const MaxText = 1023

// Clip shortens s to at most n bytes, at the last space that fits when
// there is one, so that a cut line never ends inside a move.
func Clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[:n]
	if i := strings.LastIndexByte(s, ' '); i > n/2 {
		s = s[:i]
	}
	return s
}

// fmtScore writes a score for the status line: "+35" in hundredths of a
// man, or "win in 7" / "loss in 6" plies for a forced result.
func fmtScore(s player.Score) string {
	switch {
	case s.IsWin():
		return fmt.Sprintf("win in %d", s.Plies())
	case s.IsLoss():
		return fmt.Sprintf("loss in %d", s.Plies())
	}
	return fmt.Sprintf("%+d", int(s))
}

// fmtDuration writes d in seconds: two decimals below 100 s, none above.
func fmtDuration(d time.Duration) string {
	if s := d.Seconds(); s < 100 {
		return fmt.Sprintf("%.2fs", s)
	}
	return fmt.Sprintf("%.0fs", d.Seconds())
}

// fmtSpeed writes nodes per second in kN/s.
func fmtSpeed(nps uint64) string { return fmt.Sprintf("%d kN/s", nps/1000) }

// pvText writes a line of moves in numeric notation, played from p.
func pvText(p engine.Position, pv []engine.Move) string {
	parts := make([]string, 0, len(pv))
	for _, m := range pv {
		parts = append(parts, p.Notation(m))
		p = p.Play(m)
	}
	return strings.Join(parts, " ")
}

// StatusLine is the line shown while the engine thinks about root: depth
// (and selective depth), score, time, speed and principal variation, then,
// with "allscores", the latest score of every root move (lines without a
// move are skipped). It is at
// most MaxText bytes.
func StatusLine(root engine.Position, in player.Info, all []player.Info) string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "depth %d/%d  score %s  time %s  speed %s  pv %s",
		in.Depth, in.SelDepth, fmtScore(in.Score), fmtDuration(in.Time), fmtSpeed(in.NPS), pvText(root, in.PV))
	if len(all) > 1 {
		sb.WriteString("  all:")
		for _, l := range all {
			if len(l.PV) > 0 {
				fmt.Fprintf(&sb, " %s %s", root.Notation(l.PV[0]), fmtScore(l.Score))
			}
		}
	}
	return Clip(sb.String(), MaxText)
}
