//go:build js

package cputime

import (
	"syscall/js"
	"time"
)

// usage asks node's process.cpuUsage (microseconds of user and system
// time) for the process's own usage. A browser has no process object, and
// node does not tell the children's usage: neither can tell.
func usage(children bool) (time.Duration, bool) {
	process := js.Global().Get("process")
	if children || process.Type() != js.TypeObject || process.Get("cpuUsage").Type() != js.TypeFunction {
		return 0, false
	}
	u := process.Call("cpuUsage")
	return time.Duration(u.Get("user").Float()+u.Get("system").Float()) * time.Microsecond, true
}
