package main

import (
	"flag"
	"time"

	"github.com/nechecb/nechecb/internal/fleet"
	"github.com/nechecb/nechecb/internal/fleetrun"
)

// bindNATS registers the flags of every command that talks to a NATS
// server, the coordinators (evolve, datagen, match) and the worker;
// coordinator adds the ones only a coordinator has.
func bindNATS(fs *flag.FlagSet, n *fleetrun.Settings, coordinator bool) {
	if coordinator {
		fs.StringVar(&n.URL, "nats", "", "play the games on nechecb workers through this NATS server (nats://host:4222), "+
			"or 'embedded' to start one here on --nats-listen, storing in the run folder")
		fs.StringVar(&n.Listen, "nats-listen", "127.0.0.1:4222", "with --nats embedded: the address the server listens on")
		fs.DurationVar(&n.AckWait, "nats-ack-wait", fleet.DefaultAckWait, "a unit silent this long goes to another worker")
		fs.DurationVar(&n.StatusEvery, "nats-status", 10*time.Second, "print the fleet's status line this often")
		fs.IntVar(&n.Batch, "nats-batch", 0, "games per work unit (0: chosen from the number of games)")
	} else {
		fs.StringVar(&n.URL, "nats", "", "the NATS server to take work from (nats://host:4222; required)")
	}
	fs.StringVar(&n.User, "nats-user", "", "NATS user name")
	fs.StringVar(&n.Password, "nats-password", "", "NATS password (or the environment variable "+fleetrun.PasswordEnv+")")
	fs.StringVar(&n.NKey, "nats-nkey", "", "NATS nkey seed file to authenticate with")
	fs.StringVar(&n.Creds, "nats-creds", "", "NATS user credentials file (JWT)")
	fs.StringVar(&n.CA, "nats-ca", "", "PEM file of the certificate authorities to trust for TLS")
	fs.StringVar(&n.Cert, "nats-cert", "", "client certificate (PEM) for TLS, when the server asks for one")
	fs.StringVar(&n.Key, "nats-key", "", "the client certificate's key (PEM)")
}
