package main

import (
	"bufio"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/nechecb/nechecb/internal/testbin"
)

// TestGUICommand runs nechecb gui --open=false: it prints one line with the
// page's address, the page answers with the token and refuses without it,
// and an interrupt (Ctrl-C) stops it with status 0.
func TestGUICommand(t *testing.T) {
	bin := testbin.Build(t)
	cmd := exec.Command(bin, "gui", "--open=false", "--eval", "material", "--db", "none")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("reading the address: %v (stderr %q)", err, stderr.String())
	}
	m := regexp.MustCompile(`^nechecb gui: (http://127\.0\.0\.1:\d+)/\?token=([0-9a-f]{32})\n$`).FindStringSubmatch(line)
	if m == nil {
		t.Fatalf("printed %q, want nechecb gui: http://127.0.0.1:PORT/?token=T", line)
	}
	for _, c := range []struct {
		url  string
		want int
	}{{m[1] + "/", http.StatusForbidden}, {m[1] + "/?token=" + m[2], http.StatusOK}} {
		res, err := http.Get(c.url)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != c.want {
			t.Errorf("GET %s: status %d, want %d", c.url, res.StatusCode, c.want)
		}
	}
	if err := cmd.Process.Signal(os.Interrupt); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("after Ctrl-C: %v (stderr %q)", err, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("nechecb gui did not stop 10 s after Ctrl-C")
	}
}
