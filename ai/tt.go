package ai

import "sync/atomic"

// Bounds stored with a transposition-table score.
const (
	boundNone  = 0
	boundUpper = 1 // the true score is at most the stored one (fail low)
	boundLower = 2 // at least (fail high)
	boundExact = 3
)

// ttEntry is one remembered search result, as probe returns it.
type ttEntry struct {
	move  uint32 // moveKey of the best move, 0 for none
	score int16
	depth int8
	meta  uint8 // bound in the low 2 bits, search generation above
}

func (t ttEntry) bound() int { return int(t.meta & 3) }
func (t ttEntry) gen() uint8 { return t.meta >> 2 }

// pack puts an entry in one word: move, score, depth, meta.
func (t ttEntry) pack() uint64 {
	return uint64(t.move)<<32 | uint64(uint16(t.score))<<16 | uint64(uint8(t.depth))<<8 | uint64(t.meta)
}

func unpack(d uint64) ttEntry {
	return ttEntry{move: uint32(d >> 32), score: int16(uint16(d >> 16)), depth: int8(uint8(d >> 8)), meta: uint8(d)}
}

// slot is an entry in memory: 16 bytes, four to a cache line. The threads
// of one search share the table without a lock (Lazy SMP), so each word is
// read and written atomically and the key is stored XORed with the data:
// a slot torn by two writers fails the key check and is merely a miss.
type slot struct {
	check atomic.Uint64 // key ^ data
	data  atomic.Uint64 // packed ttEntry; 0 is empty (meta is never 0 when set)
}

const ttBucket = 4

// table is a fixed-size transposition table of buckets of four entries,
// indexed by the position hash. It is allocated once and reused.
type table struct {
	slots []slot
	mask  uint64 // bucket count - 1
	gen   atomic.Uint32
}

// newTable allocates a table of at most mb megabytes (at least one bucket),
// rounded down to a power of two buckets.
func newTable(mb int) *table {
	if mb < 1 {
		mb = 1
	}
	buckets := uint64(mb) << 20 / (16 * ttBucket)
	n := uint64(1)
	for n*2 <= buckets {
		n *= 2
	}
	return &table{slots: make([]slot, n*ttBucket), mask: n - 1}
}

// clear empties the table. No search may be running: the Engine's lock
// and the wait for its helpers order this before and after every search.
func (t *table) clear() {
	clear(t.slots)
	t.gen.Store(0)
}

func (t *table) newSearch() { t.gen.Store((t.gen.Load() + 1) & 63) }

// probe returns the entry for key.
func (t *table) probe(key uint64) (ttEntry, bool) {
	b := t.slots[(key&t.mask)*ttBucket:][:ttBucket]
	for i := range b {
		d := b[i].data.Load()
		if d != 0 && b[i].check.Load()^d == key {
			return unpack(d), true
		}
	}
	return ttEntry{}, false
}

// store remembers a result, replacing the same position, else the
// shallowest entry of an older search, else the shallowest one.
func (t *table) store(key uint64, move uint32, score, depth, bound int) {
	gen := uint8(t.gen.Load())
	b := t.slots[(key&t.mask)*ttBucket:][:ttBucket]
	victim := 0
	worst := 1 << 30
	var old ttEntry
	same := false
	for i := range b {
		d := b[i].data.Load()
		if d == 0 {
			victim = i
			break
		}
		if b[i].check.Load()^d == key {
			victim, old, same = i, unpack(d), true
			break
		}
		e := unpack(d)
		v := int(e.depth)
		if e.gen() != gen {
			v -= 256
		}
		if v < worst {
			worst, victim = v, i
		}
	}
	if same && move == 0 {
		move = old.move // keep the old best move when this result has none
	}
	if depth > 127 {
		depth = 127
	}
	d := ttEntry{move: move, score: int16(score), depth: int8(depth), meta: uint8(bound) | gen<<2}.pack()
	b[victim].data.Store(d)
	b[victim].check.Store(key ^ d)
}
