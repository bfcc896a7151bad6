package gui

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net"
	"net/http"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nechecb/nechecb/internal/session"
)

// syncBuffer is a bytes.Buffer safe for a writer and a reader at once.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}

// sessionAndListener makes a session with the material evaluator and no
// endgame database, and a listener on a free loopback port.
func sessionAndListener(t *testing.T) (*session.Session, net.Listener) {
	t.Helper()
	sess, err := session.New(session.Config{Defaults: map[string]string{"Eval": "material", "DBPath": "none"}})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return sess, ln
}

// TestServeStopsCleanly serves on a loopback port, checks the line it
// prints, runs an analysis, and cancels the context as Ctrl-C does: Serve
// returns, the search stopped, and the opener was never called.
func TestServeStopsCleanly(t *testing.T) {
	sess, ln := sessionAndListener(t)
	var out, errOut syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	opts := Options{Out: &out, Err: &errOut, Opener: func(string) error { t.Error("the opener was called with Open false"); return nil }}
	go func() { served <- Serve(ctx, ln, sess, opts) }()
	line := regexp.MustCompile(`^nechecb gui: (http://127\.0\.0\.1:\d+/\?token=[0-9a-f]{32})\n$`)
	var m []string
	for deadline := time.Now().Add(5 * time.Second); m == nil && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		m = line.FindStringSubmatch(out.String())
	}
	if m == nil {
		t.Fatalf("printed %q, want one line with the address and the token", out.String())
	}
	if errOut.String() != "" {
		t.Errorf("warnings on a loopback address: %q", errOut.String())
	}
	base := m[1][:strings.Index(m[1], "/?")]
	tok := m[1][strings.Index(m[1], "token=")+6:]
	res, err := http.Post(base+"/api/analyse?token="+tok, "application/json", strings.NewReader(`{"on":true}`))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Fatalf("analyse: status %d", res.StatusCode)
	}
	start := time.Now()
	cancel()
	select {
	case err := <-served:
		if err != nil {
			t.Fatalf("Serve returned %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return 10 s after the cancel")
	}
	t.Logf("Serve returned %v after the cancel, with an analysis running", time.Since(start))
	if _, err := http.Get(base + "/api/state?token=" + tok); err == nil {
		t.Error("the server still answers after Serve returned")
	}
}

// otherAddr is a listener that reports a non-loopback address.
type otherAddr struct{ net.Listener }

func (otherAddr) Addr() net.Addr { return &net.TCPAddr{IP: net.IPv4(192, 0, 2, 1), Port: 8080} }

func TestServeWarnsOffLoopback(t *testing.T) {
	sess, ln := sessionAndListener(t)
	var out, errOut syncBuffer
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := Serve(ctx, otherAddr{ln}, sess, Options{Out: &out, Err: &errOut}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(errOut.String(), "not a loopback address") || !strings.Contains(out.String(), "http://192.0.2.1:8080/?token=") {
		t.Errorf("off loopback: printed %q, warned %q", out.String(), errOut.String())
	}
}

// TestEventsPushSearchReports opens the event stream and runs an analysis:
// the stream carries its reports.
func TestEventsPushSearchReports(t *testing.T) {
	s := newTestServer(t)
	s.humanOnly()
	res, err := s.ts.Client().Get(s.ts.URL + "/events?token=" + s.srv.Token())
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("event stream content type %q", ct)
	}
	s.mustPost("/api/analyse", analyseRequest{On: true})
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	event := ""
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "event: ") {
			event = strings.TrimPrefix(line, "event: ")
		}
		if event == "info" && strings.HasPrefix(line, "data: ") {
			var in infoView
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &in); err != nil {
				t.Fatal(err)
			}
			if in.Kind != "analyse" || in.Depth < 1 || len(in.PV) == 0 || len(in.Path) < 2 || in.Sent == 0 {
				t.Fatalf("info event %+v", in)
			}
			break
		}
	}
	st := s.mustPost("/api/analyse", analyseRequest{On: false})
	if st.Searching != "" || st.Analysing {
		t.Errorf("after analysis off: searching %q, analysing %v", st.Searching, st.Analysing)
	}
}
