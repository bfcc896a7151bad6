//go:build !unix

package evaltest

import "time"

// processCPU cannot measure CPU time on this system.
func processCPU() (time.Duration, bool) { return 0, false }
