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

	// Tower geometry inside a square's tile.
	cx, rx, ry, lw float64
	maxN           int      // most layers drawn piece by piece with no badge (a lone piece only, since every tower of 2+ has one)
	layouts        []layout // by number of layers drawn, 1..maxN
	badged         []layout // towers of 2..tall.n, drawn whole above their badge
	tall           layout   // taller towers: the top of each block above the badge
	badgeY         int      // top of the count badge in the tile
	badgeH         int

	cyl    map[int]*[4]*image.RGBA // cylinder sprites by thickness, then piece
	face   [4]*image.RGBA          // top faces by piece (kings carry the crown)
	shadow *image.RGBA
	dot    *image.RGBA // target marker on an empty square
	ring   *image.RGBA // target marker around a tower
	cross  *image.RGBA // jumped-square mark
	crown  *image.RGBA // small crown for badges
	small  *glyphs     // badge digits
	big    *glyphs     // caption text

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

type layout struct {
	n   int // layers drawn
	d   int // thickness of a layer
	top int // y of the top face's centre in the tile
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

	sq := float64(k.sq)
	k.cx = sq / 2
	k.rx = sq * 0.41
	k.ry = k.rx * 0.55
	k.lw = math.Max(1, sq/46)
	pad := math.Max(1, math.Round(sq*0.035))
	sh := math.Max(1, math.Round(sq*0.03)) // shadow offset
	avail := sq - 2*pad - 2*k.ry - k.lw - sh
	dmax := math.Max(2, math.Round(sq*0.12))
	dmin := math.Max(2, math.Round(sq*0.068))
	k.maxN = max(2, min(8, int(avail/dmin)))
	k.layouts = make([]layout, k.maxN+1)
	for n := 1; n <= k.maxN; n++ {
		d := math.Min(dmax, math.Floor(avail/float64(n)))
		h := 2*k.ry + float64(n)*d + sh
		top := math.Round((sq-h)/2 + k.ry)
		k.layouts[n] = layout{n: n, d: int(d), top: int(top)}
	}
	// Every tower of two or more stands over a badge with its counts, so
	// its height and colours read at a glance even where its layers are a
	// few pixels thick (a phone shows a 640-px board about 360 px wide, after
	// Telegram has recompressed it). The badge is the only place the chat
	// shows a tower's prisoners, so it takes a third of the square: its
	// digits are then about 10 px on the phone, where a quarter gave 7. It
	// sits on the square's lower edge, and has a floor in pixels for small
	// boards.
	k.badgeH = max(13, int(math.Round(sq*0.33)))
	k.badgeY = k.sq - 1 - k.badgeH
	// The layers end where the badge begins, so both blocks' colours show.
	ttop := math.Ceil(pad + k.ry + k.lw/2)
	space := float64(k.badgeY) + k.lw - ttop - k.ry
	tn := max(2, min(k.maxN-1, int(space/(dmin*1.4))))
	td := math.Max(2, math.Min(dmax, math.Floor(space/float64(tn))))
	k.tall = layout{n: tn, d: int(td), top: int(ttop)}
	// A tower that fits is drawn whole, its layers as thick as the space
	// allows, standing on the badge.
	k.badged = make([]layout, tn+1)
	for n := 2; n <= tn; n++ {
		d := math.Max(2, math.Min(dmax, math.Floor(space/float64(n))))
		top := math.Floor(float64(k.badgeY) + k.lw - k.ry - float64(n)*d)
		k.badged[n] = layout{n: n, d: int(d), top: int(math.Max(ttop, top))}
	}

	k.small = newGlyphs(bold, math.Round(float64(k.badgeH)*0.8))
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
		t.White.Outline, t.Black.Outline, t.White.Edge, t.Black.Edge, t.CrownEdge, t.TargetEdge,
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
	ref := float64(k.spriteRef())
	k.cyl = make(map[int]*[4]*image.RGBA)
	ds := []int{k.tall.d}
	for _, l := range k.layouts[1:] {
		ds = append(ds, l.d)
	}
	for _, l := range k.badged[2:] {
		ds = append(ds, l.d)
	}
	for _, d := range ds {
		if k.cyl[d] != nil {
			continue
		}
		var set [4]*image.RGBA
		for p := rules.Piece(0); p < 4; p++ {
			dc := k.canvas()
			k.drawCylinder(dc, p, ref, float64(d))
			set[p] = crop(dc)
		}
		k.cyl[d] = &set
	}
	for p := rules.Piece(0); p < 4; p++ {
		dc := k.canvas()
		k.drawFace(dc, p, ref)
		k.face[p] = crop(dc)
	}

	// Shadow: a few soft ellipses down and to the right of the base.
	dc := k.canvas()
	sh := math.Max(1, math.Round(float64(k.sq)*0.03))
	for i, a := range []float64{0.10, 0.12, 0.16} {
		g := float64(2-i) * sh * 0.6
		dc.DrawEllipse(k.cx+sh*0.8, ref+sh*0.7, k.rx+g, k.ry+g*0.7)
		dc.SetRGBA(0, 0, 0, a)
		dc.Fill()
	}
	k.shadow = crop(dc)

	sq := float64(k.sq)
	dc = gg.NewContext(k.sq, k.sq)
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

	ch := float64(k.small.ascent)
	cw := math.Round(ch * 0.8) // narrow, so two chips with kings fit a square
	dc = gg.NewContext(int(cw)+2, int(ch)+3)
	k.drawCrown(dc, cw/2+1, ch/2+1.5, cw, ch*0.85, k.lw*0.6)
	k.crown = dc.Image().(*image.RGBA)
}

// drawCylinder draws one piece as a short cylinder seen slightly from above
// and the side: its top at (cx, top), its side d pixels deep. In a tower the
// piece above covers all but the side's lower crescent, which is the band a
// player sees. A king's band carries three gold studs.
func (k *kit) drawCylinder(dc *gg.Context, p rules.Piece, top, d float64) {
	st := k.style(p.Color())
	bot := top + d
	dc.NewSubPath()
	dc.DrawEllipticalArc(k.cx, top, k.rx, k.ry, math.Pi, 2*math.Pi)
	dc.DrawEllipticalArc(k.cx, bot, k.rx, k.ry, 0, math.Pi)
	dc.ClosePath()
	dc.SetColor(st.Side)
	dc.FillPreserve()
	dc.SetColor(st.Outline)
	dc.SetLineWidth(k.lw)
	dc.Stroke()
	// A light rim just above the bottom edge tells two layers of one colour
	// apart.
	e := k.lw * 1.2
	dc.DrawEllipticalArc(k.cx, bot-e, k.rx-k.lw*0.9, k.ry, 0.12*math.Pi, 0.88*math.Pi)
	dc.SetColor(st.Edge)
	dc.SetLineWidth(k.lw * 0.9)
	dc.Stroke()
	if p.IsKing() {
		r := math.Max(1.4, d*0.36)
		for _, a := range []float64{0.5 * math.Pi, 0.22 * math.Pi, 0.78 * math.Pi} {
			x := k.cx + (k.rx-r)*math.Cos(a)
			y := top + d*0.5 + k.ry*math.Sin(a) - k.lw*0.4
			dc.DrawCircle(x, y, r)
			dc.SetColor(k.th.Crown)
			dc.FillPreserve()
			dc.SetColor(k.th.CrownEdge)
			dc.SetLineWidth(k.lw * 0.7)
			dc.Stroke()
		}
	}
}

// drawFace draws the top face of a piece: an ellipse with a groove, and a
// crown for a king.
func (k *kit) drawFace(dc *gg.Context, p rules.Piece, y float64) {
	st := k.style(p.Color())
	dc.DrawEllipse(k.cx, y, k.rx, k.ry)
	dc.SetColor(st.Face)
	dc.FillPreserve()
	dc.SetColor(st.Outline)
	dc.SetLineWidth(k.lw)
	dc.Stroke()
	dc.DrawEllipse(k.cx, y, k.rx*0.74, k.ry*0.74)
	dc.SetColor(st.Edge)
	dc.SetLineWidth(k.lw * 0.9)
	dc.Stroke()
	if p.IsKing() {
		w := k.rx * 1.02
		h := k.ry * 1.12
		k.drawCrown(dc, k.cx, y-h*0.04, w, h, k.lw)
	}
}

// drawCrown draws a three-pointed crown of width w and height h centred at
// (x, y).
func (k *kit) drawCrown(dc *gg.Context, x, y, w, h, lw float64) {
	l, r := x-w/2, x+w/2
	t, b := y-h/2, y+h/2
	tipR := w * 0.075
	tt := t + tipR
	dc.NewSubPath()
	dc.MoveTo(l+w*0.1, b)
	dc.LineTo(r-w*0.1, b)
	dc.LineTo(r-tipR, tt+h*0.12)
	dc.LineTo(x+w*0.2, t+h*0.52)
	dc.LineTo(x, tt)
	dc.LineTo(x-w*0.2, t+h*0.52)
	dc.LineTo(l+tipR, tt+h*0.12)
	dc.ClosePath()
	for _, c := range [][2]float64{{l + tipR, tt + h*0.12}, {x, tt}, {r - tipR, tt + h*0.12}} {
		dc.NewSubPath()
		dc.DrawCircle(c[0], c[1], tipR)
	}
	dc.SetColor(k.th.Crown)
	dc.FillPreserve()
	dc.SetColor(k.th.CrownEdge)
	dc.SetLineWidth(lw)
	dc.SetLineJoinRound()
	dc.Stroke()
	dc.DrawLine(l+w*0.14, b-h*0.22, r-w*0.14, b-h*0.22)
	dc.SetLineWidth(lw * 0.8)
	dc.Stroke()
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
