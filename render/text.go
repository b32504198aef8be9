package render

import (
	"image"
	"image/color"
	"image/draw"

	"github.com/golang/freetype/truetype"
	"golang.org/x/image/font"
	"golang.org/x/image/math/fixed"
)

// glyph is one character cut out of a font face once, so that drawing text
// at render time needs no font.Face (which is not safe for concurrent use)
// and no rasterising: only image/draw of a small alpha mask.
type glyph struct {
	mask *image.Alpha // bounds relative to the dot
	adv  int
}

// glyphs is a font at one pixel size, for the characters the renderer prints:
// printable ASCII, the ellipsis of a Black move number ("12…"), a few
// punctuation marks and the Russian alphabet (a board's caption may be in
// Russian). other is filled once and only read after.
type glyphs struct {
	ascii    [128]glyph
	ellipsis glyph
	other    map[rune]glyph
	ascent   int // pixels above the baseline of a digit
}

// otherRunes are the characters past ASCII that captions use.
func otherRunes() []rune {
	rs := []rune{'·', '–', '—', '½', 'Ё', 'ё'}
	for r := 'А'; r <= 'я'; r++ {
		rs = append(rs, r)
	}
	return rs
}

const ellipsis = '…'

func newGlyphs(f *truetype.Font, px float64) *glyphs {
	face := truetype.NewFace(f, &truetype.Options{Size: px, DPI: 72, Hinting: font.HintingFull})
	defer face.Close()
	g := &glyphs{}
	cut := func(r rune) glyph {
		dr, mask, mp, adv, ok := face.Glyph(fixed.Point26_6{}, r)
		if !ok {
			return glyph{}
		}
		a := image.NewAlpha(dr)
		draw.Draw(a, dr, mask, mp, draw.Src)
		return glyph{mask: a, adv: adv.Round()}
	}
	for r := rune(' '); r < 127; r++ {
		g.ascii[r] = cut(r)
	}
	g.ellipsis = cut(ellipsis)
	g.other = make(map[rune]glyph)
	for _, r := range otherRunes() {
		g.other[r] = cut(r)
	}
	if m := g.ascii['0'].mask; m != nil {
		g.ascent = -m.Rect.Min.Y
	}
	return g
}

func (g *glyphs) get(r rune) *glyph {
	if r >= 0 && r < 128 {
		return &g.ascii[r]
	}
	if r == ellipsis {
		return &g.ellipsis
	}
	if gl, ok := g.other[r]; ok {
		return &gl
	}
	return &g.ascii['?']
}

// width is the advance of s in pixels.
func (g *glyphs) width(s string) int {
	w := 0
	for _, r := range s {
		w += g.get(r).adv
	}
	return w
}

// draw writes s with its baseline starting at dot, in colour c, and returns
// the dot after it.
func (g *glyphs) draw(dst *image.RGBA, s string, dot image.Point, c color.RGBA) image.Point {
	src := image.NewUniform(c)
	for _, r := range s {
		gl := g.get(r)
		if gl.mask != nil {
			rect := gl.mask.Rect.Add(dot)
			draw.DrawMask(dst, rect, src, image.Point{}, gl.mask, gl.mask.Rect.Min, draw.Over)
		}
		dot.X += gl.adv
	}
	return dot
}
