//go:build unix

package main

import (
	"syscall"
	"time"
)

// cpuTimes returns the CPU time (user and system) of this process and of
// its children that have ended and been waited for, or false when the
// system cannot tell.
func cpuTimes() (self, children time.Duration, ok bool) {
	var s, c syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &s) != nil || syscall.Getrusage(syscall.RUSAGE_CHILDREN, &c) != nil {
		return 0, 0, false
	}
	return time.Duration(s.Utime.Nano() + s.Stime.Nano()), time.Duration(c.Utime.Nano() + c.Stime.Nano()), true
}
