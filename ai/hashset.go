package ai

// hashSet is a small open-addressing set of position hashes: the game's
// earlier positions, looked up during search without allocating.
type hashSet struct {
	slots   []uint64
	mask    uint64
	n       int
	hasZero bool // 0 marks an empty slot, so a zero hash is kept aside
}

func (s *hashSet) reset(hashes []uint64) {
	size := 16
	for size < 2*len(hashes) {
		size *= 2
	}
	if cap(s.slots) < size {
		s.slots = make([]uint64, size)
	}
	s.slots = s.slots[:size]
	clear(s.slots)
	s.mask = uint64(size - 1)
	s.n = len(hashes)
	s.hasZero = false
	for _, h := range hashes {
		if h == 0 {
			s.hasZero = true
			continue
		}
		i := h & s.mask
		for s.slots[i] != 0 && s.slots[i] != h {
			i = (i + 1) & s.mask
		}
		s.slots[i] = h
	}
}

func (s *hashSet) has(h uint64) bool {
	if s.n == 0 {
		return false
	}
	if h == 0 {
		return s.hasZero
	}
	for i := h & s.mask; s.slots[i] != 0; i = (i + 1) & s.mask {
		if s.slots[i] == h {
			return true
		}
	}
	return false
}
