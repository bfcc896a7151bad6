package datagen

// keySet is a set of 64-bit position keys by open addressing: far smaller
// than a map for tens of millions of keys. Key 0 stands for itself through
// a substitute, since 0 marks an empty slot.
type keySet struct {
	slots []uint64
	n     int
}

func newKeySet(capacity int) *keySet {
	size := 1 << 10
	for size < 2*capacity {
		size <<= 1
	}
	return &keySet{slots: make([]uint64, size)}
}

// add puts k in the set and reports whether it was new.
func (s *keySet) add(k uint64) bool {
	if k == 0 {
		k = 0x5bd1e9955bd1e995
	}
	if 2*(s.n+1) > len(s.slots) {
		s.grow()
	}
	mask := uint64(len(s.slots) - 1)
	for i := (k * 0x9e3779b97f4a7c15) >> 20 & mask; ; i = (i + 1) & mask {
		switch s.slots[i] {
		case 0:
			s.slots[i] = k
			s.n++
			return true
		case k:
			return false
		}
	}
}

// grow doubles the table.
func (s *keySet) grow() {
	old := s.slots
	s.slots = make([]uint64, 2*len(old))
	s.n = 0
	for _, k := range old {
		if k != 0 {
			s.add(k)
		}
	}
}

// len returns the number of keys.
func (s *keySet) len() int { return s.n }
