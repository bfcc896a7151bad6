package workunit

import (
	"strconv"
	"testing"
)

// A Cache returns what was put, and empties itself once it is over its
// limit instead of growing.
func TestCacheBounded(t *testing.T) {
	var c Cache[int]
	if _, ok := c.Get("a"); ok {
		t.Fatal("an empty cache has a value")
	}
	for i := range cacheLimit + 1 {
		c.Put(strconv.Itoa(i), i)
	}
	if v, ok := c.Get("7"); !ok || v != 7 {
		t.Fatalf("Get(7) = %d, %v", v, ok)
	}
	c.Put("next", -1)
	if _, ok := c.Get("7"); ok {
		t.Error("the cache kept growing past its limit")
	}
	if v, ok := c.Get("next"); !ok || v != -1 {
		t.Errorf("Get(next) = %d, %v after starting afresh", v, ok)
	}
}
