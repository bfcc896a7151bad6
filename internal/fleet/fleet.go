// Package fleet owns the transport of work units (internal/workunit) over
// NATS JetStream: the coordinator publishes units to a work-queue stream,
// workers on any number of machines pull them, play them and publish
// results to a second stream, and the coordinator validates each result
// (workunit.Validate), drops duplicates by unit id and hands the results
// back in unit order. Acks and redelivery after a timeout give
// at-least-once execution: a worker that dies mid-unit costs one
// redelivery. Large weight files travel once, through a JetStream object
// store, and units name them by content hash.
//
// The package also starts an embedded NATS server (StartServer) so that one
// machine needs nothing installed, and connects to a real one with
// credentials and TLS (Connect). It knows nothing of evaluators or of how a
// unit is played: the worker is given an Execute function by the binary.
package fleet

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// Names of the streams, subjects, consumer and object store.
const (
	// UnitStream holds the units waiting for a worker, on subjects
	// UnitSubject + run id.
	UnitStream  = "NECHECB_UNITS"
	UnitSubject = "nechecb.unit."
	// ResultStream holds the results waiting for their coordinator, on
	// subjects ResultSubject + run id.
	ResultStream  = "NECHECB_RESULTS"
	ResultSubject = "nechecb.result."
	// WorkerConsumer is the durable pull consumer every worker shares.
	WorkerConsumer = "workers"
	// WeightStore is the object store of weight files, named by hash.
	WeightStore = "nechecb-weights"
	// heartbeatSubject carries the workers' "still here" messages, from
	// which the coordinator counts them.
	heartbeatSubject = "nechecb.worker.heartbeat"
	// slotsHeader, in a heartbeat, is how many units the worker plays at
	// once (its --concurrency; 1 when missing).
	slotsHeader = "Nechecb-Slots"
	// pingSubject asks every worker for a heartbeat now.
	pingSubject = "nechecb.worker.ping"
)

// DefaultAckWait is how long a unit may go without word from its worker
// before JetStream gives it to another: workers report progress every
// quarter of it while they play.
const DefaultAckWait = 30 * time.Second

// maxAge is how long a unit or a result stays in its stream: those of a
// coordinator that was killed, and so never took them off, expire.
const maxAge = 7 * 24 * time.Hour

// heartbeatEvery is how often a worker says it is there.
const heartbeatEvery = 2 * time.Second

// ConnectOptions say how to reach a NATS server.
type ConnectOptions struct {
	// URL is the server (nats://host:4222, tls://host:4222, or several,
	// comma-separated).
	URL string
	// Name is the connection's name in the server's monitoring.
	Name string
	// User and Password authenticate with a user name and password.
	User, Password string
	// NKeyFile is an nkey seed file to authenticate with instead.
	NKeyFile string
	// CredsFile is a JWT user credentials file (decentralised auth).
	CredsFile string
	// CAFile is a PEM file of the certificate authorities to trust for
	// TLS; CertFile and KeyFile are the client certificate, when the
	// server asks for one.
	CAFile, CertFile, KeyFile string
	// Log, when set, hears of disconnections and reconnections.
	Log func(string)
}

// Connect connects to the server, retrying while it is not up yet and
// reconnecting forever after it goes away.
func Connect(o ConnectOptions) (*nats.Conn, error) {
	if o.URL == "" {
		return nil, errors.New("no NATS URL")
	}
	opts := []nats.Option{
		nats.Name(o.Name),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(250 * time.Millisecond),
		nats.RetryOnFailedConnect(true),
		nats.ReconnectBufSize(64 << 20),
	}
	if o.User != "" || o.Password != "" {
		opts = append(opts, nats.UserInfo(o.User, o.Password))
	}
	if o.NKeyFile != "" {
		opt, err := nats.NkeyOptionFromSeed(o.NKeyFile)
		if err != nil {
			return nil, fmt.Errorf("nkey file %s: %w", o.NKeyFile, err)
		}
		opts = append(opts, opt)
	}
	if o.CredsFile != "" {
		if _, err := os.Stat(o.CredsFile); err != nil {
			return nil, fmt.Errorf("credentials file: %w", err)
		}
		opts = append(opts, nats.UserCredentials(o.CredsFile))
	}
	if o.CAFile != "" {
		opts = append(opts, nats.RootCAs(o.CAFile))
	}
	if o.CertFile != "" || o.KeyFile != "" {
		if o.CertFile == "" || o.KeyFile == "" {
			return nil, errors.New("a client certificate needs both the certificate and the key file")
		}
		opts = append(opts, nats.ClientCert(o.CertFile, o.KeyFile))
	}
	if o.Log != nil {
		opts = append(opts,
			nats.DisconnectErrHandler(func(_ *nats.Conn, err error) {
				if err != nil {
					o.Log(fmt.Sprintf("disconnected from NATS: %v", err))
				}
			}),
			nats.ReconnectHandler(func(nc *nats.Conn) { o.Log("reconnected to NATS at " + nc.ConnectedUrl()) }))
	}
	nc, err := nats.Connect(o.URL, opts...)
	if err != nil {
		return nil, fmt.Errorf("NATS %s: %w", o.URL, err)
	}
	return nc, nil
}

// ensureStreams creates the streams and the weight store when they are
// missing; coordinators and workers ask for the same ones.
func ensureStreams(ctx context.Context, js jetstream.JetStream) (jetstream.ObjectStore, error) {
	for _, s := range []jetstream.StreamConfig{
		{Name: UnitStream, Subjects: []string{UnitSubject + ">"}, Retention: jetstream.WorkQueuePolicy, Storage: jetstream.FileStorage,
			MaxAge: maxAge, Description: "nechecb work units waiting for a worker"},
		{Name: ResultStream, Subjects: []string{ResultSubject + ">"}, Retention: jetstream.WorkQueuePolicy, Storage: jetstream.FileStorage,
			MaxAge: maxAge, Description: "nechecb work results waiting for their coordinator"},
	} {
		if _, err := js.Stream(ctx, s.Name); err == nil {
			continue
		}
		if _, err := js.CreateStream(ctx, s); err != nil && !errors.Is(err, jetstream.ErrStreamNameAlreadyInUse) {
			return nil, fmt.Errorf("stream %s: %w", s.Name, err)
		}
	}
	obs, err := js.ObjectStore(ctx, WeightStore)
	if err == nil {
		return obs, nil
	}
	obs, err = js.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{Bucket: WeightStore, Storage: jetstream.FileStorage,
		Description: "nechecb weight files, named by their SHA-256"})
	if err != nil {
		return nil, fmt.Errorf("object store %s: %w", WeightStore, err)
	}
	return obs, nil
}

// workerConsumerConfig is the shared pull consumer's settings.
func workerConsumerConfig(ackWait time.Duration) jetstream.ConsumerConfig {
	return jetstream.ConsumerConfig{Durable: WorkerConsumer, AckPolicy: jetstream.AckExplicitPolicy, AckWait: ackWait,
		MaxDeliver: -1, MaxAckPending: 100000, FilterSubject: UnitSubject + ">",
		Description: "nechecb workers pull work units here"}
}

// runOf returns the run id of a unit or result subject.
func runOf(subject, prefix string) (string, bool) {
	run, ok := strings.CutPrefix(subject, prefix)
	return run, ok && run != "" && !strings.ContainsAny(run, ".*> ")
}
