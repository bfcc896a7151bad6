//go:build !unix

package main

import "time"

// cpuTimes cannot tell on this system.
func cpuTimes() (self, children time.Duration, ok bool) { return 0, 0, false }
