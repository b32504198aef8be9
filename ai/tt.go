package ai

// Bounds stored with a transposition-table score.
const (
	boundNone  = 0
	boundUpper = 1 // the true score is at most the stored one (fail low)
	boundLower = 2 // at least (fail high)
	boundExact = 3
)

// ttEntry is one remembered search result: 16 bytes, four to a cache line.
type ttEntry struct {
	key   uint64
	move  uint32 // moveKey of the best move, 0 for none
	score int16
	depth int8
	meta  uint8 // bound in the low 2 bits, search generation above
}

func (t *ttEntry) bound() int { return int(t.meta & 3) }
func (t *ttEntry) gen() uint8 { return t.meta >> 2 }

const ttBucket = 4

// table is a fixed-size transposition table of buckets of four entries,
// indexed by the position hash. It is allocated once and reused.
type table struct {
	entries []ttEntry
	mask    uint64 // bucket count - 1
	gen     uint8  // bumped per search; older entries are replaced first
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
	return &table{entries: make([]ttEntry, n*ttBucket), mask: n - 1}
}

func (t *table) clear() {
	clear(t.entries)
	t.gen = 0
}

func (t *table) newSearch() { t.gen = (t.gen + 1) & 63 }

// probe returns the entry for key, or nil.
func (t *table) probe(key uint64) *ttEntry {
	b := t.entries[(key&t.mask)*ttBucket:][:ttBucket]
	for i := range b {
		if b[i].key == key && b[i].meta != 0 {
			return &b[i]
		}
	}
	return nil
}

// store remembers a result, replacing the same position, else the
// shallowest entry of an older search, else the shallowest one.
func (t *table) store(key uint64, move uint32, score, depth, bound int) {
	b := t.entries[(key&t.mask)*ttBucket:][:ttBucket]
	victim := 0
	worst := 1 << 30
	for i := range b {
		e := &b[i]
		if e.key == key || e.meta == 0 {
			victim = i
			break
		}
		v := int(e.depth)
		if e.gen() != t.gen {
			v -= 256
		}
		if v < worst {
			worst, victim = v, i
		}
	}
	e := &b[victim]
	if e.key == key && move == 0 {
		move = e.move // keep the old best move when this result has none
	}
	if depth > 127 {
		depth = 127
	}
	*e = ttEntry{key: key, move: move, score: int16(score), depth: int8(depth), meta: uint8(bound) | t.gen<<2}
}
