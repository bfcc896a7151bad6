package cbapi

import (
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/nechecb/nechecb/engine"
	"github.com/nechecb/nechecb/internal/player"
)

func TestPlanIncrementalUnpacksTheClock(t *testing.T) {
	// Unit 2 (10 ms): 1234 units left (12.34 s), 50 units increment (0.5 s).
	info := 2 << incrementShift
	moreinfo := 1234<<16 | 50
	b := Plan(engine.Black, 3, info, moreinfo)
	want := player.Limits{BTime: 12340 * time.Millisecond, BInc: 500 * time.Millisecond}
	if !reflect.DeepEqual(b.Limits, want) || b.Soft != 0 || b.Exact {
		t.Errorf("black: %+v, want limits %+v and no soft limit", b, want)
	}
	// Unit 3 (100 ms), White, the remaining time's top bit set (unsigned).
	b = Plan(engine.White, 3, 3<<incrementShift|ExactTime, int(uint32(0xfff0)<<16|7))
	want = player.Limits{WTime: 0xfff0 * 100 * time.Millisecond, WInc: 700 * time.Millisecond}
	if !reflect.DeepEqual(b.Limits, want) {
		t.Errorf("white: %+v, want %+v", b.Limits, want)
	}
	// Unit 1 (1 ms) with nothing left still gets a clock to plan from.
	b = Plan(engine.White, 3, 1<<incrementShift, 0)
	if b.Limits.WTime != time.Millisecond {
		t.Errorf("empty clock: %+v", b.Limits)
	}
}

func TestPlanFixedTime(t *testing.T) {
	b := Plan(engine.Black, 2, ExactTime|ResetMoves, 0)
	if !reflect.DeepEqual(b.Limits, player.Limits{MoveTime: 2 * time.Second}) || !b.Exact || b.Soft != 0 {
		t.Errorf("exact: %+v", b)
	}
	b = Plan(engine.Black, 2, 0, 12345)
	if !reflect.DeepEqual(b.Limits, player.Limits{MoveTime: 3 * time.Second}) || b.Exact || b.Soft != 1200*time.Millisecond {
		t.Errorf("average: %+v", b)
	}
	for _, bad := range []float64{0, -5, math.NaN(), math.Inf(-1)} {
		if b := Plan(engine.White, bad, ExactTime, 0); b.Limits.MoveTime != time.Millisecond {
			t.Errorf("maxtime %v: %+v, want 1 ms", bad, b.Limits)
		}
	}
	if b := Plan(engine.White, math.Inf(1), ExactTime, 0); b.Limits.MoveTime != maxSeconds*time.Second {
		t.Errorf("infinite maxtime: %+v", b.Limits)
	}
}
