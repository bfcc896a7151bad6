package gui

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// maxWasmBytes bounds the browser build's size, uncompressed.
const maxWasmBytes = 10 << 20

// sharedSite is the export the tests share (they only read it), made
// once, in a temporary folder that TestMain removes.
var sharedSite struct {
	once sync.Once
	dir  string
	info siteInfo
	log  string
	err  error
}

// exportedSite exports the browser build (exportSite, from this checkout)
// into a temporary folder, the first time it is called in the test
// binary, and returns the folder and what the export wrote.
func exportedSite(t *testing.T) (string, siteInfo) {
	t.Helper()
	s := &sharedSite
	s.once.Do(func() {
		if s.dir, s.err = os.MkdirTemp("", "nechecb-site-"); s.err != nil {
			return
		}
		var log strings.Builder
		start := time.Now()
		s.info, s.err = exportSite(s.dir, "../..", &log)
		s.log = fmt.Sprintf("%s(the export took %v)", log.String(), time.Since(start).Round(time.Millisecond))
	})
	if s.err != nil {
		t.Fatalf("export: %v", s.err)
	}
	return s.dir, s.info
}

// RemoveSharedSite removes the shared export, if one was made; TestMain
// (in package gui_test) calls it after the tests.
func RemoveSharedSite() {
	if sharedSite.dir != "" {
		os.RemoveAll(sharedSite.dir)
	}
}

// site is the exported site served by Go's plain file server, with the
// requests it answered, and a Chromium tab on it.
type site struct {
	*browser
	url   string
	files http.Handler
	mu    sync.Mutex
	hits  []string // "STATUS PATH" of each request answered
}

// statusWriter notes the status a handler answers.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(status int) {
	w.status = status
	w.ResponseWriter.WriteHeader(status)
}

// openSite exports the site, serves it with Go's plain file server and
// loads it in a headless Chromium tab that lives for limit.
func openSite(t *testing.T, limit time.Duration) *site {
	t.Helper()
	exe := findChromium(t)
	dir, _ := exportedSite(t)
	return openSiteIn(t, exe, dir, limit)
}

// openSiteIn is openSite for the site exported in dir, in the Chromium exe.
func openSiteIn(t *testing.T, exe, dir string, limit time.Duration) *site {
	t.Helper()
	st := &site{files: http.FileServer(http.Dir(dir))}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
		st.files.ServeHTTP(sw, r)
		st.mu.Lock()
		st.hits = append(st.hits, fmt.Sprintf("%d %s", sw.status, r.URL.Path))
		st.mu.Unlock()
	}))
	t.Cleanup(ts.Close)
	st.url = ts.URL
	st.browser = newBrowserFor(t, exe, limit)
	st.loadSite(ts.URL)
	return st
}

// answered returns the statuses of the requests for path so far.
func (st *site) answered(path string) []string {
	st.mu.Lock()
	defer st.mu.Unlock()
	var out []string
	for _, h := range st.hits {
		if strings.HasSuffix(h, " "+path) {
			out = append(out, strings.Fields(h)[0])
		}
	}
	return out
}

// loadSite opens the site at url and waits until its board can be
// played: the worker's engine answered the page's first requests.
func (b *browser) loadSite(url string) {
	b.t.Helper()
	b.do("load the site", chromedp.Navigate(url+"/"))
	b.wait("the page to start", `document.body.dataset.ready === "1"`)
}

// TestWasmBuild builds the browser build (GOOS=js GOARCH=wasm) as the
// export does, so that it cannot break unnoticed, and checks its size
// and that it links none of what the browser never uses: the HTTP
// server, the fleet (NATS), the learners, the console.
func TestWasmBuild(t *testing.T) {
	dir, _ := exportedSite(t)
	t.Log(sharedSite.log)
	info, err := os.Stat(filepath.Join(dir, "nechecb.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("nechecb.wasm: %d bytes", info.Size())
	if info.Size() > maxWasmBytes {
		t.Errorf("nechecb.wasm is %d bytes, over %d", info.Size(), maxWasmBytes)
	}
	for _, f := range []string{"index.html", "wasm_exec.js", "assets/api.js", "assets/worker.js", "assets/app.js"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("the site has no %s: %v", f, err)
		}
	}
	page, err := os.ReadFile(filepath.Join(dir, "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(page), `data-transport="worker"`) || !strings.Contains(string(page), "Content-Security-Policy") {
		t.Errorf("the exported page is not marked for the worker and kept to its origin:\n%s", page)
	}
	cmd := exec.Command("go", "list", "-deps", WasmPackage)
	cmd.Dir = "../.."
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, dep := range strings.Fields(string(out)) {
		for _, bad := range []string{"net/http", "github.com/nats-io", modulePath + "/train", modulePath + "/internal/fleet",
			modulePath + "/internal/console", modulePath + "/match", modulePath + "/protocol"} {
			if dep == bad || strings.HasPrefix(dep, bad+"/") {
				t.Errorf("the browser build links %s", dep)
			}
		}
	}
}

// TestBrowserSite serves the exported site with a plain static file
// server and drives it in a headless Chromium: the page's note names the
// build (SIMD or not) and the net's kernels; the engine in the worker
// answers a move played by mouse (at the default 1 s a move), "Move now"
// makes it play at once under a long level; then, as TestBrowser does, a
// FEN, a capture by drag and by clicks, take back, a PDN with a side line
// imported and exported again, analysis with its lines, arrow and graph,
// and the game analysis; the Hash cap; and the page's message when the
// wasm cannot load.
func TestBrowserSite(t *testing.T) {
	st := openSite(t, 3*time.Minute)
	b, files := st.browser, st.files
	t.Logf("site ready %.0f ms after the navigation began", eval[float64](b, `window.nechecbStats.readyMs`))
	note := eval[string](b, `document.getElementById('build-note').hidden ? '' : document.getElementById('build-note').textContent`)
	if !strings.Contains(note, "Browser build") {
		t.Errorf("the page does not say what the browser build lacks: %q", note)
	}
	// The build note says which build runs: a SIMD build runs the net's
	// SIMD128 kernels, a plain one their plain-Go twins.
	want := "WebAssembly without SIMD, the neural net's kernels plain Go"
	if _, info := exportedSite(t); info.build.simd {
		want = "WebAssembly SIMD, the neural net's kernels wasm SIMD"
	}
	if !strings.Contains(note, want) {
		t.Errorf("the build note %q does not say %q", note, want)
	}

	// The engine plays White at 1 s a move.
	b.square(11)
	b.square(15)
	start := time.Now()
	b.wait("the engine's answer to 11-15", moveCount+` === 2`)
	t.Logf("the engine answered at 1 s a move in %v", time.Since(start).Round(time.Millisecond))
	b.shot("site.png")
	b.noShots = true
	answer := eval[string](b, `document.querySelectorAll('#moves button')[1].firstChild.textContent`)
	to := answer[strings.LastIndexAny(answer, "-x")+1:]
	if label := eval[string](b, `document.querySelector('#board rect[data-sq="`+to+`"]').getAttribute('aria-label')`); !strings.Contains(label, "white man") {
		t.Errorf("after the engine's %s the board shows square %s as %q", answer, to, label)
	}

	// Under a minute a move, Move now answers at once.
	b.do("a minute a move", chromedp.SetValue(chromedp.CSS("#lv-movetime"), "60"))
	b.click("#apply-level")
	b.click("#go")
	b.wait("the engine thinking", `!document.getElementById('movenow').disabled`)
	time.Sleep(300 * time.Millisecond)
	start = time.Now()
	b.click("#movenow")
	b.wait("the move played at once", moveCount+` === 3`)
	t.Logf("Move now: the move came %v after the click", time.Since(start).Round(time.Millisecond))

	// The rest as TestBrowser does it, on the worker: the engine plays
	// White at depth 3 from a new game.
	siteCall(t, b, "/api/engine", map[string]any{"white": true, "level": map[string]any{"kind": "depth", "depth": 3}}, nil)
	b.click("#new-game")
	b.wait("the new game", moveCount+` === 0`)
	browserPlay(t, b)
	browserImport(t, b)
	browserVariations(t, b)
	browserAnalyse(t, b)

	// The page made no request outside its origin.
	if n := eval[int](b, `performance.getEntriesByType('resource').filter(e => !e.name.startsWith(location.origin)).length`); n != 0 {
		t.Errorf("the page made %d requests to other hosts", n)
	}
	// A table too large for a browser is refused, the one in force kept.
	msg, err := chromedp.Run(b.ctx, chromedp.Evaluate[string](`import('./assets/api.js').then(m => m.call('/api/options', {name: 'Hash', value: '4096'})).then(() => 'taken', e => e.message)`, chromedp.EvalAwaitPromise))
	if err != nil || !strings.Contains(msg, "over this build's 512 MB") {
		t.Errorf("Hash 4096 in the browser: %q, %v; want it refused", msg, err)
	}

	// Without the engine's file the page says so, not a dead board.
	broken := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/nechecb.wasm" {
			http.NotFound(w, r)
			return
		}
		files.ServeHTTP(w, r)
	}))
	t.Cleanup(broken.Close)
	b.do("load the site without its engine", chromedp.Navigate(broken.URL+"/"))
	b.wait("the failure's message", `document.body.dataset.failed === '1' && !document.getElementById('fatal').hidden && `+
		`document.getElementById('fatal').textContent.includes('nechecb.wasm')`)
	t.Logf("without the wasm the page says: %s", eval[string](b, `document.getElementById('fatal').textContent`))
}
