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
	m, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	sb := m.Bounds()
	h := sb.Dy() * phoneWidth / sb.Dx()
	dst := image.NewRGBA(image.Rect(0, 0, phoneWidth, h))
	xdraw.CatmullRom.Scale(dst, dst.Rect, m, sb, xdraw.Src, nil)
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

// classifier assigns a pixel to the piece colour or king mark it is
// close to: within a third of the way from that colour to the seam, so a
// row that is half seam counts as a seam.
type classifier struct {
	refs []struct {
		c   [3]float64
		tol float64
		k   cls
	}
}

func newClassifier(th Theme) *classifier {
	cl := &classifier{}
	add := func(c color.RGBA, k cls) {
		v := [3]float64{float64(c.R), float64(c.G), float64(c.B)}
		tol := dist(v, [3]float64{float64(th.Seam.R), float64(th.Seam.G), float64(th.Seam.B)}) / 3
		cl.refs = append(cl.refs, struct {
			c   [3]float64
			tol float64
			k   cls
		}{v, tol, k})
	}
	add(th.White.Side, clsWhite)
	add(th.White.Face, clsWhite)
	add(th.Black.Side, clsBlack)
	add(th.Black.Face, clsBlack)
	add(th.Crown, clsKing)
	return cl
}

func dist(a, b [3]float64) float64 {
	return math.Sqrt((a[0]-b[0])*(a[0]-b[0]) + (a[1]-b[1])*(a[1]-b[1]) + (a[2]-b[2])*(a[2]-b[2]))
}

func (cl *classifier) of(c color.RGBA) cls {
	v := [3]float64{float64(c.R), float64(c.G), float64(c.B)}
	best, bd := clsOther, math.Inf(1)
	for _, r := range cl.refs {
		if d := dist(v, r.c); d <= r.tol && d < bd {
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

// runsOf finds the runs of two rows or more: one row is a hairline (an
// outline, a blend), which the eye takes for an edge, not a piece.
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
	return slices.DeleteFunc(out, func(r run) bool { return r.b == r.a })
}

// readTower reads the tower on the square whose top-left corner is at
// (x0, y0) and side s, in phone pixels, top piece first. It returns nil
// for an empty square.
func readTower(m *image.RGBA, cl *classifier, x0, y0, s float64) []rules.Piece {
	ya, yb := int(math.Ceil(y0+1)), int(math.Floor(y0+s-1))
	column := func(x float64) []cls {
		xi := int(math.Round(x))
		col := make([]cls, 0, yb-ya)
		for y := ya; y < yb; y++ {
			col = append(col, cl.of(rgbaAt(m, image.Pt(xi, y))))
		}
		return col
	}
	side, axis := column(x0+s/2-0.30*s), column(x0+s/2)
	runs := runsOf(side, ya)
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
	for _, c := range phoneCases(t) {
		t.Run(c.name, func(t *testing.T) {
			b, err := shared.PNG(c.pos, c.opt)
			if err != nil {
				t.Fatal(err)
			}
			m := toPhone(t, b)
			writeDocsPicture(t, c, m)
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
					want = want[:len(got)]
					if len(got) < 3 {
						t.Errorf("%v: of a tower of %d, %d pieces read, want its top ones", s, h, len(got))
					}
				}
				if !slices.Equal(got, want) {
					t.Errorf("%v: read %s, want %s", s, letters(got), letters(want))
				}
			}
		})
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
