package render

import (
	"bytes"
	"fmt"
	"image"
	"image/gif"
	"math/bits"

	"github.com/bashni/bashni/rules"
)

// Replay timing, in hundredths of a second.
const (
	frameDelay = 100
	firstDelay = 150
	lastDelay  = 400
)

// ReplayGIF animates a game: the start position, then one frame per move
// with the move highlighted and written under the board ("12. c3:e5:c7",
// "12… f6-g5"), the last frame held longer. Each move must be legal in turn.
// Frames after the first carry only what changed (unchanged pixels are
// transparent), which keeps the file small and the encoding fast. Of the
// options only Perspective, Size and Theme apply.
func (r *Renderer) ReplayGIF(start rules.Position, moves []rules.Move, o Options) ([]byte, error) {
	o = Options{Perspective: o.Perspective, Size: o.Size, Theme: o.Theme}
	if err := o.normalize(); err != nil {
		return nil, err
	}
	k := r.kit(o.Theme, o.Size)
	persp := o.Perspective

	// Check the whole game first: a bad move should cost nothing.
	p := start
	legal := make([]rules.Move, 0, 64)
	for i, mv := range moves {
		legal = p.LegalMoves(legal[:0])
		ok := false
		for _, l := range legal {
			if l == mv {
				ok = true
				break
			}
		}
		if !ok {
			return nil, fmt.Errorf("render: replay move %d, %v, is not legal in %v: %w", i+1, mv, p, rules.ErrIllegalMove)
		}
		p = p.Play(mv)
	}

	w, h := k.size, k.size+k.capH
	bounds := image.Rect(0, 0, w, h)
	prev := image.NewPaletted(bounds, k.gifPal)
	cur := image.NewPaletted(bounds, k.gifPal)
	tile := image.NewRGBA(image.Rect(0, 0, k.sq, k.sq))
	strip := image.NewRGBA(image.Rect(0, k.size, w, h))

	anim := &gif.GIF{
		Image:    make([]*image.Paletted, 0, len(moves)+1),
		Delay:    make([]int, 0, len(moves)+1),
		Disposal: make([]byte, 0, len(moves)+1),
		Config:   image.Config{ColorModel: k.gifPal, Width: w, Height: h},
	}
	add := func(m *image.Paletted, delay int) {
		anim.Image = append(anim.Image, m)
		anim.Delay = append(anim.Delay, delay)
		anim.Disposal = append(anim.Disposal, gif.DisposalNone)
	}

	p = start
	var m marks
	k.drawBoard(cur, tile, &p, &m, persp)
	k.drawCaption(strip, "")
	k.lut.quantize(cur, strip.Rect.Min, strip)
	first := image.NewPaletted(bounds, k.gifPal)
	copy(first.Pix, cur.Pix)
	add(first, firstDelay)

	side := start.SideToMove()
	var regions []image.Rectangle
	for i, mv := range moves {
		prev, cur = cur, prev
		copy(cur.Pix, prev.Pix)
		next := p.Play(mv)
		nm := marksFor(&Options{LastMove: &mv})
		set := m.any | nm.any
		for s := rules.Square(0); s < rules.NumSquares; s++ {
			if p.Tower(s) != next.Tower(s) {
				set |= 1 << s
			}
		}
		p, m = next, nm
		k.drawSquares(cur, tile, &p, &m, persp, set)
		k.drawCaption(strip, caption(i, side, mv))
		k.lut.quantize(cur, strip.Rect.Min, strip)

		regions = append(regions[:0], strip.Rect)
		for set != 0 {
			s := rules.Square(bits.TrailingZeros32(set))
			set &= set - 1
			o := k.origin(s, persp)
			regions = append(regions, image.Rect(o.X, o.Y, o.X+k.sq, o.Y+k.sq))
		}
		delay := frameDelay
		if i == len(moves)-1 {
			delay = lastDelay
		}
		add(delta(prev, cur, regions), delay)
	}

	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, anim); err != nil {
		return nil, fmt.Errorf("render: encoding gif: %w", err)
	}
	return buf.Bytes(), nil
}

// caption is the text under the frame of ply i: the move number, a dot for
// White or an ellipsis for Black, and the move.
func caption(i int, first rules.Color, mv rules.Move) string {
	n := 1 + (i+int(first))/2
	if (i+int(first))%2 == 0 {
		return fmt.Sprintf("%d. %v", n, mv)
	}
	return fmt.Sprintf("%d%c %v", n, ellipsis, mv)
}

// delta returns what changed from prev to cur, knowing that only the
// pixels inside regions may have: a frame cropped to the changed pixels,
// with the unchanged ones transparent.
func delta(prev, cur *image.Paletted, regions []image.Rectangle) *image.Paletted {
	box := image.Rectangle{}
	for _, r := range regions {
		for y := r.Min.Y; y < r.Max.Y; y++ {
			i := cur.PixOffset(r.Min.X, y)
			a, b := prev.Pix[i:i+r.Dx()], cur.Pix[i:i+r.Dx()]
			lo := 0
			for lo < len(b) && a[lo] == b[lo] {
				lo++
			}
			if lo == len(b) {
				continue
			}
			hi := len(b) - 1
			for a[hi] == b[hi] {
				hi--
			}
			box = box.Union(image.Rect(r.Min.X+lo, y, r.Min.X+hi+1, y+1))
		}
	}
	if box.Empty() {
		box = image.Rect(0, 0, 1, 1)
	}
	out := image.NewPaletted(box, cur.Palette)
	for i := range out.Pix {
		out.Pix[i] = transpIdx
	}
	for _, r := range regions {
		r = r.Intersect(box)
		for y := r.Min.Y; y < r.Max.Y; y++ {
			i := cur.PixOffset(r.Min.X, y)
			a, b := prev.Pix[i:i+r.Dx()], cur.Pix[i:i+r.Dx()]
			o := out.Pix[out.PixOffset(r.Min.X, y):][:r.Dx()]
			for x := range b {
				if a[x] != b[x] {
					o[x] = b[x]
				}
			}
		}
	}
	return out
}
