package ai

import (
	"context"
	"testing"
	"time"

	"github.com/bashni/bashni/rules"
)

// benchPositions are a start and a few middlegames, searched by the
// nodes-per-second benchmark.
var benchPositions = []string{
	rules.StartText,
	"w:a1w,c1w,e1w,g1w,b2w,f2w,h2w,a3w,c3w,g3w,d4w,b6b,d6b,h6b,a7b,c7b,e7b,g7b,b8b,d8b,f8b,h8b,e5bw",
	"b:a1w,c1w,e1w,b2w,d2w,h2w,c3w,g3w,f4wb,b6b,f6b,h6b,a7b,c7b,e7b,b8b,d8b,h8b,d6bw",
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
