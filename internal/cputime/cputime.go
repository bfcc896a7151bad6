// Package cputime tells how much processor time the running program has
// used, where the system can say: on a shared machine that figure is far
// less inflated by other programs than the time by the clock.
package cputime

import "time"

// Self returns the processor time (user and system) this process has used,
// or false when the system cannot tell.
func Self() (time.Duration, bool) { return usage(false) }

// Children returns the processor time (user and system) of this process's
// children that have ended and been waited for, or false when the system
// cannot tell.
func Children() (time.Duration, bool) { return usage(true) }
