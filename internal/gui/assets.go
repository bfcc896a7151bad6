package gui

import "embed"

// assets are the pages, their scripts and styles: served by the binary,
// written out by Export for the browser build.
//
//go:embed assets
var assets embed.FS

// Body caps: a PDN upload may be large, every other request is small.
const (
	maxPDNBody  = 1 << 20
	maxBodySize = 64 << 10
)
