package client

import (
	"strconv"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/protocol/hubtext"
)

// ParseMove reads a move an engine sent in dialect d: PDN numeric or
// algebraic notation in the UCI-like dialect; in Hub, also Hub's own
// from x to x captured... form.
func ParseMove(d Dialect, p *engine.Position, s string) (engine.Move, error) {
	if d == Hub {
		return hubtext.ParseMove(p, s)
	}
	return p.ParseMove(s)
}

// parseHubLine reads one line of a Hub search reply into r; it returns true
// at done. A line that is not well-formed Hub is skipped, as the protocol
// asks of clients.
func parseHubLine(l string, r *Reply) (bool, error) {
	cmd, args, err := hubtext.ParseLine(l)
	if err != nil {
		return false, nil
	}
	switch cmd {
	case "done":
		r.Move = args.Values["move"]
		return true, nil
	case "info":
		if c, ok := args.Values["claim"]; ok {
			r.Claim = c
		}
		if s, ok := args.Values["score"]; ok {
			if v, err := strconv.ParseFloat(s, 64); err == nil {
				r.Score, r.HasScore = hubScore(v), true
			}
		}
	}
	return false, nil
}

// hubScore turns a Hub score in men into centipawns; ±(100 - n/100) is a
// win or loss in n plies.
func hubScore(men float64) int {
	switch {
	case men >= 99:
		return WinScore - int((100-men)*100+0.5)
	case men <= -99:
		return -WinScore + int((100+men)*100+0.5)
	}
	if men < 0 {
		return int(men*100 - 0.5)
	}
	return int(men*100 + 0.5)
}
