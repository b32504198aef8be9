package ai

import (
	"context"
	"flag"
	"fmt"
	"math/bits"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/bashni/bashni/rules"
)

var genOpenings = flag.Bool("gen-openings", false, "regenerate openings.txt (takes a minute)")

func TestGenerateOpenings(t *testing.T) {
	if !*genOpenings {
		t.Skip("run with -gen-openings to regenerate openings.txt")
	}
	type line struct {
		p     rules.Position
		moves []rules.Move
	}
	seen := map[uint64]bool{}
	var candidates []line
	var walk func(p rules.Position, moves []rules.Move)
	walk = func(p rules.Position, moves []rules.Move) {
		if len(moves) >= 2 && !seen[p.Hash()] {
			seen[p.Hash()] = true
			candidates = append(candidates, line{p, append([]rules.Move(nil), moves...)})
		}
		if len(moves) == 4 {
			return
		}
		for _, m := range p.Legal() {
			walk(p.Play(m), append(moves, m))
		}
	}
	walk(rules.Start(rules.Bashni), nil)

	e := New(Options{HashMB: 16})
	var kept []line
	for _, c := range candidates {
		if len(c.p.Legal()) < 2 {
			continue // a forced capture to start from teaches nothing
		}
		res, err := e.Search(context.Background(), Request{Position: c.p, Limits: Limits{Depth: 8}})
		if err != nil {
			t.Fatal(err)
		}
		if res.Score >= -openingMargin && res.Score <= openingMargin {
			kept = append(kept, c)
		}
	}
	rng := rand.New(rand.NewPCG(2024, 6))
	rng.Shuffle(len(kept), func(i, j int) { kept[i], kept[j] = kept[j], kept[i] })
	var b strings.Builder
	for _, k := range kept {
		fmt.Fprintf(&b, "%s # %s\n", k.p, rules.JoinMoves(k.moves, " "))
	}
	if err := os.WriteFile("openings.txt", []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%d candidates, %d kept", len(candidates), len(kept))
}

func TestOpeningsAreValidAndBalanced(t *testing.T) {
	ops := Openings()
	if len(ops) < 100 {
		t.Fatalf("%d openings shipped, want at least 100", len(ops))
	}
	seen := map[uint64]bool{}
	for _, p := range ops {
		if seen[p.Hash()] {
			t.Errorf("opening %s twice", p)
		}
		seen[p.Hash()] = true
		if len(p.Legal()) < 2 {
			t.Errorf("opening %s has fewer than two legal moves", p)
		}
	}
	// A spot check that none is lost already: shallow searches of the
	// first few stay well within a man (they were chosen within ±0.2 at
	// depth 8 with the evaluation of their day).
	e := New(Options{HashMB: 4})
	for _, p := range ops[:10] {
		res, _ := e.Search(context.Background(), Request{Position: p, Limits: Limits{Depth: 6}})
		if res.Score < -100 || res.Score > 100 {
			t.Errorf("opening %s scores %d at depth 6", p, res.Score)
		}
	}
}

// Another variant's match openings are its own positions a few plies from
// its start: distinct, quiet, even in towers, in the same order each time;
// Russian draughts' hold no tower.
func TestOpeningsForAnotherVariant(t *testing.T) {
	if got := OpeningsFor(rules.Bashni); len(got) != len(Openings()) || got[0] != Openings()[0] {
		t.Error("Bashni's openings are not the shipped set")
	}
	for _, v := range []rules.Variant{rules.Russian, rules.BashniMP} {
		ops := OpeningsFor(v)
		if len(ops) < 200 {
			t.Fatalf("%v: %d openings, want at least 200 for a 400-game match", v, len(ops))
		}
		seen := map[uint64]bool{}
		for _, p := range ops {
			if p.Variant() != v || seen[p.Hash()] || p.HasCapture() || len(p.Legal()) < 2 {
				t.Fatalf("%v: opening %s: variant %v, seen before %v, capture %v, %d moves",
					v, p, p.Variant(), seen[p.Hash()], p.HasCapture(), len(p.Legal()))
			}
			seen[p.Hash()] = true
			if w, b := bits.OnesCount32(p.Owned(rules.White)), bits.OnesCount32(p.Owned(rules.Black)); w != b {
				t.Errorf("%v: opening %s: %d towers against %d", v, p, w, b)
			}
			for s := rules.Square(0); v == rules.Russian && s < rules.NumSquares; s++ {
				if p.Tower(s).Height() > 1 {
					t.Errorf("Russian opening %s has a tower on %v", p, s)
				}
			}
		}
		if again := OpeningsFor(v); again[0] != ops[0] || again[len(ops)-1] != ops[len(ops)-1] {
			t.Errorf("%v: the order changed between calls", v)
		}
		if ops[0] == ops[1] {
			t.Errorf("%v: the first two openings are one", v)
		}
	}
}
