package match

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nechecb/nechecb/internal/badinput"
	"github.com/nechecb/nechecb/protocol/client"
)

// TestRunJob plays a two-game match through RunJob, with its table and
// plot, and checks that settings that are wrong are bad input while a plot
// that cannot be written is not.
func TestRunJob(t *testing.T) {
	dir := t.TempDir()
	job := func() Job {
		return Job{
			Config: Config{Engines: []client.Config{fakeConfig("A", "ok", client.UCI), fakeConfig("B", "ok", client.UCI)},
				Games: 2, MaxMoves: 10, Timeout: time.Minute, Limits: Limits{Depth: 1}},
			Openings: "3move", Quiet: true, Stdout: new(strings.Builder), Stderr: new(strings.Builder),
		}
	}
	j := job()
	j.Plot = filepath.Join(dir, "elo.svg")
	fleetCalled := false
	j.Fleet = func(ctx context.Context, c *Config) (func(), error) {
		fleetCalled = len(c.Openings) > 0
		return func() {}, nil
	}
	if err := RunJob(j); err != nil {
		t.Fatal(err)
	}
	if table := j.Stdout.(*strings.Builder).String(); !strings.Contains(table, "A") || !strings.Contains(table, "B") {
		t.Errorf("table:\n%s", table)
	}
	if svg, err := os.ReadFile(j.Plot); err != nil || !strings.Contains(string(svg), "A vs B") {
		t.Errorf("plot: %v", err)
	}
	if !fleetCalled {
		t.Error("the fleet hook was not called with the checked settings")
	}
	for _, bad := range []func(*Job){
		func(j *Job) { j.TimeControl = "ten" },
		func(j *Job) { j.SPRT = "elo0=x" },
		func(j *Job) { j.Openings = filepath.Join(dir, "none.pdn") },
		func(j *Job) { j.Engines = j.Engines[:1] },
	} {
		j := job()
		bad(&j)
		if err := RunJob(j); !badinput.Is(err) {
			t.Errorf("%+v: %v, want bad input", j, err)
		}
	}
	j = job()
	j.Plot = filepath.Join(dir, "no", "such", "elo.svg")
	if err := RunJob(j); err == nil || badinput.Is(err) || !strings.Contains(err.Error(), "--plot") {
		t.Errorf("unwritable plot: %v, want a failure naming --plot", err)
	}
}
