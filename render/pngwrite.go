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

// finalBlock ends the deflate data after the segments (RFC 1951 3.2.3):
// an empty last block. Read from the low bit up: BFINAL = 1, BTYPE = 01
// (fixed Huffman codes), then the end-of-block code 256, which is seven
// zero bits in the fixed code; ten bits in all, padded with zeros.
var finalBlock = [2]byte{0x03, 0x00}

// A segment is a run of whole scanlines compressed on its own: deflate data
// from a writer just Reset (so no back-reference reaches before the
// segment's first byte) that ends with a sync flush (an empty stored block,
// so it ends on a byte boundary and with no final block). Segments can
// therefore be laid end to end, in any combination, into one deflate
// stream; appendPNG adds the final block. adler is the Adler-32 of the
// segment's raw bytes and n their number, from which appendPNG combines the
// checksum of the whole without reading the pixels again. A segment is
// never changed once made: the band cache shares them between renders.
type segment struct {
	z     []byte
	adler uint32
	n     int
}

// compressSegment compresses raw, whole scanlines, into a new segment.
func compressSegment(raw []byte) (*segment, error) {
	buf := bufPool.Get().(*bytes.Buffer)
	defer bufPool.Put(buf)
	buf.Reset()
	fw := flatePool.Get().(*flate.Writer)
	defer func() {
		fw.Reset(io.Discard) // do not keep buf alive in the pool
		flatePool.Put(fw)
	}()
	fw.Reset(buf)
	if _, err := fw.Write(raw); err != nil {
		return nil, fmt.Errorf("render: compressing png: %w", err)
	}
	// Flush, not Close: Close would end the stream with a final block.
	if err := fw.Flush(); err != nil {
		return nil, fmt.Errorf("render: compressing png: %w", err)
	}
	return &segment{z: bytes.Clone(buf.Bytes()), adler: adler32Sum(raw), n: len(raw)}, nil
}

var bufPool = sync.Pool{New: func() any { return bytes.NewBuffer(make([]byte, 0, 64<<10)) }}

// pngLen is the length of the PNG appendPNG writes.
func pngLen(head []byte, segs []*segment) int {
	n := len(head) + 8 + len(zlibHeader) + len(finalBlock) + 4 + 4 + len(iend)
	for _, s := range segs {
		n += len(s.z)
	}
	return n
}

// appendPNG appends to b a whole PNG: head (from pngHead), one IDAT chunk
// holding the segments, which together are all the image's scanlines in
// order (from newScanImage, for the same size), and IEND.
//
// The IDAT data is a zlib stream: the header, the segments' deflate data,
// the final block and the Adler-32 of all the scanlines. It is put together
// here rather than by klauspost/compress/zlib because the segments are
// compressed apart (and often long before, see Renderer.PNG), and because
// that package takes the checksum with hash/adler32, which was a quarter of
// the whole cost; adler32Sum below is two to three times as fast
// (BenchmarkAdler32).
func appendPNG(b, head []byte, segs []*segment) ([]byte, error) {
	b = append(b, head...)
	start := len(b)
	b = append(b, 0, 0, 0, 0, 'I', 'D', 'A', 'T') // the length comes later
	b = append(b, zlibHeader[:]...)
	adler := uint32(1) // of no bytes
	for _, s := range segs {
		b = append(b, s.z...)
		adler = adler32Combine(adler, s.adler, s.n)
	}
	b = append(b, finalBlock[:]...)
	b = binary.BigEndian.AppendUint32(b, adler)
	n := len(b) - start - 8
	if n > math.MaxInt32 {
		return nil, errors.New("render: png data over 2 GB")
	}
	binary.BigEndian.PutUint32(b[start:], uint32(n))
	b = binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(b[start+4:]))
	return append(b, iend...), nil
}

// adler32Combine returns the Adler-32 of bytes a followed by bytes b, given
// a1, the Adler-32 of a, a2, that of b, and n2, the length of b: zlib's
// adler32_combine. With s1 and s2 the
// two halves of a checksum (see adler32Sum), b's bytes run on from a's s1
// instead of 1, which adds a1's s1 − 1 to each of b's n2 sums s1:
//
//	s1 = s1(a) + s1(b) − 1
//	s2 = s2(a) + s2(b) + n2·(s1(a) − 1)
//
// all modulo 65521.
func adler32Combine(a1, a2 uint32, n2 int) uint32 {
	const mod = 65521
	rem := uint64(n2 % mod)
	s1a, s2a := uint64(a1&0xffff), uint64(a1>>16)
	s1b, s2b := uint64(a2&0xffff), uint64(a2>>16)
	s1 := (s1a + s1b + mod - 1) % mod
	s2 := (s2a + s2b + rem*s1a + mod - rem) % mod
	return uint32(s2<<16 | s1)
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
