//go:build unix

package evaltest

import (
	"syscall"
	"time"
)

// processCPU returns the user and system CPU time the process has used, or
// false if it cannot tell.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
