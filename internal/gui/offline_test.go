package gui

import (
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/version"
	"image/png"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// TestSiteAppFiles checks what makes the exported site work offline and
// install: the service worker names the export's cache and lists every
// file of the site but the compressed copies, the manifest names the app
// and its icons, which are PNGs of their sizes, the page links them, and
// nechecb.wasm.gz and .br hold the wasm.
func TestSiteAppFiles(t *testing.T) {
	dir, info := exportedSite(t)
	t.Logf("%s: nechecb.wasm %d bytes, .gz %d, .br %d; cache %s", info.build, info.wasm, info.gz, info.br, info.cache)
	sw := readSiteFile(t, dir, serviceWorkerFile)
	if !strings.Contains(sw, fmt.Sprintf("const CACHE = %q;", info.cache)) {
		t.Errorf("sw.js does not name the cache %s", info.cache)
	}
	for _, f := range []string{`"./"`, `"nechecb.wasm"`, `"wasm_exec.js"`, `"assets/worker.js"`, `"assets/app.js"`, `"manifest.json"`, `"icons/icon-512.png"`} {
		if !strings.Contains(sw, f) {
			t.Errorf("sw.js does not keep %s", f)
		}
	}
	if strings.Contains(sw, ".gz\"") || strings.Contains(sw, ".br\"") {
		t.Error("sw.js keeps a compressed copy")
	}
	var manifest struct {
		Name     string `json:"name"`
		StartURL string `json:"start_url"`
		Display  string `json:"display"`
		Icons    []struct{ Src, Sizes string }
	}
	if err := json.Unmarshal([]byte(readSiteFile(t, dir, manifestFile)), &manifest); err != nil {
		t.Fatalf("manifest.json: %v", err)
	}
	if manifest.Name == "" || manifest.StartURL != "./" || manifest.Display != "standalone" || len(manifest.Icons) != len(iconSizes) {
		t.Errorf("manifest.json: %+v", manifest)
	}
	for i, icon := range manifest.Icons {
		img, err := png.Decode(strings.NewReader(readSiteFile(t, dir, icon.Src)))
		if err != nil {
			t.Fatalf("%s: %v", icon.Src, err)
		}
		size := iconSizes[i]
		if b := img.Bounds(); b.Dx() != size || b.Dy() != size || icon.Sizes != fmt.Sprintf("%dx%d", size, size) {
			t.Errorf("%s is %v, listed as %s; want %d square", icon.Src, b, icon.Sizes, size)
		}
	}
	if page := readSiteFile(t, dir, "index.html"); !strings.Contains(page, `rel="manifest" href="manifest.json"`) || !strings.Contains(page, `rel="icon" href="icons/icon-192.png"`) {
		t.Error("the page does not link the manifest and the icon")
	}
	wasm := readSiteFile(t, dir, "nechecb.wasm")
	for ext, open := range map[string]func(io.Reader) (io.Reader, error){
		".gz": func(r io.Reader) (io.Reader, error) { return gzip.NewReader(r) },
		".br": func(r io.Reader) (io.Reader, error) { return brotli.NewReader(r), nil },
	} {
		r, err := open(strings.NewReader(readSiteFile(t, dir, "nechecb.wasm"+ext)))
		if err != nil {
			t.Fatalf("nechecb.wasm%s: %v", ext, err)
		}
		if got, err := io.ReadAll(r); err != nil || string(got) != wasm {
			t.Errorf("nechecb.wasm%s: %d bytes, %v; want the wasm's %d", ext, len(got), err, len(wasm))
		}
	}
}

// readSiteFile reads a file of the site.
func readSiteFile(t *testing.T, dir, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestServiceWorkerCache checks the cache's name: the same files give the
// same name, a changed file or a new one another, and what is not the
// site's (the service worker itself, compressed copies, a .git folder)
// does not count.
func TestServiceWorkerCache(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cache := func() string {
		t.Helper()
		name, err := writeServiceWorker(dir)
		if err != nil {
			t.Fatal(err)
		}
		return name
	}
	write("index.html", "page")
	write("assets/app.js", "one")
	first := cache()
	write("nechecb.wasm.gz", "zipped")
	write(".git/HEAD", "ref")
	if again := cache(); again != first {
		t.Errorf("the cache went from %s to %s with nothing of the site changed", first, again)
	}
	if sw := readSiteFile(t, dir, serviceWorkerFile); strings.Contains(sw, "HEAD") || strings.Contains(sw, `"index.html"`) || !strings.Contains(sw, `["./","assets/app.js"]`) {
		t.Errorf("sw.js keeps the wrong files:\n%s", sw)
	}
	write("assets/app.js", "two")
	second := cache()
	write("assets/more.js", "")
	if third := cache(); second == first || third == second || !strings.HasPrefix(third, cachePrefix) {
		t.Errorf("caches %s, %s, %s for three different sites", first, second, third)
	}
}

// TestChooseWasmBuild checks the fallback to the plain build: with
// GOTOOLCHAIN=local, and when the SIMD toolchain cannot be had (the
// module proxy off and a version that does not exist), each at once and
// with the reason; and that a usable go1.27 builds with SIMD.
func TestChooseWasmBuild(t *testing.T) {
	t.Setenv("GOTOOLCHAIN", "local")
	b, err := chooseWasmBuild("go", "../..", simdToolchain)
	if err != nil || b.simd || !strings.Contains(b.String(), "GOTOOLCHAIN=local") {
		t.Errorf("with GOTOOLCHAIN=local: %v, %v; want the plain build, saying why", b, err)
	}
	if version.Compare(b.version, "go1.27") >= 0 {
		t.Skipf("the go on PATH is %s, which builds with SIMD itself", b.version)
	}
	t.Setenv("GOTOOLCHAIN", "")
	t.Setenv("GOPROXY", "off")
	start := time.Now()
	b, err = chooseWasmBuild("go", "../..", "go1.27.999")
	if err != nil || b.simd || !strings.Contains(b.String(), "go1.27.999, for WebAssembly SIMD, could not be had") {
		t.Errorf("without the toolchain: %v, %v; want the plain build, saying why", b, err)
	}
	t.Logf("without the toolchain, after %v: %s", time.Since(start).Round(time.Millisecond), b)
	if _, info := exportedSite(t); info.build.simd && version.Compare(info.build.version, "go1.27") < 0 {
		t.Errorf("the export's SIMD build is by %s", info.build.version)
	}
}

// restartable is a plain file server on one address that can be stopped
// and started again there, serving another folder: a service worker
// belongs to its origin, so the new export must come from the same one.
type restartable struct {
	t    *testing.T
	addr string
	srv  *http.Server
}

// start serves dir on the server's address (a free one the first time).
func (r *restartable) start(dir string) {
	r.t.Helper()
	addr := r.addr
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		r.t.Fatalf("listening on %s: %v", addr, err)
	}
	r.addr = ln.Addr().String()
	r.srv = &http.Server{Handler: http.FileServer(http.Dir(dir))}
	go r.srv.Serve(ln)
	r.t.Cleanup(r.stop)
}

// stop closes the server and its connections.
func (r *restartable) stop() {
	if r.srv != nil {
		r.srv.Close()
		r.srv = nil
	}
}

// TestSiteOffline serves the exported site with a plain file server and
// drives it in headless Chromium: on the first visit the service worker
// takes the page and fills its cache with every file it lists, and
// Chromium finds the site installable as an app; with the server
// stopped, a reload still loads the board, and the engine answers 11-15;
// then a new export (the files of another build) served at the same
// address replaces the cached files and deletes the old cache, the page
// says a new build is installed, and its Reload button, with the server
// stopped again, loads the new page.
func TestSiteOffline(t *testing.T) {
	exe := findChromium(t)
	dir, info := exportedSite(t)
	srv := &restartable{t: t}
	srv.start(dir)
	url := "http://" + srv.addr
	b := newBrowserFor(t, exe, 2*time.Minute)
	b.loadSite(url)
	b.wait("the service worker's registration", `window.nechecbOffline !== undefined`)
	if got := eval[string](b, `window.nechecbOffline`); got != "registered" {
		t.Fatalf("the service worker's registration: %s", got)
	}
	b.wait("the service worker to take the page", `navigator.serviceWorker.controller !== null`)
	b.checkCache(info.cache, dir)
	var errs page.GetInstallabilityErrorsResult
	b.do("ask whether the site installs", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) (err error) {
		errs, err = chromedp.Call(ctx, page.GetInstallabilityErrors, cdp.Empty{})
		return err
	}))
	for _, e := range errs.InstallabilityErrors {
		t.Errorf("Chromium finds the site not installable: %s %v", e.ErrorID, e.ErrorArguments)
	}

	srv.stop()
	b.loadSite(url)
	b.square(11)
	b.square(15)
	b.wait("the engine's answer to 11-15, offline", moveCount+` === 2`)

	next := t.TempDir()
	copySite(t, dir, next)
	const mark = "<!-- another build -->"
	html := strings.Replace(readSiteFile(t, next, "index.html"), "</body>", mark+"</body>", 1)
	if err := os.WriteFile(filepath.Join(next, "index.html"), []byte(html), 0o644); err != nil {
		t.Fatal(err)
	}
	cache, err := writeServiceWorker(next)
	if err != nil || cache == info.cache {
		t.Fatalf("the new export's cache: %s, %v (the old one: %s)", cache, err, info.cache)
	}
	srv.start(next)
	b.awaitJS("the new service worker to take its place", fmt.Sprintf(
		`navigator.serviceWorker.getRegistration().then(r => r.update()).then(() => caches.keys()).then(k => k.join() === %q)`, cache))
	b.wait("the page's note of the new build", `document.getElementById('update-note') !== null`)
	srv.stop()
	eval[bool](b, `window.oldPage = true`)
	b.click("#update-note button")
	b.awaitJS("the page reloaded", `window.oldPage === undefined && document.body.dataset.ready === "1"`)
	if !eval[bool](b, fmt.Sprintf(`document.body.innerHTML.includes(%q)`, mark)) {
		t.Error("after the new export the page is the old one")
	}
	b.checkCache(cache, next)
}

// checkCache checks that the cache named holds every file of the site in
// dir that the service worker lists.
func (b *browser) checkCache(cache, dir string) {
	b.t.Helper()
	var files []string
	sw := readSiteFile(b.t, dir, serviceWorkerFile)
	start := strings.Index(sw, "const FILES = ") + len("const FILES = ")
	if err := json.Unmarshal([]byte(sw[start:start+strings.Index(sw[start:], ";")]), &files); err != nil {
		b.t.Fatalf("the FILES of sw.js: %v", err)
	}
	held, err := chromedp.Run(b.ctx, chromedp.Evaluate[[]string](fmt.Sprintf(
		`caches.open(%q).then(c => c.keys()).then(k => k.map(r => r.url.slice(location.origin.length + 1) || './'))`, cache), chromedp.EvalAwaitPromise))
	if err != nil {
		b.t.Fatalf("reading the cache %s: %v", cache, err)
	}
	for _, f := range files {
		if !slices.Contains(held, f) {
			b.t.Errorf("the cache %s lacks %s (it holds %v)", cache, f, held)
		}
	}
}

// awaitJS evaluates a JavaScript expression that resolves to a boolean,
// again and again, until it is true (45 s at most: the new service
// worker fetches the whole site before it takes its place).
func (b *browser) awaitJS(what, expr string) {
	b.t.Helper()
	deadline := time.Now().Add(45 * time.Second)
	for {
		ok, err := chromedp.Run(b.ctx, chromedp.Evaluate[bool](expr, chromedp.EvalAwaitPromise))
		if err == nil && ok {
			return
		}
		if time.Now().After(deadline) {
			b.t.Fatalf("waiting for %s (%s): %v, %v", what, expr, ok, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// copySite copies the site's files from dir to into.
func copySite(t *testing.T, dir, into string) {
	t.Helper()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(into, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(into, rel), data, 0o644)
	})
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
}
