//go:build !unix

package egdb

import "time"

// cpuTime is not measured here: the benchmarks report wall-clock rates only.
func cpuTime() time.Duration { return 0 }
