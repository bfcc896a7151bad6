package protocol

import (
	"strings"
	"testing"

	"github.com/nechecb/nechecb/internal/badinput"
	esession "github.com/nechecb/nechecb/internal/session"
)

// TestSessionServer: a server on a session announces the session's
// options, and SetOptions sets them before Serve, refusing a value that
// does not take as bad input that names it.
func TestSessionServer(t *testing.T) {
	sess, err := esession.New(esession.Config{Defaults: map[string]string{"Hash": "1"}})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := SessionServer(sess, Config{Name: "demo"})
	if err != nil {
		t.Fatal(err)
	}
	if err := srv.SetOptions([][2]string{{"Hash", "2"}}); err != nil {
		t.Fatal(err)
	}
	if v, _ := sess.Get("Hash"); v != "2" {
		t.Errorf("Hash is %s after --option Hash=2", v)
	}
	err = srv.SetOptions([][2]string{{"Hash", "lots"}})
	if err == nil || !badinput.Is(err) || !strings.HasPrefix(err.Error(), "--option Hash=lots: ") {
		t.Errorf("a value that does not take: %v", err)
	}
	var out strings.Builder
	if err := srv.Serve(strings.NewReader("uci\nquit\n"), &out); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "id name demo") || !strings.Contains(out.String(), "option name Hash type spin default 1") {
		t.Errorf("the handshake:\n%s", out.String())
	}
}
