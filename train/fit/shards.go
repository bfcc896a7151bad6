package fit

import "sync"

// ShardRange returns shard s's part of n items split into shards parts.
func ShardRange(s, shards, n int) (int, int) { return s * n / shards, (s + 1) * n / shards }

// Parallel runs f(0..shards-1) on up to workers goroutines and waits. A
// fit splits its work into a fixed number of shards and combines their
// results in shard order, so that it does not depend on workers.
func Parallel(workers, shards int, f func(s int)) {
	if workers <= 1 {
		for s := range shards {
			f(s)
		}
		return
	}
	next := make(chan int, shards)
	for s := range shards {
		next <- s
	}
	close(next)
	var wg sync.WaitGroup
	for range min(workers, shards) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for s := range next {
				f(s)
			}
		}()
	}
	wg.Wait()
}
