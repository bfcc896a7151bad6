//go:build !js

package gui

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/nechecb/nechecb/internal/fileio"
)

// The exported site works offline and installs as an app: a service
// worker (sw.js, at the site's root so that its scope is the whole site)
// keeps every file of the site in a cache named after the build, a web
// app manifest names the app and its icons, and the icons are drawn here.

// serviceWorkerFile is the service worker's file, at the site's root.
const serviceWorkerFile = "sw.js"

// manifestFile is the web app manifest's file.
const manifestFile = "manifest.json"

// cachePrefix starts the name of every cache the service worker makes;
// the build's hash ends it.
const cachePrefix = "nechecb-"

// iconSizes are the sizes of the app's square icons, in pixels: the two
// an installable web app must offer.
var iconSizes = []int{192, 512}

// iconFile is the path of the icon of a size.
func iconFile(size int) string { return fmt.Sprintf("icons/icon-%d.png", size) }

// writeAppFiles writes the manifest and the icons into dir.
func writeAppFiles(dir string) error {
	if err := os.MkdirAll(filepath.Join(dir, "icons"), 0o755); err != nil {
		return err
	}
	type icon struct {
		Src     string `json:"src"`
		Sizes   string `json:"sizes"`
		Type    string `json:"type"`
		Purpose string `json:"purpose"`
	}
	manifest := struct {
		Name        string `json:"name"`
		ShortName   string `json:"short_name"`
		Description string `json:"description"`
		StartURL    string `json:"start_url"`
		Scope       string `json:"scope"`
		Display     string `json:"display"`
		Background  string `json:"background_color"`
		Theme       string `json:"theme_color"`
		Icons       []icon `json:"icons"`
	}{
		Name: "nechecb checkers", ShortName: "nechecb",
		Description: "Play and analyse checkers (English draughts) against the nechecb engine, running in the browser.",
		StartURL:    "./", Scope: "./", Display: "standalone", Background: "#2b2b2b", Theme: "#2b2b2b",
	}
	for _, size := range iconSizes {
		var buf bytes.Buffer
		if err := png.Encode(&buf, drawIcon(size)); err != nil {
			return err
		}
		if err := fileio.WriteAtomic(filepath.Join(dir, iconFile(size)), buf.Bytes()); err != nil {
			return err
		}
		// The piece sits inside the safe circle of a maskable icon, so
		// one picture serves both purposes.
		manifest.Icons = append(manifest.Icons, icon{Src: iconFile(size), Sizes: fmt.Sprintf("%dx%d", size, size), Type: "image/png", Purpose: "any maskable"})
	}
	data, err := json.MarshalIndent(manifest, "", "  ")
	if err != nil {
		return err
	}
	return fileio.WriteAtomic(filepath.Join(dir, manifestFile), append(data, '\n'))
}

// Icon colours: the board's dark and light squares, a red man.
var (
	iconDark  = color.NRGBA{0x2b, 0x2b, 0x2b, 0xff}
	iconLight = color.NRGBA{0xe8, 0xd3, 0xa9, 0xff}
	iconRed   = color.NRGBA{0xc0, 0x2b, 0x2b, 0xff}
	iconRim   = color.NRGBA{0x7a, 0x14, 0x14, 0xff}
)

// drawIcon draws the app's icon at size pixels square: a 4-by-4 corner
// of a board, and a red man on it with a darker rim and an inner ring.
func drawIcon(size int) *image.NRGBA {
	img := image.NewNRGBA(image.Rect(0, 0, size, size))
	cell := float64(size) / 4
	c := float64(size) / 2
	for y := range size {
		for x := range size {
			col := iconDark
			if (int(float64(x)/cell)+int(float64(y)/cell))%2 == 0 {
				col = iconLight
			}
			// The piece: within 0.3 of the size from the centre, inside
			// the maskable icon's safe circle (0.4).
			d := math.Hypot(float64(x)+0.5-c, float64(y)+0.5-c) / float64(size)
			switch {
			case d < 0.19:
				col = iconRed
			case d < 0.215:
				col = iconRim
			case d < 0.27:
				col = iconRed
			case d < 0.3:
				col = iconRim
			}
			img.SetNRGBA(x, y, col)
		}
	}
	return img
}

// writeServiceWorker writes sw.js for the site in dir as it stands: it
// lists every file of the site but the precompressed copies (a browser
// asks for nechecb.wasm, which a server may answer from one of them) and
// names its cache after a hash of those files' names and contents. So
// each different export gets a different cache, the browser sees a new
// service worker, and the new one fetches the new files and deletes the
// old caches. It returns the cache's name. It must run last, when the
// other files are written.
func writeServiceWorker(dir string) (string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			// A folder such as .git (an export into a checkout of the
			// site's branch) is not the site's.
			if path != dir && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if rel == serviceWorkerFile || strings.HasSuffix(rel, ".gz") || strings.HasSuffix(rel, ".br") || strings.HasPrefix(filepath.Base(rel), ".") {
			return nil
		}
		files = append(files, rel)
		return nil
	})
	if err != nil {
		return "", err
	}
	slices.Sort(files)
	h := sha256.New()
	for _, f := range files {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f)))
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s %d\n", f, len(data))
		h.Write(data)
	}
	cache := cachePrefix + hex.EncodeToString(h.Sum(nil))[:16]
	// The page is kept as ./ (a server may redirect index.html there).
	list, err := json.Marshal(append([]string{"./"}, slices.DeleteFunc(slices.Clone(files), func(f string) bool { return f == "index.html" })...))
	if err != nil {
		return "", err
	}
	js := fmt.Sprintf(serviceWorkerJS, cache, cachePrefix, list)
	return cache, fileio.WriteAtomic(filepath.Join(dir, serviceWorkerFile), []byte(js))
}

// serviceWorkerJS is sw.js, with the cache's name, the prefix of the
// site's caches and the list of files to fill in.
const serviceWorkerJS = `// nechecb's service worker, written by nechecb gui --export for this
// build: it keeps the site's files in a cache named after the build, so
// that the board loads and plays with no network once visited. A new
// export is a new file here (a new cache name), which the browser installs
// beside this one; it fills its own cache and then deletes the old ones.
'use strict';

const CACHE = %q;
const PREFIX = %q;
const FILES = %s;

self.addEventListener('install', e => {
  // cache: 'no-cache' asks the server whether the browser's HTTP cache
  // is current (it may hold the previous build's files): the wasm the
  // page has just loaded is not fetched twice, an old one is never kept.
  e.waitUntil(caches.open(CACHE)
    .then(c => c.addAll(FILES.map(f => new Request(f, { cache: 'no-cache' }))))
    .then(() => self.skipWaiting()));
});

self.addEventListener('activate', e => {
  e.waitUntil(caches.keys()
    .then(keys => Promise.all(keys.filter(k => k.startsWith(PREFIX) && k !== CACHE).map(k => caches.delete(k))))
    .then(() => self.clients.claim()));
});

// The site's own files come from the cache (the network only for what it
// lacks), the page for any address in the site's folder (index.html
// itself is kept as ./, since many servers redirect it there); requests
// elsewhere are left alone, and so is the page of a nechecb gui server
// that came to listen at this address (its address carries a token).
const served = u => u && new URL(u).searchParams.has('token');
self.addEventListener('fetch', e => {
  const req = e.request;
  if (req.method !== 'GET' || new URL(req.url).origin !== location.origin) return;
  if (served(req.url) || served(req.referrer)) return;
  e.respondWith(caches.open(CACHE).then(async c =>
    (await c.match(req, { ignoreSearch: true })) ||
    (req.mode === 'navigate' && (await c.match('./'))) ||
    fetch(req)));
});
`
