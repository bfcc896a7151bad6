// Package fleetrun assembles a fleet from internal/fleet's parts. On the
// coordinator's side (evolve, datagen and match with --nats) it starts the
// embedded NATS server or connects to a real one, makes the coordinator and
// the remote runner a learner hands its games to; on the worker's side it
// plays each unit with the package that owns its kind: match units in
// match, the others in train/unitplay. The binary only turns its flags into
// Settings.
package fleetrun

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/nechecb/nechecb/internal/badinput"
	"github.com/nechecb/nechecb/internal/fleet"
	"github.com/nechecb/nechecb/match"
	"github.com/nechecb/nechecb/train/datagen"
	"github.com/nechecb/nechecb/train/unitplay"
)

// PasswordEnv names the environment variable that gives the NATS password
// when Settings.Password is empty, so that it need not be on a command
// line.
const PasswordEnv = "NECHECB_NATS_PASSWORD"

// Embedded is the Settings.URL that starts a NATS server in the
// coordinator's process instead of connecting to one.
const Embedded = "embedded"

// Settings say how to reach the NATS server and how the coordinator uses
// it. Only URL, the credentials and TLS files matter to a worker.
type Settings struct {
	// URL is the server (nats://host:4222), Embedded, or empty for no
	// fleet at all.
	URL string
	// Listen is the embedded server's address.
	Listen string
	// User, Password, NKey and Creds authenticate; CA, Cert and Key set
	// up TLS (see fleet.ConnectOptions).
	User, Password, NKey, Creds string
	CA, Cert, Key               string
	// AckWait is how long a unit may stay silent before it goes to
	// another worker; StatusEvery how often the status line is printed.
	AckWait, StatusEvery time.Duration
	// Batch is the games per work unit (0: chosen from the number of
	// games).
	Batch int
}

// Check refuses values no server would take.
func (s *Settings) Check() error {
	if s.Batch < 0 {
		return badinput.Mark(errors.New("--nats-batch may not be negative"))
	}
	if s.URL != "" && s.AckWait < time.Second {
		return badinput.Mark(errors.New("--nats-ack-wait must be at least 1s"))
	}
	return nil
}

// password is Password, or PasswordEnv's value when it is empty.
func (s *Settings) password() string {
	if s.Password != "" {
		return s.Password
	}
	return os.Getenv(PasswordEnv)
}

// connectOptions returns the connection settings for url.
func (s *Settings) connectOptions(url, name string, log func(string)) fleet.ConnectOptions {
	return fleet.ConnectOptions{URL: url, Name: name, User: s.User, Password: s.password(), NKeyFile: s.NKey,
		CredsFile: s.Creds, CAFile: s.CA, CertFile: s.Cert, KeyFile: s.Key, Log: log}
}

// Fleet is a coordinator and what it stands on.
type Fleet struct {
	// Coordinator publishes units and gathers their results; it is the
	// match runner's remote runner.
	Coordinator *fleet.Coordinator
	// Remote plays a learner's games through Coordinator.
	Remote *unitplay.Remote
	// Server is the embedded server, nil when the fleet uses another.
	Server *fleet.Server
	nc     *nats.Conn
	stderr io.Writer
	remove string // the folder Close removes
}

// Close prints the last status line and stops the coordinator, the
// connection and the embedded server.
func (f *Fleet) Close() {
	fmt.Fprintln(f.stderr, f.Coordinator.Status(context.Background()))
	f.Coordinator.Close()
	f.nc.Close()
	if f.Server != nil {
		f.Server.Shutdown()
	}
	if f.remove != "" {
		// The run's units and results are gone from the server: nothing
		// there is worth keeping.
		os.RemoveAll(f.remove)
	}
}

// Start connects to the settings' server, or starts the embedded one
// storing under dir (a temporary folder when dir is empty), and makes a
// coordinator whose log and status lines go to stderr.
func Start(ctx context.Context, s Settings, dir string, stderr io.Writer) (*Fleet, error) {
	log := func(line string) { fmt.Fprintln(stderr, "fleet: "+line) }
	f := &Fleet{stderr: stderr}
	url := s.URL
	if strings.EqualFold(url, Embedded) {
		store, remove, err := storeDir(dir)
		if err != nil {
			return nil, err
		}
		srv, err := fleet.StartServer(fleet.ServerOptions{Listen: s.Listen, StoreDir: store, User: s.User, Password: s.password()})
		if err != nil {
			os.RemoveAll(remove)
			return nil, badinput.Mark(fmt.Errorf("--nats embedded: %w", err))
		}
		f.Server, f.remove, url = srv, remove, srv.URL()
		log(fmt.Sprintf("embedded NATS server at %s; start workers with: nechecb worker --nats %s", url, url))
	}
	nc, err := fleet.Connect(s.connectOptions(url, "nechecb coordinator", log))
	if err != nil {
		f.stop()
		return nil, badinput.Mark(fmt.Errorf("--nats: %w", err))
	}
	f.nc = nc
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	c, err := fleet.NewCoordinator(cctx, nc, fleet.CoordinatorOptions{AckWait: s.AckWait, Log: log, StatusEvery: s.StatusEvery,
		Status: func(st fleet.Status) { fmt.Fprintln(stderr, st) }})
	if err != nil {
		nc.Close()
		f.stop()
		return nil, fmt.Errorf("--nats %s: %w", s.URL, err)
	}
	f.Coordinator = c
	f.Remote = &unitplay.Remote{Runner: c, Batch: s.Batch, Log: log}
	return f, nil
}

// storeDir returns the embedded server's store under dir, or a new
// temporary folder when dir is empty, and the folder to remove afterwards.
func storeDir(dir string) (store, remove string, err error) {
	if dir == "" {
		tmp, err := os.MkdirTemp("", "nechecb-nats-")
		return tmp, tmp, err
	}
	store = filepath.Join(dir, "nats")
	return store, store, nil
}

// stop shuts down the embedded server of a fleet that did not start.
func (f *Fleet) stop() {
	if f.Server != nil {
		f.Server.Shutdown()
	}
	if f.remove != "" {
		os.RemoveAll(f.remove)
	}
}

// CheckMatch checks s and, when s names a server, that c can be played on
// a fleet (match.Config.CheckRemote); what it refuses is bad input.
func CheckMatch(s Settings, c *match.Config) error {
	if err := s.Check(); err != nil {
		return err
	}
	if s.URL == "" {
		return nil
	}
	return badinput.Mark(c.CheckRemote())
}

// StartMatch checks s and c (CheckMatch) and, when s names a server,
// starts the fleet (Start) and sets c to play its games there. The
// returned stop closes the fleet.
func StartMatch(ctx context.Context, s Settings, c *match.Config, stderr io.Writer) (stop func(), err error) {
	if err := CheckMatch(s, c); err != nil {
		return nil, err
	}
	if s.URL == "" {
		return func() {}, nil
	}
	f, err := Start(ctx, s, "", stderr)
	if err != nil {
		return nil, err
	}
	c.Remote, c.RemoteBatch = f.Coordinator, s.Batch
	return f.Close, nil
}

// StartDatagen checks s and, when s names a server, starts the fleet
// (Start) and sets c to play its games there. The returned stop closes the
// fleet.
func StartDatagen(ctx context.Context, s Settings, c *datagen.Config, stderr io.Writer) (stop func(), err error) {
	if err := s.Check(); err != nil {
		return nil, err
	}
	if s.URL == "" {
		return func() {}, nil
	}
	f, err := Start(ctx, s, "", stderr)
	if err != nil {
		return nil, err
	}
	c.Remote = &unitplay.DatagenRemote{Runner: f.Coordinator, Batch: s.Batch}
	return f.Close, nil
}
