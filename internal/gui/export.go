//go:build !js

package gui

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/nechecb/nechecb/internal/fileio"
)

// modulePath is the module whose checkout Export builds the engine from.
const modulePath = "github.com/nechecb/nechecb"

// WasmPackage is the browser build's main package, in the module.
const WasmPackage = "./cmd/nechecb-wasm"

// siteAssets are the embedded assets the exported page uses (the match
// watch page stays out).
var siteAssets = []string{"api.js", "app.js", "board.js", "panels.js", "style.css", "worker.js"}

// sitePolicy keeps the exported page to its own origin, as the server's
// Content-Security-Policy header keeps the served one: a static server
// sends no such header, so the page carries it.
const sitePolicy = `<meta http-equiv="Content-Security-Policy" content="default-src 'self'; img-src 'self' data:">`

// appLinks name the site's icon and manifest, which make it installable
// as an app, in the page's head.
var appLinks = fmt.Sprintf(`<link rel="icon" href="%[1]s">
<link rel="apple-touch-icon" href="%[1]s">
<link rel="manifest" href="%[2]s">
<meta name="theme-color" content="#2b2b2b">`, iconFile(192), manifestFile)

// Export writes the browser build as a static site in dir: the page and
// its assets, the engine compiled to WebAssembly (nechecb.wasm, with its
// gzip and brotli copies) from the module's checkout at src ("": the one
// that holds the working directory), that Go's wasm_exec.js, the web app
// manifest and icons, and the service worker that keeps the site for
// offline use. The wasm is built with WebAssembly SIMD by Go 1.27
// (simdToolchain) where that Go can be had, else by the go command on
// PATH without (see chooseWasmBuild). Any static file server can serve
// the folder. It reports what it wrote, and which build, on out. It
// fails at once, before writing anything, when there is no go command or
// no checkout.
func Export(dir, src string, out io.Writer) error {
	_, err := exportSite(dir, src, out)
	return err
}

// siteInfo is what exportSite wrote.
type siteInfo struct {
	build wasmBuild
	cache string // the service worker's cache
	wasm  int64  // nechecb.wasm's size, and its compressed copies'
	gz    int64
	br    int64
}

// exportSite is Export, returning what it wrote.
func exportSite(dir, src string, out io.Writer) (siteInfo, error) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		return siteInfo{}, errors.New("the go command is not on PATH: the export compiles the engine to WebAssembly with it")
	}
	if src == "" {
		if src, err = findModule(); err != nil {
			return siteInfo{}, err
		}
	}
	build, err := chooseWasmBuild(goCmd, src, simdToolchain)
	if err != nil {
		return siteInfo{}, err
	}
	info := siteInfo{build: build}
	execJS, err := wasmExecJS(info.build.goroot)
	if err != nil {
		return siteInfo{}, err
	}
	if err := os.MkdirAll(filepath.Join(dir, "assets"), 0o755); err != nil {
		return siteInfo{}, err
	}
	if err := writeSitePage(dir); err != nil {
		return siteInfo{}, err
	}
	if err := writeAppFiles(dir); err != nil {
		return siteInfo{}, err
	}
	if err := fileio.WriteAtomic(filepath.Join(dir, "wasm_exec.js"), execJS); err != nil {
		return siteInfo{}, err
	}
	wasm := filepath.Join(dir, "nechecb.wasm")
	if info.wasm, err = buildWasm(goCmd, src, info.build, wasm); err != nil {
		return siteInfo{}, err
	}
	if info.gz, info.br, err = writePrecompressed(wasm); err != nil {
		return siteInfo{}, err
	}
	if info.cache, err = writeServiceWorker(dir); err != nil {
		return siteInfo{}, err
	}
	mb := func(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/(1<<20)) }
	fmt.Fprintf(out, "nechecb gui: wrote %s: index.html, assets/, wasm_exec.js, nechecb.wasm (%s; .gz %s, .br %s), %s, icons/, %s (cache %s); serve it with any static file server\n",
		dir, mb(info.wasm), mb(info.gz), mb(info.br), manifestFile, serviceWorkerFile, info.cache)
	fmt.Fprintf(out, "nechecb gui: nechecb.wasm: %s\n", info.build)
	return info, nil
}

// writeSitePage writes the page, marked to talk to the worker and kept to
// its origin, and its assets.
func writeSitePage(dir string) error {
	page, err := fs.ReadFile(assets, "assets/index.html")
	if err != nil {
		return err
	}
	for _, r := range [][2]string{
		{`<html lang="en">`, `<html lang="en" data-transport="worker">`},
		{`<meta charset="utf-8">`, `<meta charset="utf-8">` + "\n" + sitePolicy},
		{`<link rel="icon" href="data:,">`, appLinks},
	} {
		if !bytes.Contains(page, []byte(r[0])) {
			return fmt.Errorf("the page has no %s to mark for the browser build", r[0])
		}
		page = bytes.Replace(page, []byte(r[0]), []byte(r[1]), 1)
	}
	if err := fileio.WriteAtomic(filepath.Join(dir, "index.html"), page); err != nil {
		return err
	}
	for _, name := range siteAssets {
		data, err := fs.ReadFile(assets, "assets/"+name)
		if err != nil {
			return err
		}
		if err := fileio.WriteAtomic(filepath.Join(dir, "assets", name), data); err != nil {
			return err
		}
	}
	return nil
}

// buildWasm compiles the browser build from the checkout at src into
// path (through a temporary file) as build says, and returns its size.
func buildWasm(goCmd, src string, build wasmBuild, path string) (int64, error) {
	tmp := filepath.Join(filepath.Dir(path), ".nechecb.wasm.tmp")
	cmd := exec.Command(goCmd, "build", "-trimpath", "-ldflags=-s -w", "-o", tmp, WasmPackage)
	cmd.Dir = src
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm", "CGO_ENABLED=0")
	cmd.Env = append(cmd.Env, build.env...)
	if msg, err := cmd.CombinedOutput(); err != nil {
		os.Remove(tmp)
		return 0, fmt.Errorf("building the WebAssembly engine (%s): %v\n%s", build, err, msg)
	}
	info, err := os.Stat(tmp)
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return 0, err
	}
	return info.Size(), nil
}

// wasmExecJS reads the wasm_exec.js of the Go at goroot: in lib/wasm
// since Go 1.24, in misc/wasm before.
func wasmExecJS(goroot string) ([]byte, error) {
	for _, sub := range []string{"lib/wasm", "misc/wasm"} {
		if data, err := os.ReadFile(filepath.Join(goroot, sub, "wasm_exec.js")); err == nil {
			return data, nil
		}
	}
	return nil, fmt.Errorf("no wasm_exec.js in %s (lib/wasm or misc/wasm)", goroot)
}

// findModule finds the checkout of the module that holds the working
// directory: the nearest go.mod above it that declares modulePath.
func findModule() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && bytes.HasPrefix(bytes.TrimSpace(data), []byte("module "+modulePath+"\n")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("the working directory is not in a checkout of %s: the export builds the engine from its source", modulePath)
		}
		dir = parent
	}
}
