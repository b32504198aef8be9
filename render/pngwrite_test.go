package render

import (
	"bytes"
	"fmt"
	"hash/adler32"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"testing"

	"github.com/bashni/bashni/rules"
)

// TestPNGIsImage: the PNG decodes, with the standard decoder (which checks
// the chunk CRCs and the zlib checksum), to exactly the indices and palette
// of Image for the same position and options.
func TestPNGIsImage(t *testing.T) {
	capPos := rules.MustParsePosition(captureText)
	capMove := longestCapture(t, capPos)
	start := rules.Start(rules.Bashni)
	sel := sq(t, "c3")
	type pos struct {
		name string
		p    rules.Position
		o    Options
	}
	positions := []pos{
		{"start", start, Options{}},
		{"tall", rules.MustParsePosition(tallText), Options{}},
		{"highest", rules.MustParsePosition(highestText), Options{}},
		{"capture", capPos.Play(capMove), Options{LastMove: &capMove}},
		{"picker", start, Options{Selected: &sel, Targets: []rules.Square{sq(t, "b4"), sq(t, "d4")}}},
	}
	sizes := []int{MinSize, 333, DefaultSize, MaxSize}
	if testing.Short() || raceEnabled {
		// Preparing the largest size takes seconds under -race, and checks
		// nothing the other sizes do not.
		sizes = sizes[:3]
	}
	r := shared
	for _, size := range sizes {
		for _, th := range []Theme{Classic(), Contrast()} {
			for _, persp := range []rules.Color{rules.White, rules.Black} {
				for _, c := range positions {
					o := c.o
					o.Size, o.Theme, o.Perspective = size, th, persp
					name := fmt.Sprintf("%s/%d/%s/%v", c.name, size, th.Name, persp)
					want, err := r.Image(c.p, o)
					if err != nil {
						t.Fatal(err)
					}
					b, err := r.PNG(c.p, o)
					if err != nil {
						t.Fatal(err)
					}
					m, err := png.Decode(bytes.NewReader(b))
					if err != nil {
						t.Fatalf("%s: decoding: %v", name, err)
					}
					got, ok := m.(*image.Paletted)
					if !ok {
						t.Fatalf("%s: decoded a %T, want *image.Paletted", name, m)
					}
					if msg := samePaletted(got, want); msg != "" {
						t.Errorf("%s: %s", name, msg)
					}
				}
			}
		}
	}
}

// samePaletted says how two paletted images differ, or "" if they have the
// same bounds, palette colours and indices.
func samePaletted(got, want *image.Paletted) string {
	if got.Rect != want.Rect {
		return fmt.Sprintf("bounds %v, want %v", got.Rect, want.Rect)
	}
	if len(got.Palette) != len(want.Palette) {
		return fmt.Sprintf("%d palette entries, want %d", len(got.Palette), len(want.Palette))
	}
	for i := range got.Palette {
		r1, g1, b1, a1 := got.Palette[i].RGBA()
		r2, g2, b2, a2 := want.Palette[i].RGBA()
		if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
			return fmt.Sprintf("palette entry %d is %v, want %v", i, got.Palette[i], want.Palette[i])
		}
	}
	w := got.Rect.Dx()
	for y := range got.Rect.Dy() {
		g := got.Pix[y*got.Stride : y*got.Stride+w]
		e := want.Pix[y*want.Stride : y*want.Stride+w]
		if !bytes.Equal(g, e) {
			for x := range g {
				if g[x] != e[x] {
					return fmt.Sprintf("pixel %d,%d is index %d, want %d", x, y, g[x], e[x])
				}
			}
		}
	}
	return ""
}

// TestWritePNG encodes images other than boards: odd sizes, one row or
// column, a short palette, and translucent entries, which need a tRNS
// chunk (and only then get one).
func TestWritePNG(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		w, h, n     int
		translucent bool
		random      bool
	}{
		{1, 1, 1, false, false},
		{1, 7, 2, true, true},
		{7, 1, 3, false, true},
		{33, 17, 16, true, true},
		{300, 200, 256, false, true},
		{300, 200, 256, true, false},
		{1000, 700, 255, false, true}, // over 64 KB of scanlines, incompressible
	} {
		name := fmt.Sprintf("%dx%d_%d_%v", tc.w, tc.h, tc.n, tc.translucent)
		pal := make(color.Palette, tc.n)
		for i := range pal {
			c := color.NRGBA{uint8(i), uint8(3 * i), uint8(255 - i), 0xff}
			if tc.translucent && i%5 == 1 {
				c.A = uint8(i * 7)
			}
			pal[i] = c
		}
		m, scan := newScanImage(tc.w, tc.h, pal)
		for y := range tc.h {
			for x := range tc.w {
				i := uint8((x*7 + y*3) % tc.n)
				if tc.random {
					i = uint8(rnd.IntN(tc.n))
				}
				m.SetColorIndex(x, y, i)
			}
		}
		for y := range tc.h {
			if scan[y*(tc.w+1)] != 0 {
				t.Fatalf("%s: drawing changed the filter byte of row %d", name, y)
			}
		}
		head, err := pngHead(tc.w, tc.h, pal)
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		if err := writePNG(&out, head, scan); err != nil {
			t.Fatal(err)
		}
		b := out.Bytes()
		if hasTRNS := bytes.Contains(b, []byte("tRNS")); hasTRNS != tc.translucent {
			t.Errorf("%s: tRNS chunk %v, want %v", name, hasTRNS, tc.translucent)
		}
		d, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			t.Fatalf("%s: decoding: %v", name, err)
		}
		got, ok := d.(*image.Paletted)
		if !ok {
			t.Fatalf("%s: decoded a %T, want *image.Paletted", name, d)
		}
		// The decoder lists every entry of PLTE.
		if msg := samePaletted(got, m); msg != "" {
			t.Errorf("%s: %s", name, msg)
		}
	}
}

func TestPNGHeadErrors(t *testing.T) {
	pal := color.Palette{color.Black}
	for _, tc := range []struct {
		w, h int
		pal  color.Palette
	}{
		{0, 1, pal}, {1, 0, pal}, {1, 1, nil}, {1, 1, make(color.Palette, 257)},
	} {
		if _, err := pngHead(tc.w, tc.h, tc.pal); err == nil {
			t.Errorf("pngHead(%d, %d, %d colours) gave no error", tc.w, tc.h, len(tc.pal))
		}
	}
}

func TestAdler32(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 15, 16, 17, 31, 5552, 64<<10 - 1, 64 << 10, 64<<10 + 17, 641 * 640, 4 << 20} {
		// All 0xff is the worst case for overflow.
		for _, fill := range []int{-1, 0, 0xff} {
			p := make([]byte, n)
			for i := range p {
				if fill < 0 {
					p[i] = byte(rnd.Uint32())
				} else {
					p[i] = byte(fill)
				}
			}
			if got, want := adler32Sum(p), adler32.Checksum(p); got != want {
				t.Errorf("%d bytes of %d: %08x, want %08x", n, fill, got, want)
			}
		}
	}
}

func BenchmarkAdler32(b *testing.B) {
	p := make([]byte, (DefaultSize+1)*DefaultSize)
	for i := range p {
		p[i] = byte(i * 7 / 13)
	}
	b.SetBytes(int64(len(p)))
	for b.Loop() {
		adler32Sum(p)
	}
}
