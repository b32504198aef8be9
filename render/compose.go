package render

import (
	"image"
	"image/color"
	"image/draw"
	"math/bits"

	"github.com/bashni/bashni/rules"
)

// over draws sprite s onto dst shifted by (dx, dy), clipped to dst. It is
// draw.Draw with draw.Over for premultiplied RGBA, made several times faster
// for sprites: most of their pixels are either clear (skipped) or opaque
// (copied), and only the anti-aliased rim is blended.
func over(dst *image.RGBA, s *image.RGBA, dx, dy int) {
	r := s.Rect.Add(image.Pt(dx, dy)).Intersect(dst.Rect)
	if r.Empty() {
		return
	}
	sp := r.Min.Sub(image.Pt(dx, dy))
	w := 4 * r.Dx()
	for y := 0; y < r.Dy(); y++ {
		si := s.PixOffset(sp.X, sp.Y+y)
		di := dst.PixOffset(r.Min.X, r.Min.Y+y)
		sr := s.Pix[si : si+w : si+w]
		dr := dst.Pix[di : di+w : di+w]
		for i := 0; i < w; i += 4 {
			a := sr[i+3]
			switch a {
			case 0:
			case 0xff:
				copy(dr[i:i+4:i+4], sr[i:i+4:i+4])
			default:
				ia := uint32(0xff - a)
				p := sr[i : i+4 : i+4]
				q := dr[i : i+4 : i+4]
				q[0] = p[0] + div255(uint32(q[0])*ia)
				q[1] = p[1] + div255(uint32(q[1])*ia)
				q[2] = p[2] + div255(uint32(q[2])*ia)
				q[3] = a + div255(uint32(q[3])*ia)
			}
		}
	}
}

// div255 is x/255 rounded, for x ≤ 255*255.
func div255(x uint32) uint8 {
	x += 128
	return uint8((x + x>>8) >> 8)
}

// composeTile draws one dark square, in RGBA, into t (a square's size, at
// the origin): its background, the jumped mark, the tower and the target
// marker. Everything stays inside the tile by construction, so no tower can
// spill onto a neighbour.
func (k *kit) composeTile(t *image.RGBA, tw rules.Tower, sm sqMark) {
	draw.Draw(t, t.Rect, k.bgSrc[sm.bg], image.Point{}, draw.Src)
	if sm.jumped {
		over(t, k.cross, 0, 0)
	}
	if !tw.Empty() {
		k.drawTower(t, tw)
	}
	// A tall tower reaches the top of its square: the leg's number goes
	// over it.
	if sm.leg > 0 {
		k.drawLeg(t, int(sm.leg))
	}
	if sm.target {
		if tw.Empty() {
			over(t, k.dot, 0, 0)
		} else {
			over(t, k.ring, 0, 0)
		}
	}
}

func (k *kit) numWidth(n int) int {
	w := k.small.get('0').adv
	if n >= 10 {
		w *= 2
	}
	return w
}

// drawNum prints 0 ≤ n < 100 without allocating.
func (k *kit) drawNum(t *image.RGBA, n int, dot image.Point, ink color.RGBA) image.Point {
	var b [2]byte
	s := b[:0]
	if n >= 10 {
		s = append(s, byte('0'+n/10))
	}
	s = append(s, byte('0'+n%10))
	src := image.NewUniform(ink)
	for _, c := range s {
		g := k.small.get(rune(c))
		if g.mask != nil {
			draw.DrawMask(t, g.mask.Rect.Add(dot), src, image.Point{}, g.mask, g.mask.Rect.Min, draw.Over)
		}
		dot.X += g.adv
	}
	return dot
}

// drawCaption fills a replay frame's strip and centres text on it.
func (k *kit) drawCaption(strip *image.RGBA, text string) {
	b := strip.Bounds()
	draw.Draw(strip, b, image.NewUniform(k.th.Frame), image.Point{}, draw.Src)
	w := k.big.width(text)
	dot := image.Pt(b.Min.X+(b.Dx()-w)/2, b.Min.Y+(b.Dy()+k.big.ascent)/2)
	k.big.draw(strip, text, dot, k.th.Coord)
}

// drawLeg numbers a landing square of a capture of several legs in its
// top-left corner, so the path reads in order.
func (k *kit) drawLeg(t *image.RGBA, n int) {
	w := k.numWidth(n) + 4
	h := k.small.ascent + 4
	r := image.Rect(1, 1, 1+w, 1+h)
	draw.Draw(t, r, image.NewUniform(k.th.Frame), image.Point{}, draw.Src)
	k.drawNum(t, n, image.Pt(r.Min.X+2, r.Min.Y+2+k.small.ascent), k.th.Coord)
}

// sqMark is what the options say about one square.
type sqMark struct {
	bg     bgKind
	jumped bool  // a tower jumped by the last move stood here
	target bool  // a destination of the selected tower
	leg    uint8 // 1-based number of a capture's landing here, 0 if none
}

// marks is what the options say about each square.
type marks struct {
	sq  [rules.NumSquares]sqMark
	any uint32 // squares that differ from the empty board
}

func (m *marks) set(s rules.Square, bg bgKind) {
	m.sq[s].bg = bg
	m.any |= 1 << s
}

// marksFor turns the options into per-square marks. Later kinds win where
// they meet: the landing square over the path over the start, and a
// selected tower over all.
func marksFor(o *Options) marks {
	var m marks
	if lm := o.LastMove; lm != nil && lm.Len() > 0 {
		if lm.IsCapture() {
			for i := range lm.Len() {
				m.set(lm.Jumped(i), bgJumped)
				m.sq[lm.Jumped(i)].jumped = true
			}
		}
		m.set(lm.From(), bgFrom)
		for i := 0; i < lm.Len()-1; i++ {
			m.set(lm.Landing(i), bgPath)
		}
		m.set(lm.To(), bgTo)
		if lm.Len() > 1 {
			for i := range lm.Len() {
				m.sq[lm.Landing(i)].leg = uint8(i + 1)
			}
		}
	}
	if o.Selected != nil {
		m.set(*o.Selected, bgSelected)
	}
	for _, s := range o.Targets {
		m.sq[s].target = true
		m.any |= 1 << s
	}
	return m
}

// origin is the top-left pixel of square s seen from side persp.
func (k *kit) origin(s rules.Square, persp rules.Color) image.Point {
	col, row := s.File(), 7-s.Rank()
	if persp == rules.Black {
		col, row = 7-col, 7-row
	}
	return image.Pt(k.marg+col*k.sq, k.bord+row*k.sq)
}

// drawSquares draws the squares in set onto dst, which already holds the
// board.
func (k *kit) drawSquares(dst *image.Paletted, t *image.RGBA, p *rules.Position, m *marks, persp rules.Color, set uint32) {
	for set != 0 {
		s := rules.Square(bits.TrailingZeros32(set))
		set &= set - 1
		k.drawTile(dst, k.origin(s, persp), t, p.Tower(s), m.sq[s])
	}
}

// tileKey is everything a square's tile depends on within one kit.
type tileKey struct {
	tw rules.Tower
	m  sqMark
}

// tileCacheBytes bounds the memory of a kit's tile cache.
const tileCacheBytes = 8 << 20

// drawTile puts the tile of one square at o. Tiles are cached once
// quantized: a game shows the same few towers over and over (the start
// position has two distinct tiles), so most boards only copy bytes.
func (k *kit) drawTile(dst *image.Paletted, o image.Point, t *image.RGBA, tw rules.Tower, sm sqMark) {
	key := tileKey{tw, sm}
	var pix []byte
	if v, ok := k.tiles.Load(key); ok {
		pix = v.([]byte)
	} else {
		k.composeTile(t, tw, sm)
		tile := image.NewPaletted(t.Rect, k.pal)
		k.lut.quantize(tile, image.Point{}, t)
		pix = tile.Pix
		if !k.noCache {
			if k.nTiles.Add(1) > int64(k.maxTiles) {
				k.tiles.Clear()
				k.nTiles.Store(1)
			}
			k.tiles.Store(key, pix)
		}
	}
	for y := range k.sq {
		i := dst.PixOffset(o.X, o.Y+y)
		copy(dst.Pix[i:i+k.sq], pix[y*k.sq:(y+1)*k.sq])
	}
}

// drawBoard draws the whole board for p onto dst (size×size at the origin,
// or taller for a replay frame). dst's stride may exceed its width, as for
// the scratch board whose rows are PNG scanlines; the padding is left alone.
func (k *kit) drawBoard(dst *image.Paletted, t *image.RGBA, p *rules.Position, m *marks, persp rules.Color) {
	base := k.base[persp&1]
	if dst.Stride == base.Stride {
		copy(dst.Pix, base.Pix)
	} else {
		for y := range k.size {
			copy(dst.Pix[y*dst.Stride:y*dst.Stride+k.size], base.Pix[y*base.Stride:])
		}
	}
	k.drawSquares(dst, t, p, m, persp, p.Occupied()|m.any)
}
