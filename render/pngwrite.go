package render

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"io"
	"math"
	"sync"

	"github.com/klauspost/compress/flate"
)

// A small PNG writer for 8-bit paletted images, used instead of image/png
// for one reason: image/png compresses with compress/flate and takes no
// other compressor, and klauspost/compress's fastest deflate is about twice
// as fast on our boards and gives files a quarter smaller. The format written is the
// fixed subset PNG (ISO/IEC 15948, RFC 2083) needs for one such image:
//
//	signature
//	IHDR  width, height, bit depth 8, colour type 3 (indexed), no interlace
//	PLTE  the palette, 3 bytes a colour
//	tRNS  alpha of each entry, only when some entry is not opaque
//	IDAT  the zlib stream of the scanlines
//	IEND
//
// Each chunk is its length (4 bytes, big-endian, of the data only), its
// 4-letter type, its data and the CRC-32 (IEEE) of type and data. A
// scanline is a filter byte then the row's palette indices; the filter is
// always 0 (None), which is what paletted images do best with: the other
// filters predict by arithmetic on the bytes, meaningless for indices.
//
// The tests decode every image with image/png, which checks the chunk
// order, lengths and CRCs and the zlib checksum.

// pngLevel is the deflate level. On 640 px boards (BenchmarkPNG*) level 1,
// which is also klauspost's BestSpeed, is both the fastest and the smallest:
// levels 2 and 3 took 30–50% more CPU and made files 20–25% larger (about
// 15 KB for the start position at level 1, 18.5 KB at 2 and 3).
const pngLevel = flate.BestSpeed

// pngSignature starts every PNG file.
const pngSignature = "\x89PNG\r\n\x1a\n"

// newScanImage returns a w×h paletted image laid out so that its pixels
// are already PNG scanlines: scan holds h rows of a filter byte (0) and the
// row's w indices, and the image's Pix starts at scan[1] with a stride of
// w+1, so that drawing into the image never touches the filter bytes and
// the encoder need not copy a row.
func newScanImage(w, h int, pal color.Palette) (m *image.Paletted, scan []byte) {
	scan = make([]byte, (w+1)*h)
	m = &image.Paletted{
		Pix:     scan[1:],
		Stride:  w + 1,
		Rect:    image.Rect(0, 0, w, h),
		Palette: pal,
	}
	return m, scan
}

// pngHead returns the signature and the IHDR, PLTE and (if any entry is
// translucent) tRNS chunks of a w×h image with palette pal: everything
// before the pixels. It depends only on the size and the palette, so a kit
// makes it once.
func pngHead(w, h int, pal color.Palette) ([]byte, error) {
	if w <= 0 || h <= 0 || w > math.MaxInt32 || h > math.MaxInt32 {
		return nil, fmt.Errorf("render: png of %d×%d px", w, h)
	}
	if len(pal) == 0 || len(pal) > 256 {
		return nil, fmt.Errorf("render: png palette of %d colours, want 1 to 256", len(pal))
	}
	b := make([]byte, 0, len(pngSignature)+3*12+13+4*len(pal))
	b = append(b, pngSignature...)

	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8] = 8 // bit depth: one byte an index
	ihdr[9] = 3 // colour type: indexed
	// ihdr[10:13]: compression 0 (deflate), filter method 0, no interlace.
	b = appendChunk(b, "IHDR", ihdr[:])

	plte := make([]byte, 0, 3*len(pal))
	alpha := make([]byte, 0, len(pal))
	last := -1 // the last translucent entry
	for i, c := range pal {
		// PLTE and tRNS hold straight (not premultiplied) colour.
		n := color.NRGBAModel.Convert(c).(color.NRGBA)
		plte = append(plte, n.R, n.G, n.B)
		alpha = append(alpha, n.A)
		if n.A != 0xff {
			last = i
		}
	}
	b = appendChunk(b, "PLTE", plte)
	if last >= 0 {
		// Entries past the last one listed are opaque.
		b = appendChunk(b, "tRNS", alpha[:last+1])
	}
	return b, nil
}

// appendChunk appends one whole chunk.
func appendChunk(b []byte, typ string, data []byte) []byte {
	start := len(b)
	b = binary.BigEndian.AppendUint32(b, uint32(len(data)))
	b = append(b, typ...)
	b = append(b, data...)
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b[start+4:]))
}

// iend is the IEND chunk: no data, so always the same bytes.
var iend = appendChunk(nil, "IEND", nil)

// flatePool keeps deflate writers (a few hundred kilobytes of tables and
// window each) between images; Reset points one at the next output.
var flatePool = sync.Pool{New: func() any {
	fw, err := flate.NewWriter(io.Discard, pngLevel)
	if err != nil {
		panic("render: " + err.Error()) // pngLevel is a valid level
	}
	return fw
}}

// zlibHeader starts the zlib stream (RFC 1950): deflate with a 32 KB window
// (0x78), no dictionary, "fastest" level, and the check bits that make the
// pair a multiple of 31.
var zlibHeader = [2]byte{0x78, 0x01}

// writePNG writes to out a whole PNG: head (from pngHead), the scanlines in
// scan (from newScanImage, for the same size) compressed as one IDAT chunk,
// and IEND. The compressor writes straight into out; the IDAT's length and
// CRC are filled in after.
//
// The IDAT data is a zlib stream: the header, the deflate data and the
// Adler-32 of scan. It is put together here rather than by
// klauspost/compress/zlib only because that one takes the checksum with
// hash/adler32, which was a quarter of the whole cost; adler32Sum below is
// two to three times as fast (BenchmarkAdler32).
func writePNG(out *bytes.Buffer, head, scan []byte) error {
	out.Write(head)
	start := out.Len()
	out.Write([]byte{0, 0, 0, 0, 'I', 'D', 'A', 'T'}) // the length comes later
	out.Write(zlibHeader[:])

	fw := flatePool.Get().(*flate.Writer)
	defer flatePool.Put(fw)
	fw.Reset(out)
	if _, err := fw.Write(scan); err != nil {
		return fmt.Errorf("render: compressing png: %w", err)
	}
	if err := fw.Close(); err != nil {
		return fmt.Errorf("render: compressing png: %w", err)
	}
	fw.Reset(io.Discard) // do not keep out alive in the pool

	var b [4]byte
	binary.BigEndian.PutUint32(b[:], adler32Sum(scan))
	out.Write(b[:])

	chunk := out.Bytes()[start:]
	n := len(chunk) - 8
	if n > math.MaxInt32 {
		return errors.New("render: png data over 2 GB")
	}
	binary.BigEndian.PutUint32(chunk, uint32(n))
	binary.BigEndian.PutUint32(b[:], crc32.ChecksumIEEE(chunk[4:]))
	out.Write(b[:])
	out.Write(iend)
	return nil
}

// adler32Sum returns the Adler-32 checksum of p (RFC 1950), as
// hash/adler32.Checksum does, but 16 bytes a step instead of one.
//
// Adler-32 is s1 = 1 + the sum of the bytes and s2 = the sum of s1 after
// each byte, both modulo 65521. Over a step of 16 bytes b0..b15 that is
//
//	s2 += 16·s1 + 16·b0 + 15·b1 + … + 1·b15
//	s1 += b0 + b1 + … + b15
//
// The sums are taken in SWAR fashion: each 8-byte word is split into its
// even and odd bytes, four 16-bit lanes each, and one multiply by a constant
// whose 16-bit digits are the weights (or ones) leaves the weighted sum of
// the lanes in the top 16 bits. No lane or digit can carry into the next
// (the largest, the top digit of the weighted sum, is at most 255·136 =
// 34680), so the top 16 bits are exact. s1 and s2 are uint64 and taken
// modulo 65521 once per 64 KB, far before they could overflow.
func adler32Sum(p []byte) uint32 {
	const (
		mod   = 65521
		block = 64 << 10
		lanes = 0x00ff00ff00ff00ff
		ones  = 0x0001000100010001
		// Weights of the lanes, the lowest lane's in the top digit: the
		// even and odd bytes of the first word (16, 14, 12, 10 and 15, 13,
		// 11, 9), then of the second (8, 6, 4, 2 and 7, 5, 3, 1).
		w1e = 0x0010_000e_000c_000a
		w1o = 0x000f_000d_000b_0009
		w2e = 0x0008_0006_0004_0002
		w2o = 0x0007_0005_0003_0001
	)
	s1, s2 := uint64(1), uint64(0)
	for len(p) >= 16 {
		n := min(len(p), block) &^ 15
		blk := p[:n]
		p = p[n:]
		for len(blk) >= 16 {
			x := binary.LittleEndian.Uint64(blk)
			y := binary.LittleEndian.Uint64(blk[8:])
			blk = blk[16:]
			xe, xo := x&lanes, x>>8&lanes
			ye, yo := y&lanes, y>>8&lanes
			s2 += 16*s1 + (xe*w1e+xo*w1o+ye*w2e+yo*w2o)>>48
			s1 += (xe + xo + ye + yo) * ones >> 48
		}
		s1 %= mod
		s2 %= mod
	}
	for _, c := range p {
		s1 += uint64(c)
		s2 += s1
	}
	return uint32(s2%mod)<<16 | uint32(s1%mod)
}
