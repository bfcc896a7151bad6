//go:build !js

package gui

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"syscall"
	"time"

	"github.com/nechecb/nechecb/internal/session"
)

// Options are the gui command's settings.
type Options struct {
	// Addr is the address to listen on; the port may be 0 (any free one).
	Addr string
	// Open opens the page in the default browser.
	Open bool
	// Eval is the evaluator spec (the session's Eval option), DB the
	// endgame database directory (DBPath; "" leaves the built-in one), and
	// Book an opening book file (BookFile, played from at Book level 2;
	// "" leaves the book off).
	Eval, DB, Book string
	// Opener opens a URL in a browser; nil is OpenBrowser.
	Opener func(url string) error
	// Out gets the line with the page's address, Err warnings.
	Out, Err io.Writer
	// Linger keeps the match watch's server (WatchMatch) up after the
	// match, until Ctrl-C, so that the page can still show the end.
	Linger bool
	// Fleet says that the watched match plays its games on a fleet, whose
	// workers report a game only when it ends: the watch page says so.
	Fleet bool
	// Export, when set, makes Main write the browser build as a static
	// site in this folder (Export) instead of serving.
	Export string
}

// Main runs the gui command until Ctrl-C (or SIGTERM) and returns its exit
// status: 0, 1 when the server could not start (or the export failed),
// 2 for a bad setting.
func Main(opts Options) int {
	if opts.Export != "" {
		if err := Export(opts.Export, "", opts.Out); err != nil {
			fmt.Fprintf(opts.Err, "nechecb gui: --export: %v\n", err)
			return 1
		}
		return 0
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	sess, err := newSession(opts)
	if err != nil {
		fmt.Fprintf(opts.Err, "nechecb gui: %v\n", err)
		return 2
	}
	ln, err := net.Listen("tcp", opts.Addr)
	if err != nil {
		fmt.Fprintf(opts.Err, "nechecb gui: %v\n", err)
		return 1
	}
	if err := Serve(ctx, ln, sess, opts); err != nil {
		fmt.Fprintf(opts.Err, "nechecb gui: %v\n", err)
		return 1
	}
	return 0
}

// newSession makes the engine session with the settings of opts, writing
// the setters' remarks on opts.Err.
func newSession(opts Options) (*session.Session, error) {
	sess, err := session.New(session.Config{Defaults: map[string]string{"Eval": opts.Eval}})
	if err != nil {
		return nil, err
	}
	var set [][2]string
	if opts.DB != "" {
		set = append(set, [2]string{"DBPath", opts.DB})
	}
	if opts.Book != "" {
		set = append(set, [2]string{"BookFile", opts.Book}, [2]string{"Book", "2"})
	}
	for _, o := range set {
		notes, err := sess.Set(o[0], o[1])
		if err != nil {
			return nil, err
		}
		for _, n := range notes {
			fmt.Fprintf(opts.Err, "nechecb gui: %s: %s\n", o[0], n)
		}
	}
	sess.Ready()
	return sess, nil
}

// Serve serves the page on ln with the engine session sess until ctx is
// done, then stops the search under way and the server. It prints the
// page's address on opts.Out, warns on opts.Err when ln is not on a
// loopback address, and opens the page when opts.Open is set.
func Serve(ctx context.Context, ln net.Listener, sess *session.Session, opts Options) error {
	addr := ln.Addr().String()
	srv, err := New(sess, addr)
	if err != nil {
		ln.Close()
		return err
	}
	announce(ln, srv.URL(addr), "nechecb gui", opts)
	return serveUntil(ctx, ln, srv.Handler(), srv.Close)
}

// announce prints the page's address url on opts.Out as command's line,
// warns on opts.Err when ln is not on a loopback address, and opens the
// page when opts.Open is set.
func announce(ln net.Listener, url, command string, opts Options) {
	addr := ln.Addr().String()
	if tcp, ok := ln.Addr().(*net.TCPAddr); !ok || !tcp.IP.IsLoopback() {
		fmt.Fprintf(opts.Err, "%s: warning: listening on %s, not a loopback address: anyone who can reach it and learns the token can run searches and read files here\n", command, addr)
	}
	fmt.Fprintf(opts.Out, "%s: %s\n", command, url)
	if opts.Open {
		open := opts.Opener
		if open == nil {
			open = OpenBrowser
		}
		if err := open(url); err != nil {
			fmt.Fprintf(opts.Err, "%s: could not open a browser (%v); open the address above\n", command, err)
		}
	}
}

// serveUntil serves h on ln until ctx is done or the server fails, then
// calls stop (which ends what would hold a shutdown up, such as event
// streams) and shuts the server down.
func serveUntil(ctx context.Context, ln net.Listener, h http.Handler, stop func()) error {
	hs := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		stop()
		return err
	case <-ctx.Done():
	}
	stop()
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	err := hs.Shutdown(shut)
	if e := <-served; !errors.Is(e, http.ErrServerClosed) && err == nil {
		err = e
	}
	return err
}

// OpenBrowser opens url in the system's default browser.
func OpenBrowser(url string) error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", url)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		cmd = exec.Command("xdg-open", url)
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	go cmd.Wait()
	return nil
}
