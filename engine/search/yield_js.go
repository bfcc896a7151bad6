//go:build js

package search

import "time"

// On js/wasm a Go program has one thread, and a goroutine runs until it
// blocks: a search that never blocked would keep the browser's messages
// (stop, move now, any page action) out until it ended, and an analysis
// never ends. So each search thread sleeps for a moment every yieldEvery,
// which hands the thread back to the browser's event loop.
const (
	yieldEvery = 50 * time.Millisecond
	yieldFor   = time.Millisecond // the browser takes 1-4 ms
)

// yielder times a search thread's pauses.
type yielder struct{ last int64 }

// yield sleeps for yieldFor when yieldEvery has passed since the last
// pause; it runs at every poll.
func (y *yielder) yield() {
	now := time.Now().UnixNano()
	if now-y.last < int64(yieldEvery) {
		return
	}
	time.Sleep(yieldFor)
	y.last = time.Now().UnixNano()
}
