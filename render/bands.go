package render

import (
	"image"
	"sync"

	"github.com/bashni/bashni/rules"
	"github.com/hashicorp/golang-lru/v2/simplelru"
)

// The band cache. The bot redraws one game's board move after move, and a
// move changes only the ranks it touches (and those the previous move's
// highlight leaves): the other ranks come out the same pixels as on the
// board before. Deflate was most of a board's cost (about a millisecond at
// 640 px, against 0.15 ms of drawing), so PNG cuts the image into
// horizontal bands, compresses each on its own into a segment (see
// segment) and keeps the segments in an LRU cache; a board is then put
// together from cached segments, and only the bands not seen before are
// drawn and compressed.
//
// The bands, top to bottom:
//
//	0      the margin above the board, k.bord rows
//	1..8   one screen row of squares each, k.sq rows: a rank
//	9      the margin below the board, the rest (k.marg rows)
//
// newKit makes k.bord the top margin plus whatever the eight squares and
// the margins leave over, so bord + 8·sq + marg is the size exactly and no
// rows are left outside the bands; bandRows gives the last band whatever
// rows remain all the same.
//
// A band's pixels depend only on its key. drawBand starts from the kit's
// empty board for the perspective (frame, squares and coordinates: fixed
// per kit and perspective, so the rank digit in the left margin and the
// file letters below are too) and puts on it the tiles of the rank's dark
// squares that hold a tower or a mark, each a function of that tower and
// that mark alone (composeTile), composed in an image one square in size
// and copied into exactly its square (drawTile): nothing drawn for a
// square can reach another square, let alone another band. Nothing else
// is drawn on a board: no arrow or other mark spans squares.
const numBands = 10

// bandCacheEntries bounds the band cache. Measured over 200 random games
// at 640 px, the bands left in a full cache average 3.2 KB compressed (6.3
// KB at most; the margins take a few hundred bytes), so 8192 bands hold
// about 25 MB, and some 2 MB more for keys and list; at MaxSize they would
// hold about 135 MB, but the bot draws 640-px boards only. A board misses
// three or four bands on average, but many bands are shared between games
// (the margins, empty ranks, the opening's ranks): with 5000 games
// interleaved, far more than the cache holds a board of each,
// BenchmarkPNGGames still finds four bands in five.
const bandCacheEntries = 8192

// bandKey is everything a band's pixels depend on: the kit (theme and
// size), the perspective, which band, and for a band of squares the tower
// and marks of each dark square of its rank, in square order. The fields
// are ordered to leave no padding, so the map hashes the key as plain
// memory.
type bandKey struct {
	tw    [4]rules.Tower
	m     [4]sqMark
	kit   uint32
	band  uint16
	persp uint16
}

// bandCache is the Renderer's LRU of compressed bands of every kit,
// locked once per board for the lookups and once for the additions.
type bandCache struct {
	mu  sync.Mutex
	lru *simplelru.LRU[bandKey, *segment]
	off bool // benchmarks measure the uncached path with it

	hits, misses int // for tests
}

func newBandCache(entries int) *bandCache {
	lru, err := simplelru.NewLRU[bandKey, *segment](entries, nil)
	if err != nil {
		panic("render: " + err.Error()) // entries is positive
	}
	return &bandCache{lru: lru}
}

// get fills segs with the cached segments of keys and returns the bands it
// did not find, one bit each.
func (c *bandCache) get(keys *[numBands]bandKey, segs *[numBands]*segment) (missed uint32) {
	if c.off {
		return 1<<numBands - 1
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for b := range keys {
		s, ok := c.lru.Get(keys[b])
		if !ok {
			missed |= 1 << b
			c.misses++
		} else {
			c.hits++
		}
		segs[b] = s
	}
	return missed
}

// add caches the segments of the bands in set. Two renders that miss the
// same band at once both compress it; the second add replaces the first's
// segment with identical bytes.
func (c *bandCache) add(keys *[numBands]bandKey, segs *[numBands]*segment, set uint32) {
	if c.off {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for b := range keys {
		if set&(1<<b) != 0 {
			c.lru.Add(keys[b], segs[b])
		}
	}
}

// purge empties the cache (for tests and benchmarks).
func (c *bandCache) purge() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.lru.Purge()
}

// stats returns the lookups that hit and missed so far.
func (c *bandCache) stats() (hits, misses int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.hits, c.misses
}

// bandRows is the rows [y0, y1) of band b.
func (k *kit) bandRows(b int) (y0, y1 int) {
	switch {
	case b == 0:
		return 0, k.bord
	case b <= 8:
		return k.bord + (b-1)*k.sq, k.bord + b*k.sq
	default:
		return k.bord + 8*k.sq, k.size
	}
}

// bandRank is the rank (0 for rank 1) shown in band b, seen from persp, and
// false for a margin.
func bandRank(b int, persp rules.Color) (int, bool) {
	if b < 1 || b > 8 {
		return 0, false
	}
	row := b - 1 // screen row, 0 at the top
	if persp == rules.Black {
		return row, true
	}
	return 7 - row, true
}

// bandKey is the key of band b of the board for p, m and persp.
func (k *kit) bandKey(p *rules.Position, m *marks, persp rules.Color, b int) bandKey {
	key := bandKey{kit: k.id, band: uint16(b), persp: uint16(persp)}
	if rank, ok := bandRank(b, persp); ok {
		for i := range 4 {
			s := rules.Square(4*rank + i)
			key.tw[i] = p.Tower(s)
			key.m[i] = m.sq[s]
		}
	}
	return key
}

// drawBand draws band b of the board onto dst's rows of that band, as
// drawBoard draws them: the empty board, then the rank's squares that hold
// a tower or have a mark (a square with neither is in neither p.Occupied()
// nor m.any, and one with either is in one of them). Other rows are left
// alone.
func (k *kit) drawBand(dst *image.Paletted, t *image.RGBA, p *rules.Position, m *marks, persp rules.Color, b int) {
	base := k.base[persp&1]
	y0, y1 := k.bandRows(b)
	for y := y0; y < y1; y++ {
		copy(dst.Pix[y*dst.Stride:y*dst.Stride+k.size], base.Pix[y*base.Stride:])
	}
	if rank, ok := bandRank(b, persp); ok {
		k.drawSquares(dst, t, p, m, persp, (p.Occupied()|m.any)&(0xf<<(4*rank)))
	}
}
