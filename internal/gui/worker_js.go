//go:build js && wasm

package gui

import (
	"fmt"
	"runtime"
	"strings"
	"syscall/js"

	"github.com/nechecb/nechecb/engine/egdb/embedded"
	"github.com/nechecb/nechecb/eval/nn"
	"github.com/nechecb/nechecb/internal/player"
	"github.com/nechecb/nechecb/internal/session"
)

// Package gui, built for js/wasm, is the back end of the page's browser
// build: it runs in a Web Worker (assets/worker.js starts it) and answers
// the page's requests, which assets/api.js sends as messages, with the
// same routes the binary serves over HTTP.

// browserNote is what the page says the browser build cannot offer.
var browserNote = fmt.Sprintf("Browser build (%s): one search thread (more Threads share it); "+
	"the built-in %d-piece endgame database only; evaluators and books built in, no files "+
	"(an Eval, BookFile or DBPath naming a file is refused); a %d MB hash table by default, %d MB at most.",
	buildKind(), embedded.Pieces, browserHashMB, browserMaxHashMB)

// buildKind says how this build was compiled and which kernels the neural
// net runs.
func buildKind() string {
	kind := "WebAssembly without SIMD"
	if builtSIMD {
		kind = "WebAssembly SIMD"
	}
	return kind + ", the neural net's kernels " + nn.Kernels()
}

// RunWorker makes the engine session, with the evaluator spec eval, and
// answers the page's messages until the worker is closed; it returns only
// an error making the session. Each message is {id, method, path, body}
// and is answered {id, status, body, filename}; the back end's events go
// out as {event, data}; {id, bench: {depth, eval}} runs the bench
// positions (player.Bench) and answers {id, nodes, ms, text, simd,
// kernels}: whether the build has SIMD, and the net's kernels
// (nn.Kernels).
func RunWorker(eval string) error {
	sess, err := session.New(session.Config{Defaults: browserDefaults(eval)})
	if err != nil {
		return err
	}
	sess.Ready()
	a := newApp(sess)
	a.build, a.maxHashMB = browserNote, browserMaxHashMB
	events, _ := a.hub.subscribe()
	go func() {
		for ev := range events {
			post(map[string]any{"event": ev.typ, "data": string(ev.data)})
		}
	}()
	handle := js.FuncOf(func(_ js.Value, args []js.Value) any {
		msg := args[0]
		id := msg.Get("id").Int()
		if b := msg.Get("bench"); b.Truthy() {
			go bench(id, b.Get("depth").Int(), b.Get("eval").String())
			return nil
		}
		method, path, body := msg.Get("method").String(), msg.Get("path").String(), msg.Get("body").String()
		// A callback must not block: the request runs in its own goroutine.
		go func() {
			rep := a.call(method, path, []byte(body))
			post(map[string]any{"id": id, "status": rep.status, "body": string(rep.body), "filename": rep.filename})
		}()
		return nil
	})
	js.Global().Call("nechecbStarted", handle)
	select {}
}

// post sends a message to the page.
func post(v map[string]any) { js.Global().Call("postMessage", v) }

// bench searches the bench positions and answers with the node count,
// the time and the bench's text; the heap's size before and after it
// goes in the text too.
func bench(id, depth int, eval string) {
	var out strings.Builder
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	fmt.Fprintf(&out, "heap from the system before the bench: %d MB\n", ms.Sys>>20)
	nodes, elapsed, err := player.Bench(&out, depth, 1, eval, player.Play)
	if err != nil {
		post(map[string]any{"id": id, "status": statusBadRequest, "body": err.Error()})
		return
	}
	runtime.ReadMemStats(&ms)
	fmt.Fprintf(&out, "heap from the system after it (its own table besides the page's): %d MB\n", ms.Sys>>20)
	post(map[string]any{"id": id, "status": statusOK, "nodes": float64(nodes), "ms": float64(elapsed.Milliseconds()), "text": out.String(),
		"simd": builtSIMD, "kernels": nn.Kernels()})
}
