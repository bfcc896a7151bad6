package fleet

import (
	"errors"
	"fmt"
	"net"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// ServerOptions configure the embedded NATS server.
type ServerOptions struct {
	// Listen is host:port; "127.0.0.1:4222" when empty. Port 0 picks a
	// free one (URL tells which).
	Listen string
	// StoreDir is where JetStream keeps its streams (the run folder's
	// nats/ folder): units and results survive a restart of the server.
	StoreDir string
	// User and Password, when set, are required of every client.
	User, Password string
}

// Server is an embedded NATS server with JetStream.
type Server struct {
	ns *server.Server
}

// StartServer starts an embedded server and waits until it takes
// connections.
func StartServer(o ServerOptions) (*Server, error) {
	listen := o.Listen
	if listen == "" {
		listen = "127.0.0.1:4222"
	}
	host, portText, err := net.SplitHostPort(listen)
	if err != nil {
		return nil, fmt.Errorf("listen address %q: %w", listen, err)
	}
	port, err := strconv.Atoi(portText)
	if err != nil || port < 0 || port > 65535 {
		return nil, fmt.Errorf("listen address %q: bad port", listen)
	}
	if port == 0 {
		port = server.RANDOM_PORT
	}
	if o.StoreDir == "" {
		return nil, errors.New("embedded NATS server: no store folder")
	}
	opts := &server.Options{
		ServerName: "nechecb",
		Host:       host,
		Port:       port,
		JetStream:  true,
		StoreDir:   o.StoreDir,
		Username:   o.User,
		Password:   o.Password,
		NoSigs:     true,
		NoLog:      true,
		// One machine's worth of units: the defaults (a share of memory
		// and disk) are far above what a run needs.
		JetStreamMaxMemory: 256 << 20,
		JetStreamMaxStore:  4 << 30,
	}
	ns, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("embedded NATS server: %w", err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(30 * time.Second) {
		ns.Shutdown()
		return nil, fmt.Errorf("embedded NATS server on %s did not start", listen)
	}
	return &Server{ns: ns}, nil
}

// URL is the address clients connect to.
func (s *Server) URL() string { return s.ns.ClientURL() }

// Shutdown stops the server; what JetStream stored stays in its folder.
func (s *Server) Shutdown() {
	s.ns.Shutdown()
	s.ns.WaitForShutdown()
}
