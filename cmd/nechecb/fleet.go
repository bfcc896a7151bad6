package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/nechecb/nechecb/internal/fleet"
	"github.com/nechecb/nechecb/train/unitplay"
)

// natsFlags are the flags of every command that talks to a NATS server:
// the coordinators (evolve, datagen) and the worker.
type natsFlags struct {
	url, listen                 string
	user, password, nkey, creds string
	ca, cert, key               string
	ackWait, statusEvery        time.Duration
	batch                       int
}

// natsFlagNames are the flags natsFlags registers, none of which shapes a
// run's results.
var natsFlagNames = []string{"nats", "nats-listen", "nats-user", "nats-password", "nats-nkey", "nats-creds", "nats-ca",
	"nats-cert", "nats-key", "nats-ack-wait", "nats-status", "nats-batch"}

// bind registers the flags; coordinator adds the ones only a coordinator
// has.
func (n *natsFlags) bind(fs *flag.FlagSet, coordinator bool) {
	if coordinator {
		fs.StringVar(&n.url, "nats", "", "play the games on nechecb workers through this NATS server (nats://host:4222), "+
			"or 'embedded' to start one here on --nats-listen, storing in the run folder")
		fs.StringVar(&n.listen, "nats-listen", "127.0.0.1:4222", "with --nats embedded: the address the server listens on")
		fs.DurationVar(&n.ackWait, "nats-ack-wait", fleet.DefaultAckWait, "a unit silent this long goes to another worker")
		fs.DurationVar(&n.statusEvery, "nats-status", 10*time.Second, "print the fleet's status line this often")
		fs.IntVar(&n.batch, "nats-batch", 0, "games per work unit (0: chosen from the number of games)")
	} else {
		fs.StringVar(&n.url, "nats", "", "the NATS server to take work from (nats://host:4222; required)")
	}
	fs.StringVar(&n.user, "nats-user", "", "NATS user name")
	fs.StringVar(&n.password, "nats-password", "", "NATS password (or the environment variable NECHECB_NATS_PASSWORD)")
	fs.StringVar(&n.nkey, "nats-nkey", "", "NATS nkey seed file to authenticate with")
	fs.StringVar(&n.creds, "nats-creds", "", "NATS user credentials file (JWT)")
	fs.StringVar(&n.ca, "nats-ca", "", "PEM file of the certificate authorities to trust for TLS")
	fs.StringVar(&n.cert, "nats-cert", "", "client certificate (PEM) for TLS, when the server asks for one")
	fs.StringVar(&n.key, "nats-key", "", "the client certificate's key (PEM)")
}

// connectOptions returns the connection settings of the flags for url.
func (n *natsFlags) connectOptions(url, name string, log func(string)) fleet.ConnectOptions {
	password := n.password
	if password == "" {
		password = os.Getenv("NECHECB_NATS_PASSWORD")
	}
	return fleet.ConnectOptions{URL: url, Name: name, User: n.user, Password: password, NKeyFile: n.nkey,
		CredsFile: n.creds, CAFile: n.ca, CertFile: n.cert, KeyFile: n.key, Log: log}
}

// coordinatorFleet is a coordinator and what it stands on.
type coordinatorFleet struct {
	coord  *fleet.Coordinator
	nc     *nats.Conn
	server *fleet.Server
	remote *unitplay.Remote
	stderr io.Writer
	store  string
}

// Close prints the last status line and stops the coordinator, the
// connection and the embedded server.
func (f *coordinatorFleet) Close() {
	fmt.Fprintln(f.stderr, f.coord.Status(context.Background()))
	f.coord.Close()
	f.nc.Close()
	if f.server != nil {
		f.server.Shutdown()
		// The run's units and results are gone from it: nothing there is
		// worth keeping.
		os.RemoveAll(f.store)
	}
}

// startCoordinator connects to the flags' server, or starts the embedded
// one storing under dir, and makes a coordinator whose log and status
// lines go to stderr.
func (n *natsFlags) startCoordinator(ctx context.Context, dir string, stderr io.Writer) (*coordinatorFleet, error) {
	log := func(s string) { fmt.Fprintln(stderr, "fleet: "+s) }
	f := &coordinatorFleet{stderr: stderr}
	url := n.url
	if strings.EqualFold(url, "embedded") {
		password := n.password
		if password == "" {
			password = os.Getenv("NECHECB_NATS_PASSWORD")
		}
		f.store = filepath.Join(dir, "nats")
		srv, err := fleet.StartServer(fleet.ServerOptions{Listen: n.listen, StoreDir: f.store, User: n.user, Password: password})
		if err != nil {
			return nil, badInput(fmt.Errorf("--nats embedded: %w", err))
		}
		f.server, url = srv, srv.URL()
		log(fmt.Sprintf("embedded NATS server at %s; start workers with: nechecb worker --nats %s", url, url))
	}
	nc, err := fleet.Connect(n.connectOptions(url, "nechecb coordinator", log))
	if err != nil {
		if f.server != nil {
			f.server.Shutdown()
		}
		return nil, badInput(fmt.Errorf("--nats: %w", err))
	}
	f.nc = nc
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	c, err := fleet.NewCoordinator(cctx, nc, fleet.CoordinatorOptions{AckWait: n.ackWait, Log: log, StatusEvery: n.statusEvery,
		Status: func(s fleet.Status) { fmt.Fprintln(stderr, s) }})
	if err != nil {
		nc.Close()
		if f.server != nil {
			f.server.Shutdown()
		}
		return nil, fmt.Errorf("--nats %s: %w", n.url, err)
	}
	f.coord = c
	f.remote = &unitplay.Remote{Runner: c, Batch: n.batch, Log: log}
	return f, nil
}

// check refuses flag values no server would take.
func (n *natsFlags) check() error {
	if n.batch < 0 {
		return badInput(errors.New("--nats-batch may not be negative"))
	}
	if n.url != "" && n.ackWait < time.Second {
		return badInput(errors.New("--nats-ack-wait must be at least 1s"))
	}
	return nil
}
