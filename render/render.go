package render

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"sync"

	"github.com/bashni/bashni/rules"
	"github.com/golang/freetype/truetype"
	"golang.org/x/image/font/gofont/gobold"
)

// Sizes of the board image in pixels.
const (
	DefaultSize = 640
	MinSize     = 160
	MaxSize     = 2048
)

// Options say how to draw one board. The zero value is a 640-pixel board in
// the classic theme seen from White's side, with nothing highlighted.
type Options struct {
	// Perspective is the side at the bottom of the image.
	Perspective rules.Color
	// Size is the width and height of the board image in pixels, between
	// MinSize and MaxSize; 0 means DefaultSize. A replay adds a caption
	// strip under the board.
	Size int
	// Theme is the colour set; the zero Theme means Classic.
	Theme Theme
	// LastMove, if set, highlights the move's start square, its intermediate
	// landing squares, its end square and the squares of the towers it
	// jumped (these also get a small cross).
	LastMove *rules.Move
	// Selected, if set, highlights that square: the tower a player picked.
	Selected *rules.Square
	// Targets get a marker each: a dot on an empty square, a frame around a
	// tower. The bot's move picker shows the picked tower's destinations.
	Targets []rules.Square
	// Caption, if set, is a line of text in a strip under the board (the
	// image grows by the strip): "Game over · 1-0" on a final board, which
	// may be shared far from its card. ASCII and Russian letters.
	Caption string
}

func (o *Options) normalize() error {
	if o.Size == 0 {
		o.Size = DefaultSize
	}
	if o.Size < MinSize || o.Size > MaxSize {
		return fmt.Errorf("render: size %d px is out of range %d..%d", o.Size, MinSize, MaxSize)
	}
	if o.Theme == (Theme{}) {
		o.Theme = Classic()
	}
	if err := o.Theme.check(); err != nil {
		return err
	}
	if o.Perspective != rules.White && o.Perspective != rules.Black {
		return fmt.Errorf("render: perspective %d is neither White nor Black", o.Perspective)
	}
	if o.Selected != nil && *o.Selected >= rules.NumSquares {
		return fmt.Errorf("render: selected square %d is off the board", *o.Selected)
	}
	for _, s := range o.Targets {
		if s >= rules.NumSquares {
			return fmt.Errorf("render: target square %d is off the board", s)
		}
	}
	if m := o.LastMove; m != nil {
		for i := range m.Len() {
			if m.Landing(i) >= rules.NumSquares || (m.IsCapture() && m.Jumped(i) >= rules.NumSquares) {
				return fmt.Errorf("render: last move %v leaves the board", m)
			}
		}
		if m.Len() > 0 && m.From() >= rules.NumSquares {
			return fmt.Errorf("render: last move %v leaves the board", m)
		}
	}
	return nil
}

// maxKits bounds the prepared theme-and-size sets a Renderer keeps (about a
// megabyte each at 640 px); the oldest goes first.
const maxKits = 8

// Renderer draws boards. Make one with New and share it: it is safe for
// concurrent use. It keeps, per theme and size, the tiles it prepared the
// first time (tens of milliseconds), so later boards take a few
// milliseconds.
type Renderer struct {
	bold *truetype.Font

	mu    sync.Mutex
	kits  map[kitKey]*kitSlot
	order []kitKey

	// encoders hold the compressor's state between boards: most of a PNG
	// encode's allocation.
	encoders pngBuffers
}

type kitKey struct {
	theme Theme
	size  int
}

type kitSlot struct {
	once sync.Once
	k    *kit
}

// New returns a Renderer. It parses the embedded Go Bold font once.
func New() *Renderer {
	f, err := truetype.Parse(gobold.TTF)
	if err != nil {
		panic("render: the embedded Go font does not parse: " + err.Error())
	}
	return &Renderer{bold: f, kits: make(map[kitKey]*kitSlot)}
}

func (r *Renderer) kit(th Theme, size int) *kit {
	key := kitKey{th, size}
	r.mu.Lock()
	slot := r.kits[key]
	if slot == nil {
		slot = new(kitSlot)
		r.kits[key] = slot
		r.order = append(r.order, key)
		if len(r.order) > maxKits {
			delete(r.kits, r.order[0])
			r.order = r.order[1:]
		}
	}
	r.mu.Unlock()
	slot.once.Do(func() { slot.k = newKit(th, size, r.bold) })
	return slot.k
}

// Image draws the position as an 8-bit paletted image of o.Size pixels
// square (taller by a strip with a Caption). The image is the caller's.
func (r *Renderer) Image(p rules.Position, o Options) (*image.Paletted, error) {
	if err := o.normalize(); err != nil {
		return nil, err
	}
	k := r.kit(o.Theme, o.Size)
	sc := k.scratch.Get().(*scratch)
	defer k.scratch.Put(sc)
	h := k.size
	if o.Caption != "" {
		h += k.capH
	}
	// The palette is copied: the image is the caller's to change.
	dst := image.NewPaletted(image.Rect(0, 0, k.size, h), append(color.Palette(nil), k.pal...))
	m := marksFor(&o)
	k.drawBoard(dst, sc.tile, &p, &m, o.Perspective)
	if o.Caption != "" {
		strip := image.NewRGBA(image.Rect(0, k.size, k.size, h))
		k.drawCaption(strip, o.Caption)
		k.lut.quantize(dst, strip.Rect.Min, strip)
	}
	return dst, nil
}

// PNG draws the position and encodes it as a PNG with the standard
// library's fastest compression. The image is 8-bit paletted (see
// palette.go), which keeps both the encode (about 2 ms at 640 px) and the
// file (about 25 KB) small.
func (r *Renderer) PNG(p rules.Position, o Options) ([]byte, error) {
	img, err := r.Image(p, o)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed, BufferPool: &r.encoders}
	if err := enc.Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("render: encode PNG: %w", err)
	}
	return buf.Bytes(), nil
}

// pngBuffers lends png.Encoder its buffers between boards.
type pngBuffers struct{ pool sync.Pool }

func (b *pngBuffers) Get() *png.EncoderBuffer {
	if e, ok := b.pool.Get().(*png.EncoderBuffer); ok {
		return e
	}
	return nil
}

func (b *pngBuffers) Put(e *png.EncoderBuffer) { b.pool.Put(e) }
