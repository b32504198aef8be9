package render

import (
	"image"
	"image/color"
	"image/draw"
	"math"
	"sync"
	"sync/atomic"

	"github.com/bashni/bashni/rules"
	"github.com/fogleman/gg"
	"github.com/golang/freetype/truetype"
)

// A kit is everything prepared for one theme and size: geometry, the sprites
// of pieces, marks and shadows, the two empty boards (one per perspective),
// the palette and its lookup table. It is built once and never changed, so
// any number of renders share it.
type kit struct {
	th   Theme
	size int // image width; the board image is size×size
	sq   int // side of a square
	marg int // left and bottom margins, where the coordinates are
	bord int // top and right margins
	capH int // height of the caption strip under a replay frame

	// Tower geometry inside a square's tile (see tower.go).
	cx, rx, lw float64
	seam       float64  // width of the line between two pieces of a tower
	ryMax      float64  // the face's half-height of a lone piece
	maxN       int      // the tallest tower drawn piece by piece
	layouts    []layout // by number of pieces, 1..maxN
	tall       layout   // taller towers: their top pieces over a count chip
	chipH      int

	sprites map[spriteKey]*towerSprites
	dot     *image.RGBA // target marker on an empty square
	ring    *image.RGBA // target marker around a tower
	cross   *image.RGBA // jumped-square mark
	small   *glyphs     // counts and leg numbers
	big     *glyphs     // caption text

	bg    [numBG]color.RGBA
	bgSrc [numBG]*image.Uniform

	base   [2]*image.Paletted // empty boards, White and Black at the bottom
	pal    color.Palette      // for PNG: opaque entries only
	gifPal color.Palette      // pal plus a transparent entry at transpIdx
	lut    *lut

	scratch sync.Pool // *scratch

	tiles    sync.Map // tileKey → []byte, a quantized tile
	nTiles   atomic.Int64
	maxTiles int
	noCache  bool // benchmarks measure the cold path with it
}

// bgKind is what a square's background says.
type bgKind uint8

const (
	bgDark bgKind = iota
	bgFrom
	bgPath
	bgTo
	bgJumped
	bgSelected
	numBG
)

// scratch is the per-render working memory, pooled per kit.
type scratch struct {
	tile *image.RGBA
}

// spriteRef is where a sprite canvas puts the reference point (the centre of
// a face); sprites are cropped, keeping these coordinates in their bounds.
func (k *kit) spriteRef() int { return k.sq }

func newKit(th Theme, size int, bold *truetype.Font) *kit {
	k := &kit{th: th, size: size}
	k.marg, k.sq, k.bord = boardGeometry(size)
	k.capH = int(math.Round(float64(size) * 0.075))
	k.bg = [numBG]color.RGBA{th.Dark, th.From, th.Path, th.To, th.Jumped, th.Selected}
	for i, c := range k.bg {
		k.bgSrc[i] = image.NewUniform(c)
	}

	k.towerGeometry()
	k.small = newGlyphs(bold, math.Round(float64(k.chipH)*0.8))
	k.big = newGlyphs(bold, math.Round(float64(k.capH)*0.5))
	k.makeSprites()

	// Everything that can appear goes through the histogram once.
	h := histogram{}
	boards := [2]*image.RGBA{k.boardRGBA(rules.White, bold), k.boardRGBA(rules.Black, bold)}
	h.add(boards[0])
	k.calibrate(h)
	pal, exact := buildPalette(h, k.exactColours())
	k.pal = pal
	k.lut = buildLUT(pal, exact)
	// The GIF encoder takes the first entry with zero alpha as transparent,
	// so fill the unused ones with opaque black.
	k.gifPal = append(color.Palette{}, pal...)
	for len(k.gifPal) < transpIdx {
		k.gifPal = append(k.gifPal, color.NRGBA{A: 0xff})
	}
	k.gifPal = append(k.gifPal, color.NRGBA{})
	for i, b := range boards {
		k.base[i] = image.NewPaletted(b.Rect, k.pal)
		k.lut.quantize(k.base[i], image.Point{}, b)
	}
	k.maxTiles = max(64, tileCacheBytes/(k.sq*k.sq))
	k.scratch.New = func() any {
		return &scratch{tile: image.NewRGBA(image.Rect(0, 0, k.sq, k.sq))}
	}
	return k
}

// boardGeometry is the board's layout at size px: the left and bottom
// margins (5%), the side of a square, and the top and right margins (2%
// and what the eight squares leave over). They add up to size exactly,
// across and down.
func boardGeometry(size int) (marg, sq, bord int) {
	marg = int(math.Round(float64(size) * 0.05))
	sq = (size - marg - int(math.Round(float64(size)*0.02))) / 8
	bord = size - marg - 8*sq
	return marg, sq, bord
}

// exactColours are the theme's flat colours, most important first: they must
// come out of the palette unchanged (tests look for them).
func (k *kit) exactColours() []color.RGBA {
	t := &k.th
	return []color.RGBA{
		t.Dark, t.Light, t.White.Face, t.Black.Face, t.To, t.From, t.Path, t.Jumped,
		t.Selected, t.Crown, t.Target, t.Frame, t.Coord, t.White.Side, t.Black.Side,
		t.White.Outline, t.Black.Outline, t.White.Edge, t.Black.Edge, t.CrownEdge, t.TargetEdge, t.White.Rim, t.Black.Rim,
	}
}

// canvas returns a gg context for one sprite: a square wide, two tall, with
// the reference point at (cx, sq).
func (k *kit) canvas() *gg.Context {
	return gg.NewContext(k.sq, 2*k.sq)
}

// crop cuts a sprite to its visible pixels, keeping its coordinates.
func crop(dc *gg.Context) *image.RGBA {
	m := dc.Image().(*image.RGBA)
	b := m.Bounds()
	r := image.Rectangle{Min: b.Max, Max: b.Min}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if m.Pix[m.PixOffset(x, y)+3] != 0 {
				r = r.Union(image.Rect(x, y, x+1, y+1))
			}
		}
	}
	out := image.NewRGBA(r)
	draw.Draw(out, r, m, r.Min, draw.Src)
	return out
}

func (k *kit) style(c rules.Color) *PieceStyle {
	if c == rules.White {
		return &k.th.White
	}
	return &k.th.Black
}

func (k *kit) makeSprites() {
	k.makeTowerSprites()

	sq := float64(k.sq)
	dc := gg.NewContext(k.sq, k.sq)
	dc.DrawCircle(sq/2, sq/2, sq*0.15)
	dc.SetColor(k.th.Target)
	dc.FillPreserve()
	dc.SetColor(k.th.TargetEdge)
	dc.SetLineWidth(k.lw * 1.3)
	dc.Stroke()
	k.dot = crop(dc)

	dc = gg.NewContext(k.sq, k.sq)
	w := math.Max(2, math.Round(sq*0.06))
	dc.DrawRectangle(w/2+1, w/2+1, sq-w-2, sq-w-2)
	dc.SetColor(k.th.TargetEdge)
	dc.SetLineWidth(w + 2)
	dc.Stroke()
	dc.DrawRectangle(w/2+1, w/2+1, sq-w-2, sq-w-2)
	dc.SetColor(k.th.Target)
	dc.SetLineWidth(w)
	dc.Stroke()
	k.ring = crop(dc)

	dc = gg.NewContext(k.sq, k.sq)
	c, r := sq*0.13, sq*0.07
	dc.SetLineCapRound()
	for _, lw := range []float64{k.lw * 3.2, k.lw * 1.6} {
		dc.DrawLine(c-r, c-r, c+r, c+r)
		dc.DrawLine(c-r, c+r, c+r, c-r)
		dc.SetLineWidth(lw)
		if lw > k.lw*2 {
			dc.SetColor(k.th.White.Face)
		} else {
			dc.SetColor(k.th.White.Outline)
		}
		dc.Stroke()
	}
	k.cross = crop(dc)
}

// boardRGBA draws the empty board with its coordinates, seen from side c.
func (k *kit) boardRGBA(c rules.Color, bold *truetype.Font) *image.RGBA {
	m := image.NewRGBA(image.Rect(0, 0, k.size, k.size))
	draw.Draw(m, m.Rect, image.NewUniform(k.th.Frame), image.Point{}, draw.Src)
	for row := range 8 {
		for col := range 8 {
			c := k.th.Dark
			if (row+col)%2 == 0 {
				c = k.th.Light
			}
			x, y := k.marg+col*k.sq, k.bord+row*k.sq
			draw.Draw(m, image.Rect(x, y, x+k.sq, y+k.sq), image.NewUniform(c), image.Point{}, draw.Src)
		}
	}
	dc := gg.NewContextForRGBA(m)
	sq := float64(k.sq)
	face := truetype.NewFace(bold, &truetype.Options{Size: math.Round(float64(k.marg) * 0.5)})
	defer face.Close()
	dc.SetFontFace(face)
	dc.SetColor(k.th.Coord)
	for i := range 8 {
		file, rank := i, 7-i // screen column i, screen row i
		if c == rules.Black {
			file, rank = 7-i, i
		}
		x := float64(k.marg) + (float64(i)+0.5)*sq
		dc.DrawStringAnchored(string(rune('a'+file)), x, float64(k.size)-float64(k.marg)/2, 0.5, 0.35)
		y := float64(k.bord) + (float64(i)+0.5)*sq
		dc.DrawStringAnchored(string(rune('1'+rank)), float64(k.marg)/2, y, 0.5, 0.35)
	}
	return dc.Image().(*image.RGBA)
}

// calibrate draws, in RGBA, one of each thing the renderer composes, so the
// palette is made for what will really be drawn.
func (k *kit) calibrate(h histogram) {
	t := image.NewRGBA(image.Rect(0, 0, k.sq, k.sq))
	var samples []rules.Tower
	pieces := []rules.Piece{rules.WhiteMan, rules.BlackMan, rules.WhiteKing, rules.BlackKing}
	for _, top := range pieces {
		for n := 1; n <= k.maxN+1; n++ {
			ps := []rules.Piece{top}
			for i := 1; i < n; i++ {
				c := top.Color()
				if i > n/2 {
					c = c.Opponent()
				}
				p := rules.Piece(c)
				if i%3 == 1 {
					p = p.Crowned()
				}
				ps = append(ps, p)
			}
			tw, _ := rules.NewTower(ps...)
			samples = append(samples, tw)
		}
	}
	for bg := range numBG {
		for i, tw := range samples {
			if bg != bgDark && i%3 != 0 {
				continue
			}
			k.composeTile(t, tw, sqMark{bg: bgKind(bg), jumped: bg == bgJumped, leg: uint8(i % 12)})
			h.add(t)
		}
		k.composeTile(t, 0, sqMark{bg: bgKind(bg), jumped: bg == bgJumped, target: true})
		h.add(t)
		k.composeTile(t, samples[2], sqMark{bg: bgKind(bg), target: true, leg: 10})
		h.add(t)
	}
	strip := image.NewRGBA(image.Rect(0, 0, k.size, k.capH))
	k.drawCaption(strip, "12. c3:e5:g7:e3 … 13… h8-a1 0123456789 x")
	h.add(strip)
}
