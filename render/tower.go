package render

import (
	"image"
	"image/draw"
	"math"

	"github.com/bashni/bashni/rules"
	"github.com/fogleman/gg"
)

// A tower is drawn as its column seen a little from above: the top piece's
// face, then one band per piece, top first, each in its piece's colour,
// parted from the next by the piece's rim (dark under a light piece, light
// under a dark one, so two pieces of one colour read as two); a king's
// band carries a patch of the crown colour in its middle. A phone
// shows the chat's 640-px board about 340 px wide, so a band is kept at
// least 7 px (3.7 px there) high: up to 8 pieces stand whole in a square,
// the face flattening as the tower grows, and a taller tower shows its top
// pieces over chips with the counts of the rest, one a colour.

// layout is where a tower's pieces go in its tile.
type layout struct {
	n   int     // pieces drawn
	d   int     // height of a piece's band
	ry  float64 // half-height of the top face
	top int     // y of the top face's centre
}

// spriteKey names the sprites of one band height and face.
type spriteKey struct {
	d  int
	ry float64
}

type towerSprites struct {
	band   [2][4]*image.RGBA // by [lowest drawn][piece]: the lowest has the dark rim
	face   [4]*image.RGBA    // by piece; a king's carries the crown
	shadow *image.RGBA
}

// kingHalf is half the width of a king's patch, in face radii; the
// crown is about as wide. The decoder of the phone test reads a band's
// colour beside it, and its king mark on the column's axis.
const kingHalf = 0.4

// towerGeometry lays out towers of every height in a square.
func (k *kit) towerGeometry() {
	sq := float64(k.sq)
	k.cx = sq / 2
	k.rx = sq * 0.41
	k.ryMax = k.rx * 0.55
	k.lw = math.Max(1, sq/46)
	k.seam = math.Max(1, math.Round(sq*0.027))
	// The tallest towers fill the square from edge to edge (their shadow
	// is cut at its foot): every pixel of height goes to the bands.
	pad := math.Round(sq * 0.005)
	avail := sq - 2*pad - k.lw
	ryMin := math.Max(2, math.Round(sq*0.055))
	dmax := math.Max(2, math.Round(sq*0.12))
	dmin := math.Max(2, math.Floor(sq*0.09))
	k.maxN = max(2, min(8, int((avail-2*ryMin)/dmin)))
	k.layouts = make([]layout, k.maxN+1)
	for n := 1; n <= k.maxN; n++ {
		d := math.Max(1, math.Min(dmax, math.Floor((avail-2*ryMin)/float64(n))))
		ry := math.Min(k.ryMax, (avail-float64(n)*d)/2)
		h := 2*ry + float64(n)*d
		top := math.Round(pad + (avail-h)/2 + ry + k.lw/2)
		k.layouts[n] = layout{n: n, d: int(d), ry: ry, top: int(top)}
	}
	// A taller tower keeps the bands of the tallest whole one and gives the
	// room of the lowest to the count of the rest.
	k.chipH = max(10, int(math.Round(sq*0.28)))
	d := float64(k.layouts[k.maxN].d)
	tn := max(1, min(k.maxN-1, int((avail-float64(k.chipH)-2*ryMin)/d)))
	ry := math.Max(1, math.Min(k.ryMax, (avail-float64(k.chipH)-float64(tn)*d)/2))
	k.tall = layout{n: tn, d: int(d), ry: ry, top: int(math.Round(pad + ry + k.lw/2))}
}

func (k *kit) shadowOffset() float64 { return math.Max(1, math.Round(float64(k.sq)*0.03)) }

// layoutOf is the layout of a tower of height h.
func (k *kit) layoutOf(h int) layout {
	if h <= k.maxN {
		return k.layouts[h]
	}
	return k.tall
}

func (k *kit) makeTowerSprites() {
	k.sprites = make(map[spriteKey]*towerSprites)
	for _, l := range append(k.layouts[1:], k.tall) {
		key := spriteKey{l.d, l.ry}
		if k.sprites[key] != nil {
			continue
		}
		ref := float64(k.spriteRef())
		s := new(towerSprites)
		for p := rules.Piece(0); p < 4; p++ {
			for lowest := range 2 {
				dc := k.canvas()
				k.drawBand(dc, p, ref, float64(l.d), l.ry, lowest == 1)
				s.band[lowest][p] = crop(dc)
			}
			dc := k.canvas()
			k.drawFace(dc, p, ref, l.ry)
			s.face[p] = crop(dc)
		}
		// Shadow: a few soft ellipses down and to the right of the base.
		dc := k.canvas()
		sh := k.shadowOffset()
		for i, a := range []float64{0.10, 0.12, 0.16} {
			g := float64(2-i) * sh * 0.6
			dc.DrawEllipse(k.cx+sh*0.8, ref+sh*0.7, k.rx+g, l.ry+g*0.7)
			dc.SetRGBA(0, 0, 0, a)
			dc.Fill()
		}
		s.shadow = crop(dc)
		k.sprites[key] = s
	}
}

// drawBand draws one piece's side: a band d pixels high whose top edge is
// the ellipse at (cx, top) and bottom edge the same one d lower. The piece
// above (or the face) covers all of it but a crescent d high. Its lower
// edge is its rim: the seam to the next piece, or the tower's base.
func (k *kit) drawBand(dc *gg.Context, p rules.Piece, top, d, ry float64, lowest bool) {
	st := k.style(p.Color())
	bot := top + d
	side := func() {
		dc.NewSubPath()
		dc.DrawEllipticalArc(k.cx, top, k.rx, ry, math.Pi, 2*math.Pi)
		dc.DrawEllipticalArc(k.cx, bot, k.rx, ry, 0, math.Pi)
		dc.ClosePath()
	}
	side()
	dc.SetColor(st.Side)
	dc.Fill()
	if p.IsKing() {
		w := k.rx * kingHalf
		dc.DrawRectangle(k.cx-w, 0, 2*w, float64(2*k.sq))
		dc.Clip()
		side()
		dc.SetColor(k.th.Crown)
		dc.Fill()
		dc.ResetClip()
	}
	dc.DrawEllipticalArc(k.cx, bot, k.rx, ry, 0, math.Pi)
	dc.SetColor(st.Rim)
	if lowest {
		// The rim of the base is no piece: not a dark line a phone would
		// show as one more black piece.
		dc.SetLineWidth(k.lw)
	} else {
		dc.SetLineWidth(k.seam)
	}
	dc.Stroke()
	dc.DrawLine(k.cx-k.rx, top, k.cx-k.rx, bot)
	dc.DrawLine(k.cx+k.rx, top, k.cx+k.rx, bot)
	dc.SetColor(st.Outline)
	dc.SetLineWidth(k.lw)
	dc.Stroke()
}

// drawFace draws the top face of a piece: an ellipse with a groove, its
// front rim the seam to its own band, and for a king a crown, or on a
// face too flat for one the crown's colour (the king's band says it too).
func (k *kit) drawFace(dc *gg.Context, p rules.Piece, y, ry float64) {
	st := k.style(p.Color())
	dc.DrawEllipse(k.cx, y, k.rx, ry)
	dc.SetColor(st.Face)
	dc.Fill()
	dc.DrawEllipticalArc(k.cx, y, k.rx, ry, 0, math.Pi)
	dc.SetColor(st.Rim)
	dc.SetLineWidth(k.seam)
	dc.Stroke()
	dc.DrawEllipticalArc(k.cx, y, k.rx, ry, math.Pi, 2*math.Pi)
	dc.SetColor(st.Outline)
	dc.SetLineWidth(k.lw)
	dc.Stroke()
	dc.DrawEllipse(k.cx, y, k.rx*0.55, ry*0.55)
	dc.SetColor(st.Edge)
	dc.SetLineWidth(k.lw * 0.9)
	dc.Stroke()
	if !p.IsKing() {
		return
	}
	if ry < float64(k.sq)*0.12 {
		// Too flat for a crown that reads: the face's middle in the
		// crown's colour, like the king's band under it.
		dc.DrawEllipse(k.cx, y, k.rx*kingHalf*1.2, ry*0.62)
		dc.SetColor(k.th.Crown)
		dc.FillPreserve()
		dc.SetColor(k.th.CrownEdge)
		dc.SetLineWidth(k.lw * 0.6)
		dc.Stroke()
		return
	}
	w := k.rx
	h := math.Min(ry*1.6, math.Max(ry*1.12, float64(k.sq)*0.2))
	k.drawCrown(dc, k.cx, y-h*0.04, w, h, k.lw)
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
}

// drawTower draws tw into its tile: shadow, bands bottom up, face, and
// for a tower taller than maxN the counts of the pieces not drawn.
func (k *kit) drawTower(t *image.RGBA, tw rules.Tower) {
	h := tw.Height()
	l := k.layoutOf(h)
	n := min(h, l.n)
	s := k.sprites[spriteKey{l.d, l.ry}]
	ref := k.spriteRef()
	over(t, s.shadow, 0, l.top+n*l.d-ref)
	for i := n - 1; i >= 0; i-- {
		lowest := 0
		if i == h-1 {
			lowest = 1
		}
		over(t, s.band[lowest][tw.Piece(i)], 0, l.top+i*l.d-ref)
	}
	over(t, s.face[tw.Piece(0)], 0, l.top-ref)
	if h > n {
		k.drawCount(t, tw, n, l.top+n*l.d+int(math.Ceil(l.ry))+1)
	}
}

// drawCount prints the pieces under those drawn, from y down, one chip a
// colour: "+1" on a white chip and "6" on a black one say that one white
// and six black pieces lie under the drawn ones.
func (k *kit) drawCount(t *image.RGBA, tw rules.Tower, from, y int) {
	var n [2]int // by colour, in the order met
	var c [2]rules.Color
	for i, b := from, 0; i < tw.Height(); i++ {
		pc := tw.Piece(i).Color()
		if n[b] > 0 && pc != c[b] {
			b = 1
		}
		c[b] = pc
		n[b]++
	}
	pad := max(2, k.chipH/6)
	plus := k.small.get('+').adv
	w := [2]int{plus + k.numWidth(n[0]) + 2*pad, 0}
	if n[1] > 0 {
		w[1] = k.numWidth(n[1]) + 2*pad
	}
	x := (k.sq - w[0] - w[1]) / 2
	y = min(y, k.sq-k.chipH)
	for i := range 2 {
		if n[i] == 0 {
			continue
		}
		st, ink := k.style(c[i]), k.style(c[i].Opponent()).Face
		r := image.Rect(x, y, x+w[i], y+k.chipH)
		draw.Draw(t, r, image.NewUniform(k.style(c[i]).Rim), image.Point{}, draw.Src)
		draw.Draw(t, r.Inset(1), image.NewUniform(st.Face), image.Point{}, draw.Src)
		dot := image.Pt(x+pad, y+(k.chipH+k.small.ascent)/2)
		if i == 0 {
			g := k.small.get('+')
			draw.DrawMask(t, g.mask.Rect.Add(dot), image.NewUniform(ink), image.Point{}, g.mask, g.mask.Rect.Min, draw.Over)
			dot.X += plus
		}
		k.drawNum(t, n[i], dot, ink)
		x += w[i]
	}
}
