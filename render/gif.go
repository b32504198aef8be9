package render

import (
	"bytes"
	"compress/lzw"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"io"
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
// "12… f6-g5"), the last frame held longer; it loops. Each move must be
// legal in turn. Frames after the first carry only what changed (unchanged
// pixels are transparent), and are encoded as they are drawn, so a long game
// costs no more memory than a short one. Of the options only Perspective,
// Size and Theme apply.
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
	var out bytes.Buffer
	out.Grow(8 << 10 * (len(moves) + 4))
	gw := newGIFWriter(&out, w, h, k.gifPal)

	p = start
	var m marks
	k.drawBoard(cur, tile, &p, &m, persp)
	k.drawCaption(strip, "")
	k.lut.quantize(cur, strip.Rect.Min, strip)
	delay := firstDelay
	if len(moves) == 0 {
		delay = lastDelay
	}
	gw.frame(bounds, cur.Pix, delay)

	side := start.SideToMove()
	var regions []image.Rectangle
	var scratch []byte
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
		var box image.Rectangle
		box, scratch = delta(prev, cur, regions, scratch)
		delay := frameDelay
		if i == len(moves)-1 {
			delay = lastDelay
		}
		gw.frame(box, scratch, delay)
	}
	if err := gw.close(); err != nil {
		return nil, fmt.Errorf("render: encoding gif: %w", err)
	}
	return out.Bytes(), nil
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

// delta finds what changed from prev to cur, knowing that only the pixels
// inside regions may have. It returns the box around the changed pixels and
// that box's pixels, the unchanged ones transparent, in buf.
func delta(prev, cur *image.Paletted, regions []image.Rectangle, buf []byte) (image.Rectangle, []byte) {
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
	n := box.Dx() * box.Dy()
	if cap(buf) < n {
		buf = make([]byte, n)
	}
	buf = buf[:n]
	for i := range buf {
		buf[i] = transpIdx
	}
	for _, r := range regions {
		r = r.Intersect(box)
		for y := r.Min.Y; y < r.Max.Y; y++ {
			i := cur.PixOffset(r.Min.X, y)
			a, b := prev.Pix[i:i+r.Dx()], cur.Pix[i:i+r.Dx()]
			j := (y-box.Min.Y)*box.Dx() + r.Min.X - box.Min.X
			o := buf[j : j+r.Dx()]
			for x := range b {
				if a[x] != b[x] {
					o[x] = b[x]
				}
			}
		}
	}
	return box, buf
}

// gifWriter writes an animated GIF frame by frame (image/gif's EncodeAll
// wants every frame in memory first). All frames share the global palette,
// whose entry transpIdx is transparent, and none is disposed: each frame
// paints over the ones before.
type gifWriter struct {
	w   io.Writer
	err error
	lzw *lzw.Writer
	blk blockWriter
}

func newGIFWriter(w io.Writer, width, height int, pal color.Palette) *gifWriter {
	g := &gifWriter{w: w}
	g.blk.w = g
	var hdr [13 + 3*256 + 19]byte
	b := append(hdr[:0], "GIF89a"...)
	b = binary.LittleEndian.AppendUint16(b, uint16(width))
	b = binary.LittleEndian.AppendUint16(b, uint16(height))
	b = append(b, 0xf7, 0, 0) // a global table of 256 colours, 8 bits each
	for i := range 256 {
		c := color.NRGBA{}
		if i < len(pal) {
			c = color.NRGBAModel.Convert(pal[i]).(color.NRGBA)
		}
		b = append(b, c.R, c.G, c.B)
	}
	// Loop forever.
	b = append(b, 0x21, 0xff, 11)
	b = append(b, "NETSCAPE2.0"...)
	b = append(b, 3, 1, 0, 0, 0)
	g.write(b)
	return g
}

func (g *gifWriter) Write(p []byte) (int, error) {
	if g.err != nil {
		return 0, g.err
	}
	n, err := g.w.Write(p)
	g.err = err
	return n, err
}

func (g *gifWriter) write(p []byte) { _, _ = g.Write(p) }

// frame writes one frame: pix holds r's pixels row by row.
func (g *gifWriter) frame(r image.Rectangle, pix []byte, delay int) {
	var b [32]byte
	// Graphic control: disposal "none" (1<<2), transparent index present.
	h := append(b[:0], 0x21, 0xf9, 4, 1<<2|1)
	h = binary.LittleEndian.AppendUint16(h, uint16(delay))
	h = append(h, transpIdx, 0, 0x2c)
	h = binary.LittleEndian.AppendUint16(h, uint16(r.Min.X))
	h = binary.LittleEndian.AppendUint16(h, uint16(r.Min.Y))
	h = binary.LittleEndian.AppendUint16(h, uint16(r.Dx()))
	h = binary.LittleEndian.AppendUint16(h, uint16(r.Dy()))
	h = append(h, 0, 8) // no local table; LZW minimum code size 8
	g.write(h)
	if g.lzw == nil {
		g.lzw = lzw.NewWriter(&g.blk, lzw.LSB, 8).(*lzw.Writer)
	} else {
		g.lzw.Reset(&g.blk, lzw.LSB, 8)
	}
	if _, err := g.lzw.Write(pix[:r.Dx()*r.Dy()]); err != nil && g.err == nil {
		g.err = err
	}
	if err := g.lzw.Close(); err != nil && g.err == nil {
		g.err = err
	}
	g.blk.flush()
	g.write([]byte{0})
}

func (g *gifWriter) close() error {
	g.write([]byte{0x3b})
	return g.err
}

// blockWriter cuts LZW data into the GIF's sub-blocks of up to 255 bytes,
// each led by its length.
type blockWriter struct {
	w   io.Writer
	buf [256]byte
	n   int
}

func (b *blockWriter) Write(p []byte) (int, error) {
	total := len(p)
	for len(p) > 0 {
		c := copy(b.buf[1+b.n:], p)
		b.n += c
		p = p[c:]
		if b.n == 255 {
			b.flush()
		}
	}
	return total, nil
}

func (b *blockWriter) flush() {
	if b.n == 0 {
		return
	}
	b.buf[0] = byte(b.n)
	_, _ = b.w.Write(b.buf[:1+b.n])
	b.n = 0
}
