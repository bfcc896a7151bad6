package gui

import "strconv"

// The browser build's memory: its default transposition table size and
// the embedded database's block cache. With the Go heap they keep the
// worker near 100 MB, which a phone's browser gives a page.
// A larger Hash than browserMaxHashMB is refused there.
const (
	browserHashMB    = 32
	browserDBCacheMB = 16
	browserMaxHashMB = 512
)

// browserDefaults are the browser build's session defaults, with the
// evaluator spec eval.
func browserDefaults(eval string) map[string]string {
	return map[string]string{"Eval": eval, "Hash": strconv.Itoa(browserHashMB), "DBCache": strconv.Itoa(browserDBCacheMB)}
}
