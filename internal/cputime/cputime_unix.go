//go:build unix

package cputime

import (
	"syscall"
	"time"
)

// usage asks the system for the process's own usage, or its waited-for
// children's.
func usage(children bool) (time.Duration, bool) {
	who := syscall.RUSAGE_SELF
	if children {
		who = syscall.RUSAGE_CHILDREN
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(who, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
