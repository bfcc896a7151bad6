//go:build !unix && !js

package cputime

import "time"

// usage cannot tell on this system.
func usage(children bool) (time.Duration, bool) { return 0, false }
