package ai

import (
	"context"
	"testing"

	"github.com/bashni/bashni/rules"
)

// variantWeightsPosition is a quiet middlegame without towers, a position
// of either game, on which the two weight sets disagree.
const variantWeightsPosition = "w:a1w,e1w,d2w,f2w,h2w,a3w,c3w,f4w,h4b,a5b,c5b,b6b,c7b,e7b,g7b,b8b,d8b,f8b"

// TestRussianPositionsUseRussianWeights: the Engine is made before it knows
// the rules it will be asked about, and evaluates each position, and
// searches each root, with the weights of its variant.
func TestRussianPositionsUseRussianWeights(t *testing.T) {
	bashni := rules.MustParsePosition(variantWeightsPosition)
	russian := bashni.WithVariant(rules.Russian)
	ru, def := NewEvaluator(RussianWeights), NewEvaluator(DefaultWeights)
	if ru.Evaluate(&russian) == def.Evaluate(&russian) {
		t.Fatalf("both weight sets score %s %d: the test cannot tell them apart", variantWeightsPosition, ru.Evaluate(&russian))
	}
	if WeightsFor(rules.Russian) != RussianWeights || WeightsFor(rules.Bashni) != DefaultWeights || WeightsFor(rules.BashniMP) != DefaultWeights {
		t.Error("WeightsFor does not give Russian draughts its own weights and both schools of Bashni the default")
	}

	e := New(Options{HashMB: 1, Threads: 2})
	if got, want := e.Evaluate(russian), ru.Evaluate(&russian); got != want {
		t.Errorf("Russian: Evaluate = %d, want %d (the Russian weights)", got, want)
	}
	if got, want := e.Evaluate(bashni), def.Evaluate(&bashni); got != want {
		t.Errorf("Bashni: Evaluate = %d, want %d (the default weights)", got, want)
	}

	// Each search evaluates with its root's weights, the helper threads'
	// too (they search when no node budget is set), whatever the Engine
	// searched before.
	for _, tc := range []struct {
		p    rules.Position
		want Weights
	}{{russian, RussianWeights}, {bashni, DefaultWeights}, {russian, RussianWeights}} {
		for _, lim := range []Limits{{Depth: 3}, {Nodes: 2000}} {
			if _, err := e.Search(context.Background(), Request{Position: tc.p, Limits: lim}); err != nil {
				t.Fatal(err)
			}
			threads := []*Engine{e}
			if lim.Nodes == 0 {
				threads = append(threads, e.helpers...)
			}
			for i, se := range threads {
				if se.ev.w != tc.want {
					t.Errorf("%v search (%+v): thread %d evaluated with the other weights", tc.p.Variant(), lim, i)
				}
			}
		}
	}
}

// TestOptionsWeightsApplyToEveryVariant: weights given to New (a match's
// weights=FILE, a tuning run) are played under every ruleset.
func TestOptionsWeightsApplyToEveryVariant(t *testing.T) {
	w := DefaultWeights
	w.King = 250
	e := New(Options{HashMB: 1, Weights: &w})
	ev := NewEvaluator(w)
	for _, v := range rules.Variants {
		p := rules.MustParsePosition("w:c3W,e3w,h8b,f6b").WithVariant(v)
		if got, want := e.Evaluate(p), ev.Evaluate(&p); got != want {
			t.Errorf("%v: Evaluate = %d, want %d (the given weights)", v, got, want)
		}
	}
}
