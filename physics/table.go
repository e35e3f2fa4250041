package physics

// pairTable maps a contact's pair key to its index in a contact slice: open
// addressing with linear probing, rebuilt every tick, allocation-free once
// it has grown to the world's size. It replaces sorting the contacts, which
// cost 40 % of a pile's step.
type pairTable struct {
	keys []uint64
	idx  []int32 // index+1; 0 is an empty slot
	mask uint64
	// probes counts the slots put and get have looked at: tests bound the
	// table's cost by it.
	probes uint64
}

// reset empties the table and sizes it for n entries, clearing only the
// part it uses; it allocates only past the largest n it has held (or
// reserved).
func (t *pairTable) reset(n int) {
	size := 16
	for size < 2*n {
		size <<= 1
	}
	if len(t.keys) < size {
		t.keys = make([]uint64, size)
		t.idx = make([]int32, size)
	}
	clear(t.idx[:size])
	t.mask = uint64(size - 1)
}

func (t *pairTable) slot(key uint64) uint64 { return (key * 0x9E3779B97F4A7C15 >> 32) & t.mask }

// put stores index i for key and reports true, unless the table holds
// key already: then it keeps the first index, which is the one get finds
// (it stops at the first equal key), and reports false. So a slice that
// names one pair many times costs what one that names it once does,
// instead of a probe past every copy before it (quadratic).
func (t *pairTable) put(key uint64, i int) bool {
	s := t.slot(key)
	for t.idx[s] != 0 {
		t.probes++
		if t.keys[s] == key {
			return false
		}
		s = (s + 1) & t.mask
	}
	t.keys[s], t.idx[s] = key, int32(i)+1
	return true
}

// get returns the index stored for key, or -1.
func (t *pairTable) get(key uint64) int { return t.find(key, &t.probes) }

// find is get counting its probes in *probes: the step's workers look up
// one table at once, each counting its own.
func (t *pairTable) find(key uint64, probes *uint64) int {
	for s := t.slot(key); t.idx[s] != 0; s = (s + 1) & t.mask {
		*probes++
		if t.keys[s] == key {
			return int(t.idx[s]) - 1
		}
	}
	return -1
}
