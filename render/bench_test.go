package render

import (
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
	if err := warm(r, o); err != nil {
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

func benchPNGWith(b *testing.B, r *Renderer, p rules.Position, o Options) {
	var size int
	b.ReportAllocs()
	defer reportCPU(b, cpuTime())
	for b.Loop() {
		png, err := r.PNG(p, o)
		if err != nil {
			b.Fatal(err)
		}
		size = len(png)
	}
	b.ReportMetric(float64(size)/1024, "KB")
}

// The single-board benchmarks render one board over and over: the tiles
// stay cached, as they mostly are in a game; every board is drawn and
// compressed.

func BenchmarkPNGStart(b *testing.B) { benchPNG(b, rules.Start(rules.Bashni), Options{}) }

func BenchmarkPNGTall(b *testing.B) { benchPNG(b, rules.MustParsePosition(tallText), Options{}) }

func BenchmarkPNGCaptureContrast(b *testing.B) {
	p := rules.MustParsePosition(captureText)
	m := longestCapture(b, p)
	c, _ := ThemeByName("contrast")
	benchPNG(b, p.Play(m), Options{LastMove: &m, Theme: c, Perspective: rules.Black})
}

// BenchmarkPNGParallel renders the start position from all CPUs at once:
// it shows what the shared caches cost when boards are drawn side by side.
func BenchmarkPNGParallel(b *testing.B) {
	r := New()
	p := rules.Start(rules.Bashni)
	if err := warm(r, Options{}); err != nil {
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
	if err := warm(r, Options{}); err != nil {
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
	if err := warm(r, Options{}); err != nil {
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

// BenchmarkPNGTallUncached draws every square afresh, as for a board whose
// towers the renderer has not seen yet.
func BenchmarkPNGTallUncached(b *testing.B) {
	r := New()
	o := Options{}
	if err := warm(r, o); err != nil {
		b.Fatal(err)
	}
	o.normalize()
	r.kit(o.Theme, o.Size).noCache = true
	benchPNGWith(b, r, rules.MustParsePosition(tallText), o)
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
// as the bot does move after move.
func BenchmarkPNGGame(b *testing.B) {
	ps, opts := gameBoards(b, 60)
	r := New()
	if err := warm(r, Options{}); err != nil {
		b.Fatal(err)
	}
	var size, i int
	b.ReportAllocs()
	defer reportCPU(b, cpuTime())
	for b.Loop() {
		png, err := r.PNG(ps[i], opts[i])
		if err != nil {
			b.Fatal(err)
		}
		size += len(png)
		i = (i + 1) % len(ps)
	}
	b.ReportMetric(float64(size)/float64(b.N)/1024, "KB")
}

// warm prepares the tiles for o before a benchmark's timer starts, so that
// the first drawing does not count their making.
func warm(r *Renderer, o Options) error {
	if err := o.normalize(); err != nil {
		return err
	}
	r.kit(o.Theme, o.Size)
	return nil
}
