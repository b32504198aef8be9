package ai

import (
	"context"
	"testing"
	"time"

	"github.com/bashni/bashni/rules"
)

// benchPositions are the start and two middlegames, searched by the
// nodes-per-second benchmark and the time-limit test.
var benchPositions = []string{
	rules.StartText,
	// Middlegames from a self-play game, with towers on both sides.
	"w:c1w,e1w,b2w,d2w,h2w,a3w,c3w,e3w,b4w,d4w,h4w,e5bbbb,g5b,b6b,f6bw,h6b,c7b,e7bb,g7b",
	"w:c1w,e1w,b2w,d2w,f2wb,a3w,c3w,b4w,d4w,f4b,h4b,e5bbww,b6b,f6bw,h6b,c7b,e7bb,g7b",
}

func BenchmarkSearchNodesPerSecond(b *testing.B) {
	b.ReportAllocs()
	e := New(Options{})
	b.ResetTimer()
	var nodes uint64
	var elapsed time.Duration
	for i := 0; i < b.N; i++ {
		for _, text := range benchPositions {
			e.Reset()
			res, err := e.Search(context.Background(), Request{
				Position: rules.MustParsePosition(text),
				Limits:   Limits{Nodes: 300_000},
			})
			if err != nil {
				b.Fatal(err)
			}
			nodes += res.Nodes
			elapsed += res.Elapsed
		}
	}
	b.ReportMetric(float64(nodes)/elapsed.Seconds(), "nodes/s")
}

func BenchmarkDepthInOneSecond(b *testing.B) {
	b.ReportAllocs()
	e := New(Options{})
	b.ResetTimer()
	depth := 0
	for i := 0; i < b.N; i++ {
		e.Reset()
		res, err := e.Search(context.Background(), Request{
			Position: rules.Start(rules.Bashni),
			Limits:   Limits{MoveTime: time.Second},
		})
		if err != nil {
			b.Fatal(err)
		}
		depth += res.Depth
	}
	b.ReportMetric(float64(depth)/float64(b.N), "depth")
}

// BenchmarkMoveTimeOvershoot reports how far past a 100 ms movetime a
// search returns, the worst over the bench positions (overshoot-ms).
func BenchmarkMoveTimeOvershoot(b *testing.B) {
	e := New(Options{HashMB: 4})
	const moveTime = 100 * time.Millisecond
	var worst time.Duration
	for i := 0; i < b.N; i++ {
		for _, text := range benchPositions {
			start := time.Now()
			if _, err := e.Search(context.Background(), Request{
				Position: rules.MustParsePosition(text),
				Limits:   Limits{MoveTime: moveTime},
			}); err != nil {
				b.Fatal(err)
			}
			worst = max(worst, time.Since(start)-moveTime)
		}
	}
	b.ReportMetric(float64(worst.Microseconds())/1000, "overshoot-ms")
}

// BenchmarkCancelLatency reports how long a deep search takes to return
// after its context is cancelled (cancel-ms, the mean).
func BenchmarkCancelLatency(b *testing.B) {
	e := New(Options{HashMB: 4})
	p := rules.Start(rules.Bashni)
	var total time.Duration
	for i := 0; i < b.N; i++ {
		ctx, cancel := context.WithCancel(context.Background())
		var cancelled time.Time
		time.AfterFunc(20*time.Millisecond, func() { cancelled = time.Now(); cancel() })
		if _, err := e.Search(ctx, Request{Position: p, Limits: Limits{Depth: 60}}); err == nil {
			b.Fatal("a cancelled search reported no error")
		}
		total += time.Since(cancelled)
	}
	b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "cancel-ms")
}
