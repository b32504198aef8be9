package render

import (
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/bashni/bashni/rules"
)

// randomGame plays n plies from the start, each picked by a fixed
// pseudo-random sequence, so the benchmark replays the same game every time.
func randomGame(tb testing.TB, n int) (rules.Position, []rules.Move) {
	tb.Helper()
	return randomGameFrom(tb, 1, n)
}

// randomGameFrom is randomGame with the sequence's first seed: different
// seeds give different games.
func randomGameFrom(tb testing.TB, first uint64, n int) (rules.Position, []rules.Move) {
	tb.Helper()
	for seed := first; seed < first+1000; seed++ {
		p := rules.Start(rules.Bashni)
		start := p
		var moves []rules.Move
		x := seed
		for len(moves) < n {
			legal := p.Legal()
			if len(legal) == 0 {
				break
			}
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
			m := legal[x%uint64(len(legal))]
			moves = append(moves, m)
			p = p.Play(m)
		}
		if len(moves) == n {
			return start, moves
		}
	}
	tb.Fatalf("no game of %d plies", n)
	return rules.Position{}, nil
}

func benchPNG(b *testing.B, p rules.Position, o Options) {
	r := New()
	if err := r.Warm(o); err != nil {
		b.Fatal(err)
	}
	benchPNGWith(b, r, p, o)
}

// cpuTime is the CPU time the process has used, all threads. The build
// machine is shared, so wall time per op can be inflated by other work;
// CPU time per op says what the code costs.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime()-start)/float64(b.N), "cpu-ns/op")
}

// benchPNGCold is benchPNG with the band cache emptied before each board.
func benchPNGCold(b *testing.B, p rules.Position, o Options) {
	r := New()
	if err := r.Warm(o); err != nil {
		b.Fatal(err)
	}
	benchPNGRun(b, r, p, o, true)
}

func benchPNGWith(b *testing.B, r *Renderer, p rules.Position, o Options) {
	benchPNGRun(b, r, p, o, false)
}

func benchPNGRun(b *testing.B, r *Renderer, p rules.Position, o Options, cold bool) {
	var size int
	b.ReportAllocs()
	defer reportCPU(b, cpuTime())
	for b.Loop() {
		if cold {
			r.bands.purge()
		}
		png, err := r.PNG(p, o)
		if err != nil {
			b.Fatal(err)
		}
		size = len(png)
	}
	b.ReportMetric(float64(size)/1024, "KB")
}

// The single-board benchmarks render one board over and over, so after
// the first time every band comes from the cache: they measure a board
// put together from cached bands (lookups, copying, the CRC). The Cold
// ones empty the band cache before each board, so every band is drawn and
// compressed (the tiles stay cached, as they mostly are in a game).

func BenchmarkPNGStart(b *testing.B) { benchPNG(b, rules.Start(rules.Bashni), Options{}) }

func BenchmarkPNGStartCold(b *testing.B) {
	benchPNGCold(b, rules.Start(rules.Bashni), Options{})
}

func BenchmarkPNGTall(b *testing.B) { benchPNG(b, rules.MustParsePosition(tallText), Options{}) }

func BenchmarkPNGTallCold(b *testing.B) {
	benchPNGCold(b, rules.MustParsePosition(tallText), Options{})
}

func BenchmarkPNGCaptureContrastCold(b *testing.B) {
	p := rules.MustParsePosition(captureText)
	m := longestCapture(b, p)
	c, _ := ThemeByName("contrast")
	benchPNGCold(b, p.Play(m), Options{LastMove: &m, Theme: c, Perspective: rules.Black})
}

func BenchmarkPNGCaptureContrast(b *testing.B) {
	p := rules.MustParsePosition(captureText)
	m := longestCapture(b, p)
	c, _ := ThemeByName("contrast")
	benchPNG(b, p.Play(m), Options{LastMove: &m, Theme: c, Perspective: rules.Black})
}

// BenchmarkPNGParallel renders the start position from all CPUs at once:
// all hits after the first, so it measures the band cache's lock.
func BenchmarkPNGParallel(b *testing.B) {
	r := New()
	p := rules.Start(rules.Bashni)
	if err := r.Warm(Options{}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if _, err := r.PNG(p, Options{}); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

func BenchmarkImageStart(b *testing.B) {
	r := New()
	p := rules.Start(rules.Bashni)
	if err := r.Warm(Options{}); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := r.Image(p, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkReplayGIF60(b *testing.B) {
	start, moves := randomGame(b, 60)
	r := New()
	if err := r.Warm(Options{}); err != nil {
		b.Fatal(err)
	}
	var size int
	b.ReportAllocs()
	defer reportCPU(b, cpuTime())
	for b.Loop() {
		g, err := r.ReplayGIF(start, moves, Options{})
		if err != nil {
			b.Fatal(err)
		}
		size = len(g)
	}
	b.ReportMetric(float64(size)/1024, "KB")
}

// BenchmarkFirstBoard is the one-off cost of a theme and size: preparing the
// tiles, palette and empty boards, then drawing.
func BenchmarkFirstBoard(b *testing.B) {
	p := rules.Start(rules.Bashni)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := New().PNG(p, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPNGTallUncached draws every square afresh and compresses every
// band, as for a board whose towers the renderer has not seen yet.
func BenchmarkPNGTallUncached(b *testing.B) {
	r := New()
	o := Options{}
	if err := r.Warm(o); err != nil {
		b.Fatal(err)
	}
	o.normalize()
	r.kit(o.Theme, o.Size).noCache = true
	benchPNGRun(b, r, rules.MustParsePosition(tallText), o, true)
}

// gameBoards are the boards the bot sends over one game: the position after
// each move with that move highlighted, as boardPNG draws them.
func gameBoards(tb testing.TB, plies int) ([]rules.Position, []Options) {
	start, moves := randomGame(tb, plies)
	return boardsOf(start, moves)
}

func boardsOf(start rules.Position, moves []rules.Move) ([]rules.Position, []Options) {
	ps := []rules.Position{start}
	opts := []Options{{}}
	p := start
	for i := range moves {
		p = p.Play(moves[i])
		ps = append(ps, p)
		opts = append(opts, Options{LastMove: &moves[i]})
	}
	return ps, opts
}

// BenchmarkPNGGame renders the boards of a 60-ply game one after another,
// as the bot does move after move: the first board misses every band, and
// each later one misses the bands of the ranks its move (and the last
// move's highlight) touched. The band cache is emptied at each new game,
// so no board is served from an earlier pass.
func BenchmarkPNGGame(b *testing.B) {
	benchPNGGame(b, false)
}

// BenchmarkPNGGameCold renders the same boards with the band cache emptied
// before each: every band is drawn and compressed, the cost of a board
// the cache cannot help with.
func BenchmarkPNGGameCold(b *testing.B) {
	benchPNGGame(b, true)
}

func benchPNGGame(b *testing.B, cold bool) {
	ps, opts := gameBoards(b, 60)
	r := New()
	if err := r.Warm(Options{}); err != nil {
		b.Fatal(err)
	}
	var size, i int
	b.ReportAllocs()
	defer reportCPU(b, cpuTime())
	for b.Loop() {
		if cold || i == 0 {
			r.bands.purge()
		}
		png, err := r.PNG(ps[i], opts[i])
		if err != nil {
			b.Fatal(err)
		}
		size += len(png)
		i++
		if i == len(ps) {
			i = 0
		}
	}
	b.ReportMetric(float64(size)/float64(b.N)/1024, "KB")
	reportHits(b, r)
}

// reportHits reports the share of band lookups that hit.
func reportHits(b *testing.B, r *Renderer) {
	hits, misses := r.bands.stats()
	if hits+misses > 0 {
		b.ReportMetric(100*float64(hits)/float64(hits+misses), "hit%")
	}
}

// BenchmarkPNGGames interleaves many games of 60 plies on one renderer,
// each at its own stage (the games start a few plies apart) and a move of
// each in turn, and never empties the band cache. With more games between
// two boards of one game, that game's bands are evicted and only the bands
// games share (the margins, empty ranks, the opening's ranks) still hit.
// With bandCacheEntries bands, 500 games fit (a board adds three or four
// bands); 5000 do not, which is what a replica sees that draws a thousand
// boards a second for players who take seconds over a move.
func BenchmarkPNGGames(b *testing.B) {
	for _, n := range []int{500, 5000} {
		ps := make([][]rules.Position, n)
		opts := make([][]Options, n)
		for g := range n {
			// randomGameFrom tries at most a thousand seeds from the one given.
			start, moves := randomGameFrom(b, 1+1000*uint64(g), 60)
			ps[g], opts[g] = boardsOf(start, moves)
		}
		plies := len(ps[0])
		r := New()
		var g, round int
		next := func() error {
			ply := (round + 7*g) % plies
			_, err := r.PNG(ps[g][ply], opts[g][ply])
			if g++; g == n {
				g, round = 0, round+1
			}
			return err
		}
		// Two rounds first, so the cache is as full as it stays.
		for range 2 * n {
			if err := next(); err != nil {
				b.Fatal(err)
			}
		}
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			h0, m0 := r.bands.stats()
			b.ReportAllocs()
			defer reportCPU(b, cpuTime())
			for b.Loop() {
				if err := next(); err != nil {
					b.Fatal(err)
				}
			}
			h, m := r.bands.stats()
			b.ReportMetric(100*float64(h-h0)/float64(h-h0+m-m0), "hit%")
		})
	}
}
