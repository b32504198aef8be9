package render

import (
	"encoding/binary"
	"image"
	"image/color"
	"sort"
)

// The boards are 8-bit paletted images: they encode several times faster
// and smaller than RGBA ones. Tiles are composed in RGBA (so outlines and
// shadows blend properly) and then mapped to the palette through a lookup
// table on 5 bits a channel. The palette is made once per theme and size from
// everything the renderer can draw: the theme's flat colours exactly, and the
// blends at the edges by median cut.

// quantize hard-codes lutBits = 5.
const (
	lutBits   = 5
	lutSize   = 1 << (3 * lutBits)
	paletteN  = 255 // colours; index 255 is kept for the GIF's transparency
	transpIdx = 255
	maxForced = 96 // the most frequent colours, kept exactly
)

type lut [lutSize]uint8

func lutIndex(r, g, b uint8) int {
	return int(r>>(8-lutBits))<<(2*lutBits) | int(g>>(8-lutBits))<<lutBits | int(b>>(8-lutBits))
}

// histogram counts the colours of RGBA images, ignoring alpha (every image
// fed to it is opaque).
type histogram map[uint32]int

func (h histogram) add(m *image.RGBA) {
	b := m.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		i := m.PixOffset(b.Min.X, y)
		row := m.Pix[i : i+4*b.Dx()]
		var last uint32 = 1 << 31
		run := 0
		for x := 0; x < len(row); x += 4 {
			c := uint32(row[x])<<16 | uint32(row[x+1])<<8 | uint32(row[x+2])
			if c == last {
				run++
				continue
			}
			if run > 0 {
				h[last] += run
			}
			last, run = c, 1
		}
		if run > 0 {
			h[last] += run
		}
	}
}

type hcol struct {
	c [3]uint8
	n int
}

// buildPalette picks up to paletteN colours for the histogram: the colours
// in exact, then the most frequent ones, then median-cut boxes of the rest.
// It returns the palette and the indices of the exact colours, most
// important first.
func buildPalette(h histogram, exact []color.RGBA) (color.Palette, []color.RGBA) {
	seen := make(map[uint32]bool)
	var forced []color.RGBA
	force := func(c uint32) {
		if !seen[c] && len(forced) < paletteN {
			seen[c] = true
			forced = append(forced, color.RGBA{uint8(c >> 16), uint8(c >> 8), uint8(c), 0xff})
		}
	}
	for _, c := range exact {
		force(uint32(c.R)<<16 | uint32(c.G)<<8 | uint32(c.B))
	}
	cols := make([]hcol, 0, len(h))
	for c, n := range h {
		cols = append(cols, hcol{[3]uint8{uint8(c >> 16), uint8(c >> 8), uint8(c)}, n})
	}
	sort.Slice(cols, func(i, j int) bool {
		if cols[i].n != cols[j].n {
			return cols[i].n > cols[j].n
		}
		return key(cols[i].c) < key(cols[j].c)
	})
	total := 0
	for _, c := range cols {
		total += c.n
	}
	for _, c := range cols {
		if len(forced) >= maxForced || c.n*500 < total {
			break
		}
		force(key(c.c))
	}
	rest := cols[:0:0]
	for _, c := range cols {
		if !seen[key(c.c)] {
			rest = append(rest, c)
		}
	}
	// Entries are NRGBA (the same as RGBA when opaque), the straight colour
	// that PNG's PLTE holds.
	pal := make(color.Palette, 0, paletteN+1)
	for _, c := range forced {
		pal = append(pal, color.NRGBA(c))
	}
	for _, c := range medianCut(rest, paletteN-len(pal)) {
		pal = append(pal, color.NRGBA(c))
	}
	return pal, forced
}

func key(c [3]uint8) uint32 { return uint32(c[0])<<16 | uint32(c[1])<<8 | uint32(c[2]) }

// medianCut splits the colours into at most k boxes and returns each box's
// weighted mean. Boxes with the widest spread of colour split first, so the
// rare blends at edges get entries too.
func medianCut(cols []hcol, k int) []color.RGBA {
	if k <= 0 || len(cols) == 0 {
		return nil
	}
	if len(cols) <= k {
		out := make([]color.RGBA, len(cols))
		for i, c := range cols {
			out[i] = color.RGBA{c.c[0], c.c[1], c.c[2], 0xff}
		}
		return out
	}
	boxes := []colourBox{measureBox(cols)}
	for len(boxes) < k {
		bi := widestBox(boxes)
		if boxes[bi].score < 0 {
			break // no box has two colours to split
		}
		lo, hi := boxes[bi].split()
		boxes[bi] = measureBox(lo)
		boxes = append(boxes, measureBox(hi))
	}
	out := make([]color.RGBA, 0, len(boxes))
	for _, b := range boxes {
		out = append(out, b.mean())
	}
	return out
}

// colourBox is a box of median cut: its colours, the channel they spread
// most along, and how much it deserves the next split (-1: it cannot).
type colourBox struct {
	cols  []hcol
	ch    int
	score int
}

func measureBox(cs []hcol) colourBox {
	lo, hi := [3]uint8{255, 255, 255}, [3]uint8{}
	w := 0
	for _, c := range cs {
		for i := range 3 {
			lo[i] = min(lo[i], c.c[i])
			hi[i] = max(hi[i], c.c[i])
		}
		w += c.n
	}
	b := colourBox{cols: cs}
	for i := range 3 {
		if r := int(hi[i]) - int(lo[i]); r > b.score {
			b.ch, b.score = i, r
		}
	}
	// Spread counts most; weight breaks near-ties, so that the frequent
	// blends (long anti-aliased edges) get finer steps.
	b.score = b.score*64 + min(63, w/64)
	if len(cs) < 2 {
		b.score = -1
	}
	return b
}

// widestBox is the index of the box to split next: the first of the
// highest score.
func widestBox(boxes []colourBox) int {
	bi := 0
	for i := range boxes {
		if boxes[i].score > boxes[bi].score {
			bi = i
		}
	}
	return bi
}

// split sorts the box along its channel and cuts it at the weighted
// median, each half keeping at least one colour.
func (b colourBox) split() (lo, hi []hcol) {
	ch := b.ch
	sort.Slice(b.cols, func(i, j int) bool {
		ci, cj := b.cols[i].c, b.cols[j].c
		if ci[ch] != cj[ch] {
			return ci[ch] < cj[ch]
		}
		return key(ci) < key(cj)
	})
	half, acc := 0, 0
	for _, c := range b.cols {
		half += c.n
	}
	cut := 1
	for i, c := range b.cols {
		acc += c.n
		if 2*acc >= half {
			cut = max(1, min(i+1, len(b.cols)-1))
			break
		}
	}
	return b.cols[:cut], b.cols[cut:]
}

// mean is the box's colours averaged by their counts.
func (b colourBox) mean() color.RGBA {
	var s [3]int
	w := 0
	for _, c := range b.cols {
		for i := range 3 {
			s[i] += int(c.c[i]) * c.n
		}
		w += c.n
	}
	return color.RGBA{uint8(s[0] / w), uint8(s[1] / w), uint8(s[2] / w), 0xff}
}

// buildLUT maps every 5-bit cell of the colour cube to the palette entry
// nearest its centre, then pins the cells of the exact colours to them. The
// palette is searched in order of red, outwards from the cell's red, and
// stops once red alone is farther than the best so far.
func buildLUT(pal color.Palette, exact []color.RGBA) *lut {
	t := new(lut)
	type pc struct {
		r, g, b int32
		i       uint8
	}
	ps := make([]pc, len(pal))
	for i, c := range pal {
		r, g, b, _ := c.RGBA()
		ps[i] = pc{int32(r >> 8), int32(g >> 8), int32(b >> 8), uint8(i)}
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i].r < ps[j].r || ps[i].r == ps[j].r && ps[i].i < ps[j].i })
	// Weighted towards green as the eye is; keeps edges smooth.
	const wr, wg, wb = 3, 4, 2
	const half = 1 << (7 - lutBits)
	for i := range lutSize {
		r := int32(i>>(2*lutBits))<<(8-lutBits) | half
		g := int32(i>>lutBits&(1<<lutBits-1))<<(8-lutBits) | half
		b := int32(i&(1<<lutBits-1))<<(8-lutBits) | half
		start := sort.Search(len(ps), func(j int) bool { return ps[j].r >= r })
		best, bestD := uint8(0), int32(1<<30)
		try := func(p pc) {
			dr, dg, db := r-p.r, g-p.g, b-p.b
			d := wr*dr*dr + wg*dg*dg + wb*db*db
			if d < bestD || d == bestD && p.i < best {
				best, bestD = p.i, d
			}
		}
		for j := start; j < len(ps) && wr*(ps[j].r-r)*(ps[j].r-r) <= bestD; j++ {
			try(ps[j])
		}
		for j := start - 1; j >= 0 && wr*(r-ps[j].r)*(r-ps[j].r) <= bestD; j-- {
			try(ps[j])
		}
		t[i] = best
	}
	// Pin exact colours, least important first so the most important wins
	// when two share a cell.
	for i := len(exact) - 1; i >= 0; i-- {
		c := exact[i]
		t[lutIndex(c.R, c.G, c.B)] = uint8(pal.Index(c))
	}
	return t
}

// quantize writes the opaque RGBA image src into dst at dp through the table.
func (t *lut) quantize(dst *image.Paletted, dp image.Point, src *image.RGBA) {
	b := src.Bounds()
	w := b.Dx()
	for y := 0; y < b.Dy(); y++ {
		si := src.PixOffset(b.Min.X, b.Min.Y+y)
		s := src.Pix[si : si+4*w : si+4*w]
		di := dst.PixOffset(dp.X, dp.Y+y)
		d := dst.Pix[di : di+w : di+w]
		for x := range d {
			v := binary.LittleEndian.Uint32(s[4*x:])
			d[x] = t[(v>>3&0x1f)<<10|(v>>11&0x1f)<<5|(v>>19&0x1f)]
		}
	}
}
