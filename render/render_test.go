package render

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"strings"
	"sync"
	"testing"

	"github.com/bashni/bashni/rules"
)

// shared is the renderer most tests use, so each theme and size is
// prepared once.
var shared = New()

func sq(t testing.TB, name string) rules.Square {
	t.Helper()
	s, err := rules.ParseSquare(name)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// testKit returns the kit a renderer uses for o, to find squares and faces.
func testKit(t testing.TB, r *Renderer, o Options) *kit {
	t.Helper()
	if err := o.normalize(); err != nil {
		t.Fatal(err)
	}
	return r.kit(o.Theme, o.Size)
}

// box is the pixel rectangle of square s.
func (k *kit) box(s rules.Square, persp rules.Color) image.Rectangle {
	o := k.origin(s, persp)
	return image.Rect(o.X, o.Y, o.X+k.sq, o.Y+k.sq)
}

// faceCentre is where, inside its square, the centre of a tower's top face is.
func (k *kit) faceCentre(tw rules.Tower) image.Point {
	return image.Pt(k.sq/2, k.layoutOf(tw.Height()).top)
}

func rgbaAt(m image.Image, p image.Point) color.RGBA {
	r, g, b, a := m.At(p.X, p.Y).RGBA()
	return color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), uint8(a >> 8)}
}

func mustPNG(t testing.TB, r *Renderer, p rules.Position, o Options) image.Image {
	t.Helper()
	b, err := r.PNG(p, o)
	if err != nil {
		t.Fatal(err)
	}
	return decodePNG(t, b)
}

// mixedTower is a legal tower of height h, top first: the owner's block
// over the prisoners, with a king in each block when king is set.
func mixedTower(owner rules.Color, h int, king bool) string {
	own := (h + 1) / 2 // at most 12 either way for h ≤ 24
	lo, up := "w", "b"
	if owner == rules.Black {
		lo, up = "b", "w"
	}
	s := strings.Repeat(lo, own) + strings.Repeat(up, h-own)
	if king {
		s = strings.ToUpper(s[:1]) + s[1:]
		if h-own > 1 {
			s = s[:h-1] + strings.ToUpper(s[h-1:])
		}
	}
	return s
}

func TestMixedTowerIsLegal(t *testing.T) {
	for h := 1; h <= rules.MaxTowerHeight; h++ {
		for _, king := range []bool{false, true} {
			s := mixedTower(rules.Black, h, king)
			if _, err := rules.ParsePosition("w:d4" + s); err != nil {
				t.Errorf("height %d king %v: %v", h, king, err)
			}
		}
	}
}

// TestTopColourAtSquareCentre checks what a player sees first: the colour of
// a tower's top. A lone piece fills the square's centre (a tower stands on
// its badge, higher up); for every height it is at the top face's centre.
func TestTopColourAtSquareCentre(t *testing.T) {
	r := shared
	for _, th := range []Theme{Classic(), Contrast()} {
		o := Options{Theme: th}
		k := testKit(t, r, o)
		for _, owner := range []rules.Color{rules.White, rules.Black} {
			want := k.style(owner).Face
			var err error
			for _, h := range []int{1, 2, 3, 4, 5, 6, 7, 8, 12, 13, 18, 24} {
				s := mixedTower(owner, h, false)
				p := rules.MustParsePosition("w:d4" + s)
				// What the player gets is the PNG; Image is the same pixels,
				// and quicker to check under -race.
				var m image.Image
				if h <= 3 {
					m = mustPNG(t, r, p, o)
				} else if m, err = r.Image(p, o); err != nil {
					t.Fatal(err)
				}
				b := k.box(sq(t, "d4"), rules.White)
				if got := rgbaAt(m, b.Min.Add(k.faceCentre(p.Tower(sq(t, "d4"))))); got != want {
					t.Errorf("%s: tower %s: top face centre is %v, want %v", th.Name, s, got, want)
				}
				if h == 1 {
					c := b.Min.Add(image.Pt(k.sq/2, k.sq/2))
					if got := rgbaAt(m, c); got != want {
						t.Errorf("%s: tower %s: square centre is %v, want %v", th.Name, s, got, want)
					}
				}
			}
		}
	}
}

func countColour(m image.Image, r image.Rectangle, c color.RGBA) int {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if rgbaAt(m, image.Pt(x, y)) == c {
				n++
			}
		}
	}
	return n
}

// TestKingMark: a king-topped tower shows a crown on its top face; a tower
// of men shows no crown colour at all (the phone test reads kings inside).
func TestKingMark(t *testing.T) {
	r := shared
	for _, th := range []Theme{Classic(), Contrast()} {
		o := Options{Theme: th}
		k := testKit(t, r, o)
		// The crown sits on the face: look in the face's upper half.
		for _, tc := range []struct {
			tower string
			king  bool
		}{
			{"W", true}, {"B", true}, {"w", false}, {"b", false},
			{"Wwbb", true}, {"bBww", false}, {"BbWwwww", true}, {"bbbbbwwwwwww", false},
			{"Wwwwwwwwwwwwbbbbbbbbbbbb", true},
		} {
			p := rules.MustParsePosition("w:d4" + tc.tower)
			m := mustPNG(t, r, p, o)
			b := k.box(sq(t, "d4"), rules.White)
			fc := b.Min.Add(k.faceCentre(p.Tower(sq(t, "d4"))))
			ry := k.layoutOf(p.Tower(sq(t, "d4")).Height()).ry
			// A flat face's crown stands taller than the face.
			up := max(int(ry*0.8), k.sq/5)
			face := image.Rect(fc.X-int(k.rx*0.7), fc.Y-up, fc.X+int(k.rx*0.7), fc.Y+int(ry*0.3))
			got := countColour(m, face, th.Crown)
			if tc.king && got < k.sq/8 { // a flat face of a tall tower has a small crown
				t.Errorf("%s: king-topped %s: %d crown pixels on the face, want a crown", th.Name, tc.tower, got)
			}
			if !tc.king && got != 0 {
				t.Errorf("%s: man-topped %s: %d crown pixels on the face, want none", th.Name, tc.tower, got)
			}
			if all := countColour(m, b, th.Crown); !strings.ContainsAny(tc.tower, "WB") && all != 0 {
				t.Errorf("%s: %s has no king but %d crown pixels", th.Name, tc.tower, all)
			}
		}
	}
}

// TestLastMoveHighlight looks at a corner of every square a capture touched
// (the corner towers never cover), in both themes and perspectives.
func TestLastMoveHighlight(t *testing.T) {
	r := shared
	p := rules.MustParsePosition(captureText)
	mv := longestCapture(t, p)
	after := p.Play(mv)
	if mv.Len() < 3 {
		t.Fatalf("capture %v is too short to test a path", mv)
	}
	for _, th := range []Theme{Classic(), Contrast()} {
		for _, persp := range []rules.Color{rules.White, rules.Black} {
			o := Options{Theme: th, Perspective: persp, LastMove: &mv}
			k := testKit(t, r, o)
			m := mustPNG(t, r, after, o)
			want := map[rules.Square]color.RGBA{mv.From(): th.From}
			for i := range mv.Len() {
				want[mv.Jumped(i)] = th.Jumped
				want[mv.Landing(i)] = th.Path
			}
			want[mv.To()] = th.To
			for s, c := range want {
				b := k.box(s, persp)
				corner := image.Pt(b.Max.X-3, b.Min.Y+2)
				if got := rgbaAt(m, corner); got != c {
					t.Errorf("%s, %v at the bottom: square %v is %v, want %v", th.Name, persp, s, got, c)
				}
			}
			// An untouched dark square stays plain.
			b := k.box(sq(t, "c1"), persp)
			if got := rgbaAt(m, image.Pt(b.Max.X-3, b.Min.Y+2)); got != th.Dark {
				t.Errorf("%s: untouched c1 is %v, want %v", th.Name, got, th.Dark)
			}
		}
	}
}

func TestSelectedAndTargets(t *testing.T) {
	r := shared
	p := rules.Start(rules.Bashni)
	sel := sq(t, "c3")
	targets := []rules.Square{sq(t, "b4"), sq(t, "d4"), sq(t, "e3")}
	o := Options{Selected: &sel, Targets: targets}
	k := testKit(t, r, o)
	m := mustPNG(t, r, p, o)
	th := Classic()
	if got := rgbaAt(m, k.box(sel, rules.White).Min.Add(image.Pt(k.sq-3, 2))); got != th.Selected {
		t.Errorf("selected c3 corner is %v, want %v", got, th.Selected)
	}
	for _, s := range targets[:2] {
		c := k.box(s, rules.White).Min.Add(image.Pt(k.sq/2, k.sq/2))
		if got := rgbaAt(m, c); got != th.Target {
			t.Errorf("target %v centre is %v, want the marker %v", s, got, th.Target)
		}
	}
	// e3 holds a tower: the marker frames it, the top still shows.
	b := k.box(sq(t, "e3"), rules.White)
	if n := countColour(m, b, th.Target); n < k.sq {
		t.Errorf("target e3 (occupied) has %d marker pixels, want a frame", n)
	}
	if got := rgbaAt(m, b.Min.Add(image.Pt(k.sq/2, k.sq/2))); got != th.White.Face {
		t.Errorf("target e3 centre is %v, want the tower's top %v", got, th.White.Face)
	}
}

// TestPerspective: seen from Black, a1 is the top-right square, drawn the
// same as a1 seen from White at the bottom left.
func TestPerspective(t *testing.T) {
	r := shared
	p := rules.MustParsePosition("w:a1wb,h8b")
	white := mustPNG(t, r, p, Options{})
	black := mustPNG(t, r, p, Options{Perspective: rules.Black})
	k := testKit(t, r, Options{})
	a1w, a1b := k.box(sq(t, "a1"), rules.White), k.box(sq(t, "a1"), rules.Black)
	size := white.Bounds().Dx()
	if a1b.Max.X < size-k.bord-1 || a1b.Min.Y > k.bord {
		t.Fatalf("from Black, a1 is at %v, want the top right corner", a1b)
	}
	if a1w.Min.X > k.marg || a1w.Max.Y < size-k.marg-1 {
		t.Fatalf("from White, a1 is at %v, want the bottom left corner", a1w)
	}
	for y := range k.sq {
		for x := range k.sq {
			pw, pb := a1w.Min.Add(image.Pt(x, y)), a1b.Min.Add(image.Pt(x, y))
			if rgbaAt(white, pw) != rgbaAt(black, pb) {
				t.Fatalf("a1 differs between perspectives at %d,%d", x, y)
			}
		}
	}
	if got := rgbaAt(black, a1b.Min.Add(k.faceCentre(p.Tower(sq(t, "a1"))))); got != Classic().White.Face {
		t.Errorf("from Black, top right tower top is %v, want white", got)
	}
}

// TestTowersStayInside draws single towers of every height, at a corner,
// an edge and the middle, in several sizes, and finds every pixel outside
// the tower's square the same as on the empty board.
func TestTowersStayInside(t *testing.T) {
	r := shared
	sizes := []int{MinSize, 333, DefaultSize, 1111}
	if testing.Short() || raceEnabled {
		sizes = []int{MinSize, DefaultSize}
	}
	for i, size := range sizes {
		// The theme changes no geometry; both get a turn.
		for _, th := range []Theme{Classic(), Contrast()}[i%2:][:1] {
			o := Options{Size: size, Theme: th}
			k := testKit(t, r, o)
			empty, err := r.Image(rules.MustParsePosition("w:"), o)
			if err != nil {
				t.Fatal(err)
			}
			for _, where := range []string{"a1", "d4", "h8"} {
				box := k.box(sq(t, where), rules.White)
				for h := 1; h <= rules.MaxTowerHeight; h++ {
					for _, owner := range []rules.Color{rules.White, rules.Black} {
						s := mixedTower(owner, h, h%2 == 0)
						p, err := rules.ParsePosition("w:" + where + s)
						if err != nil {
							// A man on its far rank: make it a king.
							s = strings.ToUpper(s[:1]) + s[1:]
							p = rules.MustParsePosition("w:" + where + s)
						}
						m, err := r.Image(p, o)
						if err != nil {
							t.Fatal(err)
						}
						inside := 0
						for y := 0; y < size; y++ {
							row := m.Pix[y*m.Stride : y*m.Stride+size]
							want := empty.Pix[y*empty.Stride : y*empty.Stride+size]
							if bytes.Equal(row, want) {
								continue
							}
							for x := range row {
								if row[x] == want[x] {
									continue
								}
								if !image.Pt(x, y).In(box) {
									t.Fatalf("%s size %d: tower %s on %s changes pixel %d,%d outside its square %v", th.Name, size, s, where, x, y, box)
								}
								inside++
							}
						}
						if inside < k.sq*k.sq/8 {
							t.Errorf("%s size %d: tower %s on %s changes only %d pixels", th.Name, size, s, where, inside)
						}
					}
				}
			}
		}
	}
}

// TestConcurrentRenders draws from many goroutines at once, with every
// option, and expects the same bytes as drawn alone. Run it with -race.
func TestConcurrentRenders(t *testing.T) {
	r := New()
	capPos := rules.MustParsePosition(captureText)
	mv := longestCapture(t, capPos)
	sel := sq(t, "c3")
	jobs := []struct {
		p rules.Position
		o Options
	}{
		{rules.Start(rules.Bashni), Options{}},
		{rules.MustParsePosition(tallText), Options{Theme: Contrast(), Perspective: rules.Black}},
		{capPos.Play(mv), Options{LastMove: &mv, Size: 480}},
		{rules.Start(rules.Bashni), Options{Selected: &sel, Targets: []rules.Square{sq(t, "d4")}}},
	}
	// Alone first; then at once, on a fresh renderer, so the goroutines also
	// race to prepare the kits and fill the tile cache.
	want := make([][]byte, len(jobs))
	for i, j := range jobs {
		b, err := shared.PNG(j.p, j.o)
		if err != nil {
			t.Fatal(err)
		}
		want[i] = b
	}
	var wg sync.WaitGroup
	errs := make(chan error, 64)
	for g := range 8 {
		wg.Go(func() {
			for n := range 4 {
				i := (g + n) % len(jobs)
				b, err := r.PNG(jobs[i].p, jobs[i].o)
				if err != nil {
					errs <- err
					return
				}
				if !bytes.Equal(b, want[i]) {
					errs <- fmt.Errorf("goroutine %d: job %d differs from drawing it alone", g, i)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestTileCacheGivesTheSameImage(t *testing.T) {
	r := shared
	p := rules.MustParsePosition(tallText)
	first, err := r.Image(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	second, err := r.Image(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(first.Pix, second.Pix) {
		t.Error("a board drawn from cached tiles differs from the first drawing")
	}
}

func TestOptionsErrors(t *testing.T) {
	r := shared
	p := rules.Start(rules.Bashni)
	off := rules.Square(32)
	bad := Classic()
	bad.Dark.A = 0x80
	for _, tc := range []struct {
		name string
		o    Options
		want string
	}{
		{"too small", Options{Size: MinSize - 1}, "out of range"},
		{"too large", Options{Size: MaxSize + 1}, "out of range"},
		{"negative", Options{Size: -640}, "out of range"},
		{"selected off the board", Options{Selected: &off}, "selected square"},
		{"target off the board", Options{Targets: []rules.Square{off}}, "target square"},
		{"perspective", Options{Perspective: 7}, "perspective"},
		{"translucent theme", Options{Theme: bad}, "not opaque"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := r.PNG(p, tc.o)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "render: ") {
				t.Errorf("PNG error = %v, want one saying %q", err, tc.want)
			}
			if _, err := r.Image(p, tc.o); err == nil {
				t.Error("Image gave no error")
			}
		})
	}
}

func TestThemeByName(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"", "classic"}, {"classic", "classic"}, {"Contrast", "contrast"}, {" CONTRAST ", "contrast"},
	} {
		th, err := ThemeByName(tc.in)
		if err != nil || th.Name != tc.want {
			t.Errorf("ThemeByName(%q) = %q, %v; want %q", tc.in, th.Name, err, tc.want)
		}
	}
	_, err := ThemeByName("neon")
	if err == nil || !strings.Contains(err.Error(), "classic, contrast") {
		t.Errorf("unknown theme error = %v, want one listing the themes", err)
	}
	if got := strings.Join(ThemeNames(), ","); got != "classic,contrast" {
		t.Errorf("ThemeNames() = %s", got)
	}
}

// TestThemeColoursExact: every flat colour of a built-in theme comes out of
// the palette unchanged, at every size (the pixel tests rely on it, and a
// player's eye on the difference between From and To).
func TestThemeColoursExact(t *testing.T) {
	r := shared
	for _, th := range []Theme{Classic(), Contrast()} {
		for _, size := range []int{MinSize, DefaultSize} {
			k := testKit(t, r, Options{Theme: th, Size: size})
			for _, c := range k.exactColours() {
				got := k.pal[k.lut[lutIndex(c.R, c.G, c.B)]]
				if rgbaAt(image.NewUniform(got), image.Point{}) != c {
					t.Errorf("%s at %d px: colour %v comes out as %v", th.Name, size, c, got)
				}
			}
		}
	}
}

func TestPNGIsSmall(t *testing.T) {
	r := shared
	for _, c := range goldenCases(t) {
		b, err := r.PNG(c.pos, c.opt)
		if err != nil {
			t.Fatal(err)
		}
		if len(b) > 40<<10 {
			t.Errorf("%s: %d bytes, want under 40 KB", c.name, len(b))
		}
	}
}

func TestCaption(t *testing.T) {
	p := rules.Start(rules.Bashni)
	mv := p.Legal()[0]
	for _, tc := range []struct {
		ply   int
		first rules.Color
		want  string
	}{
		{0, rules.White, "1. " + mv.String()},
		{1, rules.White, "1… " + mv.String()},
		{2, rules.White, "2. " + mv.String()},
		{0, rules.Black, "1… " + mv.String()},
		{1, rules.Black, "2. " + mv.String()},
	} {
		if got := caption(tc.ply, tc.first, mv); got != tc.want {
			t.Errorf("caption(%d, %v) = %q, want %q", tc.ply, tc.first, got, tc.want)
		}
	}
}

// TestReplayGIF plays the frames back like a viewer and finds the board of
// the first and the last frame equal to Image of those positions.
func TestReplayGIF(t *testing.T) {
	r := shared
	start, moves := randomGame(t, 16)
	o := Options{Size: 480, Perspective: rules.Black}
	b, err := r.ReplayGIF(start, moves, o)
	if err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Image) != len(moves)+1 {
		t.Fatalf("%d frames, want %d", len(g.Image), len(moves)+1)
	}
	if last := g.Delay[len(g.Delay)-1]; last <= g.Delay[1] {
		t.Errorf("last frame delay %d, want longer than %d", last, g.Delay[1])
	}
	k := testKit(t, r, o)
	if g.Config.Width != k.size || g.Config.Height != k.size+k.capH {
		t.Errorf("gif is %dx%d, want %dx%d", g.Config.Width, g.Config.Height, k.size, k.size+k.capH)
	}
	canvas := image.NewRGBA(image.Rect(0, 0, g.Config.Width, g.Config.Height))
	p := start
	var captions [][]byte
	for i, f := range g.Image {
		draw.Draw(canvas, f.Bounds(), f, f.Bounds().Min, draw.Over)
		oi := o
		if i > 0 {
			mv := moves[i-1]
			p = p.Play(mv)
			oi.LastMove = &mv
		}
		if i != 0 && i != len(moves) && i != len(moves)/2 {
			continue
		}
		want, err := r.Image(p, oi)
		if err != nil {
			t.Fatal(err)
		}
		for y := range k.size {
			for x := range k.size {
				if rgbaAt(canvas, image.Pt(x, y)) != rgbaAt(want, image.Pt(x, y)) {
					t.Fatalf("frame %d differs from the board at %d,%d", i, x, y)
				}
			}
		}
		strip := canvas.SubImage(image.Rect(0, k.size, k.size, k.size+k.capH)).(*image.RGBA)
		captions = append(captions, bytes.Clone(strip.Pix))
	}
	if bytes.Equal(captions[0], captions[1]) || bytes.Equal(captions[1], captions[2]) {
		t.Error("the caption under the board does not change from move to move")
	}
}

func TestReplayGIFOfNoMoves(t *testing.T) {
	b, err := shared.ReplayGIF(rules.Start(rules.Bashni), nil, Options{Size: MinSize})
	if err != nil {
		t.Fatal(err)
	}
	g, err := gif.DecodeAll(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if len(g.Image) != 1 || g.Delay[0] != lastDelay {
		t.Errorf("%d frames, delay %v; want one frame held %d", len(g.Image), g.Delay, lastDelay)
	}
}

func TestReplayGIFRefusesIllegalMoves(t *testing.T) {
	r := shared
	start, moves := randomGame(t, 6)
	moves[4] = moves[3]
	_, err := r.ReplayGIF(start, moves, Options{})
	if !errors.Is(err, rules.ErrIllegalMove) || !strings.Contains(err.Error(), "move 5") {
		t.Errorf("error = %v, want ErrIllegalMove naming move 5", err)
	}
}
