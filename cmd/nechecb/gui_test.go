package main

import (
	"bufio"
	"context"
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

// TestMatchGUIChecksFirst: match --gui with a wrong setting (SPRT,
// openings, too few engines, a time control, an engine a fleet cannot
// carry, a fleet batch) fails at once with status 2
// and the setting's error, before the watch page's address is printed; an
// engine that cannot start (found only when the match starts) fails with
// status 1 right after it, without waiting for Ctrl-C.
func TestMatchGUIChecksFirst(t *testing.T) {
	bin := testbin.Build(t)
	good := "name=A cmd=" + bin + " opts=Hash=1"
	gui := []string{"--gui", "--open=false", "--depth", "1", "--quiet", "--games", "2"}
	for _, c := range []struct {
		name   string
		args   []string
		status int
		want   string
	}{
		{"bad sprt", []string{"--engine", good, "--engine", good, "--sprt", "elo0=x"}, 2, "elo0"},
		{"missing openings", []string{"--engine", good, "--engine", good, "--openings", "no-such-file.pdn"}, 2, "no-such-file.pdn"},
		{"one engine", []string{"--engine", good}, 2, "engine"},
		{"bad time control", []string{"--engine", good, "--engine", good, "--tc", "ten"}, 2, "ten"},
		{"fleet engine not nechecb", []string{"--engine", good, "--engine", "name=B cmd=/bin/cat", "--nats", "nats://127.0.0.1:1"}, 2, "can only carry engines that are nechecb"},
		{"bad fleet batch", []string{"--engine", good, "--engine", "name=B cmd=" + bin, "--nats", "nats://127.0.0.1:1", "--nats-batch", "-1"}, 2, "--nats-batch"},
		{"engine that cannot start", []string{"--engine", good, "--engine", "name=B cmd=" + bin + "-missing"}, 1, "engine B could not start"},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		cmd := exec.CommandContext(ctx, bin, append(append([]string{"match"}, c.args...), gui...)...)
		cmd.Dir = t.TempDir()
		var stdout, stderr strings.Builder
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		err := cmd.Run()
		timedOut := ctx.Err() != nil
		cancel()
		status := -1
		if ee, ok := err.(*exec.ExitError); ok {
			status = ee.ExitCode()
		}
		if timedOut {
			t.Errorf("%s: still running after 60 s (stdout %q, stderr %q)", c.name, stdout.String(), stderr.String())
			continue
		}
		printed := strings.Contains(stdout.String()+stderr.String(), "http://")
		if status != c.status || !strings.Contains(stderr.String(), c.want) || printed != (c.status == 1) {
			t.Errorf("%s: status %d, address printed %v, stderr:\n%s\nwant status %d, %q, the address printed only for an engine that cannot start",
				c.name, status, printed, stderr.String(), c.status, c.want)
		}
	}
}

// TestGUIExport runs nechecb gui --export in the checkout (the site is
// written, with the wasm, its compressed copies, the service worker and
// the manifest, and the output says which build it made), outside any checkout (status 1 at once, the
// reason on stderr, nothing written) and with a serving flag (status 2,
// the flag named).
func TestGUIExport(t *testing.T) {
	bin := testbin.Build(t)
	dir := t.TempDir()
	out, err := exec.Command(bin, "gui", "--export", dir).CombinedOutput()
	if err != nil || !strings.Contains(string(out), "nechecb.wasm") || (!strings.Contains(string(out), "build by go") && !strings.Contains(string(out), "built by go")) {
		t.Fatalf("gui --export in the checkout: %v\n%s; want the files and which build", err, out)
	}
	for _, f := range []string{"index.html", "nechecb.wasm", "nechecb.wasm.gz", "nechecb.wasm.br", "wasm_exec.js", "assets/worker.js", "sw.js", "manifest.json", "icons/icon-512.png"} {
		if _, err := os.Stat(dir + "/" + f); err != nil {
			t.Errorf("the export has no %s", f)
		}
	}
	elsewhere, site := t.TempDir(), t.TempDir()+"/site"
	cmd := exec.Command(bin, "gui", "--export", site)
	cmd.Dir = elsewhere
	out, err = cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 || !strings.Contains(string(out), "not in a checkout") {
		t.Errorf("gui --export outside a checkout: %v\n%s", err, out)
	}
	if _, err := os.Stat(site); err == nil {
		t.Error("gui --export outside a checkout wrote the folder")
	}
	out, err = exec.Command(bin, "gui", "--export", site, "--eval", "material").CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 || !strings.Contains(string(out), "--eval") {
		t.Errorf("gui --export with --eval: %v\n%s", err, out)
	}
}
