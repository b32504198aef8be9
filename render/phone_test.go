package render

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/bashni/bashni/rules"
	xdraw "golang.org/x/image/draw"
)

// phoneWidth is how wide a phone shows the chat's board photo.
const phoneWidth = 340

// towersDocs, if set, is the prefix under docs/towers of the 340-px
// pictures TestTowersReadOnAPhone writes: "before" from the old drawing,
// "after" from this one (docs/playing.md shows them).
var towersDocs = flag.String("towers-docs", "", "write the 340-px pictures of the hard tower positions as docs/towers/PREFIX-*.png")

// hardBoards are the positions a tower drawing must survive at phone size:
// towers of 2 to 12 pieces, owners of both colours, kings at every depth
// from the top (0) to the bottom of an 8-high tower, prisoners kings and
// men, lone pieces beside them. Each is legal: two colour bands a tower, at
// most twelve pieces a colour, no man on its far rank.
var hardBoards = []struct{ name, text string }{
	// 2 to 6 high, a king at each depth 0..5 somewhere.
	{"short", "w:d4wB,f6Bww,b6wWbB,f2bbBwW,h4WwwbBb,c7w,e1B"},
	// 7 and 8 high, with kings inside each block, and 2-high ones of both
	// owners.
	{"seven-eight", "w:d4wwwWbbb,f6bBbbwWww,b6Wb,h4Bw,a7b"},
	// Kings at the bottom (depth 7) and right under the top of 8-high
	// towers, and a tower of kings only.
	{"kings-deep", "b:d4wwwwwwwB,f6BbbbbbbW,b2WWbB,h6BB"},
	// Past 8: the top of each is drawn, the rest counted.
	{"tall", "w:d4wWwwwwBbbbbb,f6bbbbBbwwwwW"},
	{"nine-ten", "b:d4Bbbbbwwww,f6wwwwwWbbbB,b2w,h6b"},
}

// phoneCase is one hard board in one theme and perspective.
type phoneCase struct {
	name string
	pos  rules.Position
	opt  Options
}

func phoneCases(t testing.TB) []phoneCase {
	t.Helper()
	var out []phoneCase
	for _, b := range hardBoards {
		p, err := rules.ParsePosition(b.text)
		if err != nil {
			t.Fatalf("hard board %s: %v", b.name, err)
		}
		for _, th := range []Theme{Classic(), Contrast()} {
			for _, persp := range []rules.Color{rules.White, rules.Black} {
				name := fmt.Sprintf("%s-%s-%v", b.name, th.Name, persp)
				out = append(out, phoneCase{name, p, Options{Theme: th, Perspective: persp}})
			}
		}
	}
	return out
}

// toPhone decodes a board PNG as Telegram's client gets it and scales it
// to a phone's width with a standard filter, as the phone does.
func toPhone(t testing.TB, b []byte) *image.RGBA {
	t.Helper()
	return toPhoneWith(t, b, xdraw.CatmullRom)
}

func toPhoneWith(t testing.TB, b []byte, filter xdraw.Scaler) *image.RGBA {
	t.Helper()
	m, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	sb := m.Bounds()
	h := sb.Dy() * phoneWidth / sb.Dx()
	dst := image.NewRGBA(image.Rect(0, 0, phoneWidth, h))
	filter.Scale(dst, dst.Rect, m, sb, xdraw.Src, nil)
	return dst
}

// writeDocsPicture saves a phone-sized picture for docs/towers, for the
// pictures shown to players in docs/playing.md: one theme per perspective
// is enough to look at.
func writeDocsPicture(t *testing.T, c phoneCase, m *image.RGBA) {
	t.Helper()
	if *towersDocs == "" {
		return
	}
	if (c.opt.Theme.Name == "classic") != (c.opt.Perspective == rules.White) {
		return
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, m); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("..", "docs", "towers", *towersDocs+"-"+c.name+".png")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// The decoder below knows the board's geometry (boardGeometry, scaled to
// the phone) and the theme's colours, and reads a square as a player's
// eye does: down a column 30% of a square left of the centre (beside any
// king mark or crown) it finds the face and then one band per piece, each
// in its piece's colour, parted by seams; down the centre it finds which
// of those bands carry the king's colour.

// cls is what one pixel of a scaled board is taken for.
type cls byte

const (
	clsOther cls = iota // a seam, an outline, the square, or a blend
	clsWhite
	clsBlack
	clsKing
)

// classifier takes a pixel for the theme colour nearest to it: a piece
// colour, the king's mark, or something else (a rim, an outline, a
// square); a blend half rim and half piece is nearer the square than
// either, so it parts two pieces as the eye sees it.
type classifier struct {
	refs []ref
}

type ref struct {
	c [3]float64
	k cls
}

func newClassifier(th Theme) *classifier {
	cl := &classifier{}
	add := func(k cls, cs ...color.RGBA) {
		for _, c := range cs {
			cl.refs = append(cl.refs, ref{[3]float64{float64(c.R), float64(c.G), float64(c.B)}, k})
		}
	}
	add(clsWhite, th.White.Side, th.White.Face)
	add(clsBlack, th.Black.Side, th.Black.Face)
	add(clsKing, th.Crown)
	add(clsOther, th.White.Rim, th.Black.Rim, th.White.Outline, th.Black.Outline, th.Dark, th.Light)
	return cl
}

func dist(a, b [3]float64) float64 {
	return math.Sqrt((a[0]-b[0])*(a[0]-b[0]) + (a[1]-b[1])*(a[1]-b[1]) + (a[2]-b[2])*(a[2]-b[2]))
}

func (cl *classifier) of(c color.RGBA) cls {
	v := [3]float64{float64(c.R), float64(c.G), float64(c.B)}
	best, bd := clsOther, math.Inf(1)
	for _, r := range cl.refs {
		if d := dist(v, r.c); d < bd {
			best, bd = r.k, d
		}
	}
	return best
}

// run is a stretch of rows of one class down a column.
type run struct {
	k    cls
	a, b int // first and last row
}

// runsOf finds the runs of rows of one class down a column.
func runsOf(col []cls, y0 int) []run {
	var out []run
	for i, k := range col {
		if k == clsOther {
			continue
		}
		if n := len(out); n > 0 && out[n-1].k == k && out[n-1].b == y0+i-1 {
			out[n-1].b++
			continue
		}
		out = append(out, run{k, y0 + i, y0 + i})
	}
	return out
}

// towerRuns picks the face and the bands out of a column's runs. A run of
// one row is a hairline (an outline, a blend), which the eye takes for an
// edge, not a piece; but the face of a tall tower is flat, so a one-row
// run is its face when a rim (two rows or more) parts it from a band of
// its colour under it, as a face always has.
func towerRuns(all []run) []run {
	long := slices.DeleteFunc(slices.Clone(all), func(r run) bool { return r.b == r.a })
	for _, r := range all {
		i := slices.IndexFunc(long, func(l run) bool { return l.a >= r.a })
		if i < 0 {
			return nil
		}
		if long[i].a == r.a {
			return long[i:]
		}
		if long[i].k == r.k && long[i].a-r.b > 2 {
			return append([]run{r}, long[i:]...)
		}
	}
	return nil
}

// readTower reads the tower on the square whose top-left corner is at
// (x0, y0) and side s, in phone pixels, top piece first. It returns nil
// for an empty square.
func readTower(m *image.RGBA, cl *classifier, x0, y0, s float64) []rules.Piece {
	ya, yb := int(math.Ceil(y0)), int(math.Round(y0+s))
	column := func(x float64) []cls {
		xi := int(math.Round(x))
		col := make([]cls, 0, yb-ya)
		for y := ya; y < yb; y++ {
			col = append(col, cl.of(rgbaAt(m, image.Pt(xi, y))))
		}
		return col
	}
	side, axis := column(x0+s/2-0.30*s), column(x0+s/2)
	runs := towerRuns(runsOf(side, ya))
	if len(runs) < 2 {
		return nil // a face and at least one band make a piece
	}
	bands := runs[1:]
	// The centre column shows the same arcs a little lower: find how much
	// by matching its seams to the side column's.
	lo, hi := bands[0].a-2-ya, bands[len(bands)-1].b+2-ya
	shift, best := 0, -1
	for d := 0; d <= int(s/8); d++ {
		score := 0
		for i := max(0, lo); i <= hi && i+d < len(axis) && i < len(side); i++ {
			if (side[i] == clsOther) == (axis[i+d] == clsOther) {
				score++
			}
		}
		if score > best {
			shift, best = d, score
		}
	}
	var out []rules.Piece
	for _, b := range bands {
		p := rules.WhiteMan
		if b.k == clsBlack {
			p = rules.BlackMan
		}
		if b.k == clsKing {
			return append(out, 0xff) // a king mark beside the axis: unreadable
		}
		kings, others := 0, 0
		for y := b.a + shift; y <= b.b+shift && y-ya < len(axis); y++ {
			switch axis[y-ya] {
			case clsKing:
				kings++
			case clsOther:
			default:
				others++
			}
		}
		if kings > others {
			p = p.Crowned()
		}
		out = append(out, p)
	}
	return out
}

// TestTowersReadOnAPhone renders every hard board in every theme from both
// sides, scales it to 340 px wide as a phone does, and reads every tower
// back from the pixels alone: every piece of a tower of up to 8, top
// first, its colour and whether it is a king; of a taller one, the pieces
// shown and the count of the rest.
func TestTowersReadOnAPhone(t *testing.T) {
	t.Cleanup(func() {
		t.Logf("on the phone: pieces at least %d px apart, parted by at least %.2f:1", phoneFigures.pitch, phoneFigures.contrast)
	})
	for _, c := range phoneCases(t) {
		t.Run(c.name, func(t *testing.T) {
			b, err := shared.PNG(c.pos, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			if len(b) > 40<<10 {
				t.Errorf("the board PNG is %d bytes, want under 40 KB", len(b))
			}
			writeDocsPicture(t, c, toPhone(t, b))
			for _, f := range []struct {
				name   string
				scaler xdraw.Scaler
			}{{"CatmullRom", xdraw.CatmullRom}, {"ApproxBiLinear", xdraw.ApproxBiLinear}} {
				m := toPhoneWith(t, b, f.scaler)
				checkSeams(t, m, c)
				readBoard(t, m, c, f.name)
			}
		})
	}
}

// readBoard reads every square of a phone-sized board and compares it
// with the position.
func readBoard(t *testing.T, m *image.RGBA, c phoneCase, filter string) {
	t.Helper()
	cl := newClassifier(c.opt.Theme)
	marg, side, bord := boardGeometry(DefaultSize)
	scale := float64(m.Rect.Dx()) / float64(DefaultSize)
	for s := range rules.Square(rules.NumSquares) {
		col, row := s.File(), 7-s.Rank()
		if c.opt.Perspective == rules.Black {
			col, row = 7-col, 7-row
		}
		x0 := float64(marg+col*side) * scale
		y0 := float64(bord+row*side) * scale
		got := readTower(m, cl, x0, y0, float64(side)*scale)
		tw := c.pos.Tower(s)
		want := tw.Pieces()
		if h := tw.Height(); h > 8 {
			// A taller tower shows its top pieces, five at least.
			if len(got) < 5 || len(got) > 8 {
				t.Errorf("%s: %v: of a tower of %d, read %s, want its top five or more", filter, s, h, letters(got))
				continue
			}
			want = want[:len(got)]
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: %v: read %s, want %s", filter, s, letters(got), letters(want))
		}
	}
}

func letters(ps []rules.Piece) string {
	b := make([]byte, len(ps))
	for i, p := range ps {
		b[i] = '?'
		if p < 4 {
			b[i] = p.Letter()
		}
	}
	return string(b)
}

// luminance is WCAG 2's relative luminance of an sRGB colour.
func luminance(c color.RGBA) float64 {
	lin := func(v uint8) float64 {
		x := float64(v) / 255
		if x <= 0.04045 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(c.R) + 0.7152*lin(c.G) + 0.0722*lin(c.B)
}

// contrast is WCAG 2's contrast ratio of two colours, 1 to 21.
func contrast(a, b color.RGBA) float64 {
	la, lb := luminance(a), luminance(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// TestTowerColoursContrast: in every theme, every piece's band stands at
// least 3:1 (WCAG) from what parts it from the next piece (its rim), and
// so does a king's mark from the band it sits on; a face from its rim.
func TestTowerColoursContrast(t *testing.T) {
	for _, th := range []Theme{Classic(), Contrast()} {
		for _, pc := range []struct {
			name string
			a, b color.RGBA
		}{
			{"white band / its rim", th.White.Side, th.White.Rim},
			{"black band / its rim", th.Black.Side, th.Black.Rim},
			{"white face / its rim", th.White.Face, th.White.Rim},
			{"black face / its rim", th.Black.Face, th.Black.Rim},
			{"white band / black band", th.White.Side, th.Black.Side},
			{"king mark / white band", th.Crown, th.White.Side},
			{"king mark / black band", th.Crown, th.Black.Side},
		} {
			c := contrast(pc.a, pc.b)
			t.Logf("%s: %s %.2f:1", th.Name, pc.name, c)
			if c < 3 {
				t.Errorf("%s: %s contrast %.2f:1, want at least 3:1", th.Name, pc.name, c)
			}
		}
	}
}

// phoneFigures gather what TestTowersReadOnAPhone measured on the scaled
// boards: the smallest distance between two pieces' tops and the weakest
// contrast between a piece and the seam under it.
var phoneFigures struct {
	sync.Mutex
	pitch    int
	contrast float64
}

// checkSeams measures, down each tower's colour column of the phone
// picture, every piece's height and its contrast with the seam that parts
// it from the next, and wants 3 px and 3:1.
func checkSeams(t *testing.T, m *image.RGBA, c phoneCase) {
	t.Helper()
	cl := newClassifier(c.opt.Theme)
	marg, side, bord := boardGeometry(DefaultSize)
	scale := float64(m.Rect.Dx()) / float64(DefaultSize)
	s := float64(side) * scale
	for sqr := range rules.Square(rules.NumSquares) {
		if c.pos.Tower(sqr).Height() < 2 {
			continue
		}
		col, row := sqr.File(), 7-sqr.Rank()
		if c.opt.Perspective == rules.Black {
			col, row = 7-col, 7-row
		}
		x := int(math.Round(float64(marg+col*side)*scale + s/2 - 0.30*s))
		ya := int(math.Ceil(float64(bord+row*side) * scale))
		yb := int(math.Round(float64(bord+row*side)*scale + s))
		var cols []cls
		for y := ya; y < yb; y++ {
			cols = append(cols, cl.of(rgbaAt(m, image.Pt(x, y))))
		}
		runs := towerRuns(runsOf(cols, ya))
		if len(runs) < 2 {
			continue
		}
		bands := runs[1:]
		for i := 0; i+1 < len(bands); i++ {
			pitch := bands[i+1].a - bands[i].a
			mid := rgbaAt(m, image.Pt(x, (bands[i].a+bands[i].b)/2))
			next := rgbaAt(m, image.Pt(x, (bands[i+1].a+bands[i+1].b)/2))
			// The seam is the row between them farthest from both.
			best := 0.0
			for y := bands[i].b + 1; y < bands[i+1].a; y++ {
				p := rgbaAt(m, image.Pt(x, y))
				best = max(best, min(contrast(p, mid), contrast(p, next)))
			}
			if bands[i].k != bands[i+1].k {
				best = max(best, contrast(mid, next))
			}
			phoneFigures.Lock()
			if phoneFigures.pitch == 0 || pitch < phoneFigures.pitch {
				phoneFigures.pitch = pitch
			}
			if phoneFigures.contrast == 0 || best < phoneFigures.contrast {
				phoneFigures.contrast = best
			}
			phoneFigures.Unlock()
			if pitch < 3 {
				t.Errorf("%v: piece %d is %d px high on the phone, want 3", sqr, i+1, pitch)
			}
			if best < 3 {
				t.Errorf("%v: pieces %d and %d part at %.2f:1 on the phone, want 3:1", sqr, i+1, i+2, best)
			}
		}
	}
}
