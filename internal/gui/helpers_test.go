package gui

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/nechecb/nechecb/internal/session"
)

// testServer is a Server behind an httptest server, with the material
// evaluator and no endgame database (newTestServerDB: the built-in one).
type testServer struct {
	t   *testing.T
	srv *Server
	ts  *httptest.Server
}

func newTestServer(t *testing.T) *testServer {
	t.Helper()
	return newTestServerDB(t, "none")
}

// newTestServerDB is newTestServer with the endgame database of dbPath
// ("": the built-in one).
func newTestServerDB(t *testing.T, dbPath string) *testServer {
	t.Helper()
	sess, err := session.New(session.Config{Defaults: map[string]string{"Eval": "material", "DBPath": dbPath}})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(nil)
	srv, err := New(sess, ts.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	ts.Config.Handler = srv.Handler()
	ts.Start()
	t.Cleanup(func() {
		srv.Close()
		ts.Close()
	})
	return &testServer{t: t, srv: srv, ts: ts}
}

// request sends a request with the token in the query (when withToken) and
// returns the status and body.
func (s *testServer) request(method, path, body string, withToken bool, header http.Header) (int, string) {
	s.t.Helper()
	u := s.ts.URL + path
	if withToken {
		sep := "?"
		if strings.Contains(path, "?") {
			sep = "&"
		}
		u += sep + "token=" + s.srv.Token()
	}
	req, err := http.NewRequest(method, u, strings.NewReader(body))
	if err != nil {
		s.t.Fatal(err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	if h := header.Get("Host"); h != "" {
		req.Host = h
	}
	res, err := s.ts.Client().Do(req)
	if err != nil {
		s.t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(data)
}

// post sends v as JSON and decodes the answer into out (when not nil); it
// returns the status and the error message of an error answer.
func (s *testServer) post(path string, v any, out any) (int, string) {
	s.t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		s.t.Fatal(err)
	}
	status, body := s.request("POST", path, string(data), true, nil)
	return s.decode(status, body, out)
}

func (s *testServer) decode(status int, body string, out any) (int, string) {
	s.t.Helper()
	if status != http.StatusOK {
		var e apiError
		if err := json.Unmarshal([]byte(body), &e); err != nil {
			s.t.Fatalf("error answer %d is not JSON: %q", status, body)
		}
		return status, e.Error
	}
	if out != nil {
		if err := json.NewDecoder(bytes.NewReader([]byte(body))).Decode(out); err != nil {
			s.t.Fatalf("answer %q: %v", body, err)
		}
	}
	return status, ""
}

// mustPost is post that fails the test on an error answer.
func (s *testServer) mustPost(path string, v any) stateView {
	s.t.Helper()
	var st stateView
	if status, msg := s.post(path, v, &st); status != http.StatusOK {
		s.t.Fatalf("POST %s %v: %d %s", path, v, status, msg)
	}
	return st
}

// state fetches the state.
func (s *testServer) state() stateView {
	s.t.Helper()
	var st stateView
	status, body := s.request("GET", "/api/state", "", true, nil)
	if status != http.StatusOK {
		s.t.Fatalf("GET /api/state: %d %s", status, body)
	}
	s.decode(status, body, &st)
	return st
}

// waitFor polls the state until ok accepts it, failing after a while.
func (s *testServer) waitFor(what string, ok func(stateView) bool) stateView {
	s.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		st := s.state()
		if ok(st) {
			return st
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("waited 20 s for %s; state: moves %d, searching %q", what, len(st.Moves), st.Searching)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// humanOnly makes the engine play neither side.
func (s *testServer) humanOnly() {
	s.t.Helper()
	s.mustPost("/api/engine", engineRequest{Level: level{Kind: "depth", Depth: 3}})
}
