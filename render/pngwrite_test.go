package render

import (
	"bytes"
	"fmt"
	"hash/adler32"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/bashni/bashni/rules"
	"github.com/klauspost/compress/flate"
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
		// The scanlines go in one segment, in segments of random runs of
		// rows, and in one segment a row with empty ones between: any
		// split must make the same image.
		for split := range 3 {
			name := fmt.Sprintf("%s/split%d", name, split)
			segs := splitSegments(t, rnd, scan, tc.w+1, split)
			b, err := appendPNG([]byte("junk before"), head, segs)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(b, []byte("junk before")) {
				t.Fatalf("%s: appendPNG dropped what was in its buffer", name)
			}
			b = b[len("junk before"):]
			if len(b) != pngLen(head, segs) {
				t.Errorf("%s: %d bytes, pngLen said %d", name, len(b), pngLen(head, segs))
			}
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
}

// splitSegments compresses scan, of rows of w bytes, as one segment
// (split 0), as random runs of rows (1), or a row a segment with an empty
// segment before each and at the end (2).
func splitSegments(t *testing.T, rnd *rand.Rand, scan []byte, w, split int) []*segment {
	t.Helper()
	h := len(scan) / w
	var runs [][]byte
	switch split {
	case 0:
		runs = append(runs, scan)
	case 1:
		for y := 0; y < h; {
			n := 1 + rnd.IntN(min(h-y, 1+h/3))
			runs = append(runs, scan[y*w:(y+n)*w])
			y += n
		}
	case 2:
		for y := range h {
			runs = append(runs, nil, scan[y*w:(y+1)*w])
		}
		runs = append(runs, nil)
	}
	var segs []*segment
	for _, r := range runs {
		s, err := compressSegment(r)
		if err != nil {
			t.Fatal(err)
		}
		segs = append(segs, s)
	}
	return segs
}

// TestFinalBlock: the two bytes appendPNG ends the deflate data with are an
// empty final block, what a deflate writer closed with no input writes.
func TestFinalBlock(t *testing.T) {
	var b bytes.Buffer
	fw, err := flate.NewWriter(&b, pngLevel)
	if err != nil {
		t.Fatal(err)
	}
	if err := fw.Close(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(b.Bytes(), finalBlock[:]) {
		t.Errorf("an empty deflate stream is % x, finalBlock % x", b.Bytes(), finalBlock)
	}
	// And a sync flush ends on an empty stored block, byte-aligned.
	s, err := compressSegment([]byte("abcabcabcabcabcabcabc"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasSuffix(s.z, []byte{0, 0, 0xff, 0xff}) {
		t.Errorf("a segment ends % x, want a sync flush's empty stored block", s.z)
	}
}

func TestAdler32Combine(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{0, 1, 2, 100, 65520, 65521, 65522, 200_000, 641 * 640} {
		for _, fill := range []int{-1, 0, 0xff} {
			p := make([]byte, n)
			for i := range p {
				if fill < 0 {
					p[i] = byte(rnd.Uint32())
				} else {
					p[i] = byte(fill)
				}
			}
			want := adler32.Checksum(p)
			for range 20 {
				// Random cut points, sometimes none, sometimes the same
				// twice (an empty piece).
				cuts := []int{0, n}
				for range rnd.IntN(6) {
					cuts = append(cuts, rnd.IntN(n+1))
				}
				slices.Sort(cuts)
				sum := uint32(1)
				for i := 1; i < len(cuts); i++ {
					piece := p[cuts[i-1]:cuts[i]]
					sum = adler32Combine(sum, adler32.Checksum(piece), len(piece))
				}
				if sum != want {
					t.Fatalf("%d bytes of %d cut at %v: %08x, want %08x", n, fill, cuts, sum, want)
				}
			}
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
