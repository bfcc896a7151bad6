package cbapi

import (
	"fmt"
	"math"
	"time"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/internal/player"
)

// maxSeconds bounds every time the host passes (a week), so that an
// "infinite" level cannot overflow a time.Duration.
const maxSeconds = 7 * 24 * 3600

// Budget is the time plan of one getmove.
type Budget struct {
	// Limits go to the search: a hard time for this move, or the clock.
	Limits player.Limits
	// Soft, when set, is the time after which no new depth is started.
	Soft time.Duration
	// Exact is set when the host asked for exactly maxtime (the engine then
	// searches even a forced move for the whole time).
	Exact bool
	// Mode describes the plan for the status line.
	Mode string
}

// seconds converts a host time to a Duration, clamped to [0, maxSeconds]; a
// NaN counts as 0.
func seconds(s float64) time.Duration {
	if math.IsNaN(s) || s <= 0 {
		return 0
	}
	return time.Duration(math.Min(s, maxSeconds) * float64(time.Second))
}

// incrementUnits are the units of info bits 2-3: 1 ms, 10 ms, 100 ms.
var incrementUnits = [4]time.Duration{0, time.Millisecond, 10 * time.Millisecond, 100 * time.Millisecond}

// Plan turns getmove's maxtime, info and moreinfo into a Budget for side:
//   - incremental mode (info bits 2-3 nonzero): moreinfo packs the side's
//     remaining time (upper 16 bits) and increment (lower 16 bits) in that
//     unit, and the search plans from the clock;
//   - CB_EXACT_TIME: exactly maxtime;
//   - otherwise maxtime is the average time per move: no new depth starts
//     after 0.6 × maxtime and the search stops at 1.5 × maxtime, so that a
//     move takes about maxtime.
//
// A maxtime of zero or less gets 1 ms; the search always has a move ready.
func Plan(side engine.Color, maxtime float64, info, moreinfo int) Budget {
	if unit := incrementUnits[(info>>incrementShift)&3]; unit != 0 {
		packed := uint32(moreinfo)
		left := time.Duration(packed>>16) * unit
		inc := time.Duration(packed&0xffff) * unit
		var l player.Limits
		if side == engine.White {
			l.WTime, l.WInc = max(left, time.Millisecond), inc
		} else {
			l.BTime, l.BInc = max(left, time.Millisecond), inc
		}
		return Budget{Limits: l, Mode: fmt.Sprintf("clock %s + %s", fmtDuration(left), fmtDuration(inc))}
	}
	t := max(seconds(maxtime), time.Millisecond)
	if info&ExactTime != 0 {
		return Budget{Limits: player.Limits{MoveTime: t}, Exact: true, Mode: "exactly " + fmtDuration(t)}
	}
	return Budget{Limits: player.Limits{MoveTime: t * 3 / 2}, Soft: t * 6 / 10, Mode: "about " + fmtDuration(t)}
}
