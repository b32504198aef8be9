package rules

import (
	"flag"
	"fmt"
	"testing"
)

var deepPerft = flag.Bool("deep", false, "also run perft at depth 9 (seconds under -race)")

// docs/rules.md, Checks. Bashni and the other school first differ at
// depth 8; Bashni's figures beyond depth 7 are this engine's own.
var perftFigures = map[Variant][]uint64{
	Bashni:   {7, 49, 302, 1469, 7482, 37908, 189912, 925868, 4533214},
	BashniMP: {7, 49, 302, 1469, 7482, 37908, 189912, 925945, 4533893},
	Russian:  {7, 49, 302, 1469, 7482, 37986, 190146, 929905},
}

func TestPerftFromStart(t *testing.T) {
	for _, v := range Variants {
		for i, want := range perftFigures[v] {
			depth := i + 1
			if testing.Short() && depth > 6 || depth > 8 && !*deepPerft {
				continue // the deep ones take seconds: -short skips 7 and 8, -deep adds 9
			}
			t.Run(fmt.Sprintf("%v/depth%d", v, depth), func(t *testing.T) {
				if got := Perft(Start(v), depth); got != want {
					t.Errorf("perft(%d) = %d, want %d", depth, got, want)
				}
			})
		}
	}
}

func TestDivideSumsToPerft(t *testing.T) {
	p := Start(Bashni)
	var sum uint64
	for _, e := range Divide(p, 4) {
		sum += e.Nodes
	}
	if want := Perft(p, 4); sum != want {
		t.Errorf("divide sums to %d, perft(4) = %d", sum, want)
	}
}

// BenchmarkPerft reports nodes per second of perft from the start position
// with bulk counting (leaves are counted, not played). Depth 9 is the budget
// depth of DESIGN.md; it is heavy, so run it with -benchtime=1x.
func BenchmarkPerft(b *testing.B) {
	for _, v := range Variants {
		for _, depth := range []int{7, 9} {
			b.Run(fmt.Sprintf("%v/depth%d", v, depth), func(b *testing.B) {
				b.ReportAllocs()
				var nodes uint64
				for i := 0; i < b.N; i++ {
					nodes += Perft(Start(v), depth)
				}
				b.ReportMetric(float64(nodes)/b.Elapsed().Seconds(), "nodes/s")
			})
		}
	}
}

func BenchmarkLegalMoves(b *testing.B) {
	p := MustParsePosition("w:a1W,c3b,f6b,e1wbb,g3w,d6bw,h4Bww")
	buf := make([]Move, 0, 64)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		buf = p.LegalMoves(buf[:0])
	}
}
