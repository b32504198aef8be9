package render

import (
	"bytes"
	"fmt"
	"image"
	"sync"
	"testing"

	"github.com/bashni/bashni/rules"
)

// checkPNG decodes b and compares it with Image of the same board.
func checkPNG(t *testing.T, r *Renderer, name string, b []byte, p rules.Position, o Options) {
	t.Helper()
	want, err := r.Image(p, o)
	if err != nil {
		t.Fatal(err)
	}
	got, ok := decodePNG(t, b).(*image.Paletted)
	if !ok {
		t.Fatalf("%s: decoded a %T, want *image.Paletted", name, got)
	}
	if msg := samePaletted(got, want); msg != "" {
		t.Fatalf("%s: %s", name, msg)
	}
}

// statsSince returns the band lookups that hit and missed since the last
// call, which returned h0 and m0.
func statsSince(r *Renderer, h0, m0 *int) (hits, misses int) {
	h, m := r.bands.stats()
	hits, misses = h-*h0, m-*m0
	*h0, *m0 = h, m
	return hits, misses
}

// pickerOptions are the options of the bot's move picker on p: the first
// movable tower selected, its destinations as targets, no last move.
func pickerOptions(p rules.Position) (Options, bool) {
	legal := p.Legal()
	if len(legal) == 0 {
		return Options{}, false
	}
	from := legal[0].From()
	o := Options{Selected: &from}
	for _, m := range legal {
		if m.From() == from {
			o.Targets = append(o.Targets, m.To())
		}
	}
	return o, true
}

// TestPNGBandCache renders through the band cache and finds every PNG
// decoding to exactly Image's pixels, and byte for byte the PNG of a
// renderer that caches nothing: a board first (every band missed), the same
// board again (every band hit), then the boards of a game with the last
// move marked and the move picker's between them (some bands hit, some
// missed), at odd and even sizes, in both themes and perspectives.
func TestPNGBandCache(t *testing.T) {
	sizes := []int{MinSize, 333, DefaultSize, 1111}
	plies := 40
	if testing.Short() || raceEnabled {
		sizes, plies = []int{MinSize, 333}, 16
	}
	r := New()
	cold := New()
	cold.bands.off = true
	ps, opts := gameBoards(t, plies)
	// The picker's boards go between the moves' boards, as the bot sends
	// them.
	var boards []rules.Position
	var bopts []Options
	for i := range ps {
		boards, bopts = append(boards, ps[i]), append(bopts, opts[i])
		if o, ok := pickerOptions(ps[i]); ok && i%3 == 1 {
			boards, bopts = append(boards, ps[i]), append(bopts, o)
		}
	}
	var h0, m0 int
	for _, size := range sizes {
		for _, th := range []Theme{Classic(), Contrast()} {
			for _, persp := range []rules.Color{rules.White, rules.Black} {
				prefix := fmt.Sprintf("%d/%s/%v", size, th.Name, persp)
				sel := sq(t, "c3")
				first := Options{Size: size, Theme: th, Perspective: persp,
					Selected: &sel, Targets: []rules.Square{sq(t, "b4"), sq(t, "d4"), sq(t, "g5")}}
				tall := rules.MustParsePosition(tallText)

				r.bands.purge()
				statsSince(r, &h0, &m0)
				b1, err := r.PNG(tall, first)
				if err != nil {
					t.Fatal(err)
				}
				if hits, misses := statsSince(r, &h0, &m0); hits != 0 || misses != numBands {
					t.Errorf("%s: first board: %d bands hit, %d missed; want all missed", prefix, hits, misses)
				}
				checkPNG(t, r, prefix+"/first", b1, tall, first)
				b2, err := r.PNG(tall, first)
				if err != nil {
					t.Fatal(err)
				}
				if hits, misses := statsSince(r, &h0, &m0); hits != numBands || misses != 0 {
					t.Errorf("%s: same board again: %d bands hit, %d missed; want all hit", prefix, hits, misses)
				}
				if !bytes.Equal(b1, b2) {
					t.Errorf("%s: the same board from cached bands differs from the first", prefix)
				}

				allHits, allMisses := 0, 0
				for i := range boards {
					o := bopts[i]
					o.Size, o.Theme, o.Perspective = size, th, persp
					name := fmt.Sprintf("%s/board%d", prefix, i)
					b, err := r.PNG(boards[i], o)
					if err != nil {
						t.Fatal(err)
					}
					hits, misses := statsSince(r, &h0, &m0)
					allHits += hits
					allMisses += misses
					checkPNG(t, r, name, b, boards[i], o)
					want, err := cold.PNG(boards[i], o)
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(b, want) {
						t.Fatalf("%s: PNG from the band cache differs from one drawn whole", name)
					}
				}
				if allHits < allMisses || allMisses < len(boards) {
					t.Errorf("%s: over a game, %d bands hit and %d missed; want more hits, and a miss or more a board", prefix, allHits, allMisses)
				}
				t.Logf("%s: %d boards, %d bands hit, %d missed", prefix, len(boards), allHits, allMisses)
			}
		}
	}
}

// TestBandsCoverTheImage: the bands are the image's rows, each once, in
// order; and the ones of squares are the squares' rows.
func TestBandsCoverTheImage(t *testing.T) {
	for size := MinSize; size <= MaxSize; size++ {
		// newKit's geometry, without the sprites.
		k := &kit{size: size}
		k.marg, k.sq, k.bord = boardGeometry(size)
		y := 0
		for b := range numBands {
			y0, y1 := k.bandRows(b)
			if y0 != y || y1 <= y0 {
				t.Fatalf("size %d: band %d is rows %d..%d after row %d", size, b, y0, y1, y)
			}
			if rank, ok := bandRank(b, rules.White); ok {
				o := k.origin(rules.Square(4*rank), rules.White)
				if o.Y != y0 || y1-y0 != k.sq {
					t.Fatalf("size %d: band %d is rows %d..%d, its squares %d..%d", size, b, y0, y1, o.Y, o.Y+k.sq)
				}
			}
			y = y1
		}
		if y != size {
			t.Fatalf("size %d: the bands end at row %d", size, y)
		}
	}
}

// TestBandCacheConcurrent renders a game's boards from several goroutines
// at once on one renderer, each in its own order, and expects the bytes of
// a renderer that caches nothing. Run it with -race.
func TestBandCacheConcurrent(t *testing.T) {
	ps, opts := gameBoards(t, 24)
	cold := New()
	cold.bands.off = true
	want := make([][]byte, len(ps))
	for i := range ps {
		b, err := cold.PNG(ps[i], opts[i])
		if err != nil {
			t.Fatal(err)
		}
		want[i] = b
	}
	r := New()
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for g := range 8 {
		wg.Go(func() {
			for n := range ps {
				i := (n*(g+1) + g) % len(ps)
				b, err := r.PNG(ps[i], opts[i])
				if err != nil {
					errs <- err
					return
				}
				if !bytes.Equal(b, want[i]) {
					errs <- fmt.Errorf("goroutine %d: board %d differs", g, i)
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
