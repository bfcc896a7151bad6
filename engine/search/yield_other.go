//go:build !js

package search

// yielder has nothing to do where goroutines are preempted: a search
// thread never has to hand its thread back (see yield_js.go).
type yielder struct{}

// yield does nothing here.
func (*yielder) yield() {}
