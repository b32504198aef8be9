package ai_test

import (
	"context"
	"testing"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/rules"
)

// TestReviewFindsAPlantedBlunder is an external test (package ai_test) so
// that it plants its blunder with testkit, which imports ai.
func TestReviewFindsAPlantedBlunder(t *testing.T) {
	const at = 9 // Black's fifth move
	g, blunder := testkit.PlantedBlunder(t, 24, at)
	start, moves := g.StartPosition(), g.Moves()
	rv, err := ai.New(ai.Options{HashMB: 4}).ReviewGame(context.Background(), start, moves, ai.Limits{Depth: 6})
	if err != nil {
		t.Fatal(err)
	}
	if len(rv.Scores) != len(moves)+1 || len(rv.Moves) != len(moves) {
		t.Fatalf("%d scores and %d move reviews for %d moves", len(rv.Scores), len(rv.Moves), len(moves))
	}
	worst := rv.Mistakes(100, 3, rules.Black)
	if len(worst) == 0 {
		t.Fatalf("no mistake of Black found; scores %v", rv.Scores)
	}
	if w := worst[0]; w.Ply != at || w.Move != blunder || w.Best == blunder || w.Loss < 100 {
		t.Errorf("worst Black move: ply %d %s (best %s, loss %d); want the planted %s at ply %d",
			w.Ply, w.Move, w.Best, w.Loss, blunder, at)
	}
	// The graph's scores swing to White after the blunder.
	if rv.Scores[at+1]-rv.Scores[at] < 100 {
		t.Errorf("White's score goes from %d to %d over the blunder; want a rise of a man or more", rv.Scores[at], rv.Scores[at+1])
	}
	for _, s := range rv.Scores {
		if s > ai.ReviewCap || s < -ai.ReviewCap {
			t.Errorf("score %d beyond the cap", s)
		}
	}
}
