package workunit

import "sync"

// cacheLimit is how many entries a Cache holds before it starts afresh.
const cacheLimit = 4096

// Cache keeps what a worker has loaded for a unit (weights by their hash,
// evaluators by their key) for the units after it. It is safe for
// concurrent use. It stays bounded by emptying itself when full, which a
// run that renews its evaluators every generation hardly notices.
type Cache[V any] struct {
	mu sync.Mutex
	m  map[string]V
}

// Get returns the value kept for key, if any.
func (c *Cache[V]) Get(key string) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[key]
	return v, ok
}

// Put keeps v for key.
func (c *Cache[V]) Put(key string, v V) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil || len(c.m) > cacheLimit {
		c.m = map[string]V{}
	}
	c.m[key] = v
}
