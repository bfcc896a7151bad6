package fleetrun

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nechecb/nechecb/internal/badinput"
	"github.com/nechecb/nechecb/internal/workunit"
)

func TestSettingsCheck(t *testing.T) {
	for _, tc := range []struct {
		s    Settings
		want string
	}{
		{Settings{Batch: -1}, "--nats-batch may not be negative"},
		{Settings{URL: "nats://x:4222", AckWait: time.Millisecond}, "--nats-ack-wait must be at least 1s"},
		{Settings{}, ""},
		{Settings{URL: "nats://x:4222", AckWait: time.Second}, ""},
	} {
		err := tc.s.Check()
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !badinput.Is(err) || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%+v: %v, want %q", tc.s, err, tc.want)
		}
	}
}

func TestPasswordFromEnvironment(t *testing.T) {
	t.Setenv(PasswordEnv, "from-env")
	if got := (&Settings{}).password(); got != "from-env" {
		t.Errorf("empty password: %q, want the environment's", got)
	}
	if got := (&Settings{Password: "given"}).password(); got != "given" {
		t.Errorf("given password: %q", got)
	}
}

func TestWorkRefusesBadSettings(t *testing.T) {
	for _, tc := range []struct {
		s    Settings
		w    WorkerConfig
		want string
	}{
		{Settings{}, WorkerConfig{Concurrency: 1}, "--nats is required"},
		{Settings{URL: "nats://127.0.0.1:1"}, WorkerConfig{}, "--concurrency must be at least 1"},
	} {
		err := Work(context.Background(), tc.s, tc.w)
		if err == nil || !badinput.Is(err) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Work(%+v, %+v): %v, want bad input naming %q", tc.s, tc.w, err, tc.want)
		}
	}
}

func TestStallAtHoldsTheNthUnit(t *testing.T) {
	var played atomic.Int64
	execute := stallAt(2, func(context.Context, *workunit.Unit) (*workunit.Result, error) {
		played.Add(1)
		return &workunit.Result{}, nil
	})
	if _, err := execute(context.Background(), &workunit.Unit{}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := execute(ctx, &workunit.Unit{}); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("second unit: %v, want it held until its context ends", err)
	}
	if _, err := execute(context.Background(), &workunit.Unit{}); err != nil || played.Load() != 2 {
		t.Errorf("third unit: %v, %d played; want the others played", err, played.Load())
	}
}

func TestStartEmbeddedAndClose(t *testing.T) {
	dir := t.TempDir()
	var log strings.Builder
	f, err := Start(context.Background(), Settings{URL: "EMBEDDED", Listen: "127.0.0.1:0", AckWait: time.Minute}, dir, &log)
	if err != nil {
		t.Fatal(err)
	}
	if f.Server == nil || f.Coordinator == nil || f.Remote == nil {
		t.Fatalf("embedded fleet %+v: want a server, a coordinator and a remote runner", f)
	}
	if !strings.Contains(log.String(), "embedded NATS server at "+f.Server.URL()) {
		t.Errorf("log %q does not give the server's address", log.String())
	}
	store := filepath.Join(dir, "nats")
	if _, err := os.Stat(store); err != nil {
		t.Errorf("the server's store: %v", err)
	}
	f.Close()
	if _, err := os.Stat(store); !os.IsNotExist(err) {
		t.Errorf("the store after Close: %v, want it removed", err)
	}
	if !strings.Contains(log.String(), "workers") {
		t.Errorf("log %q lacks the last status line", log.String())
	}
}
