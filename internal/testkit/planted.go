package testkit

import (
	"context"
	"testing"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/rules"
)

// PlantedBlunder plays a game of the given plies from the first shipped
// opening with the engine on both sides at depth 4, except that at ply
// blunderAt the side to move plays its worst move by a depth-4 search. It
// returns the game and that blunder, for analysis tests to find.
func PlantedBlunder(t testing.TB, plies, blunderAt int) (*rules.Game, rules.Move) {
	t.Helper()
	ctx := context.Background()
	g := rules.NewGame(ai.Openings()[0])
	e := ai.New(ai.Options{HashMB: 2})
	var blunder rules.Move
	for g.Ply() < plies && !g.Over() {
		p := g.Position()
		var m rules.Move
		if g.Ply() == blunderAt {
			worst := ai.MateScore
			for _, cand := range p.Legal() {
				res, err := ai.New(ai.Options{HashMB: 1}).Search(ctx, ai.Request{Position: p.Play(cand), Limits: ai.Limits{Depth: 4}})
				if err != nil {
					t.Fatal(err)
				}
				if s := -res.Score; s < worst {
					worst, m = s, cand
				}
			}
			blunder = m
		} else {
			res, err := e.Search(ctx, ai.Request{Position: p, History: g.History(), QuietPlies: g.QuietPlies(), Limits: ai.Limits{Depth: 4}})
			if err != nil {
				t.Fatal(err)
			}
			m = res.Move
		}
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
	}
	if g.Ply() <= blunderAt {
		t.Fatalf("the game ended at ply %d, before the blunder", g.Ply())
	}
	return g, blunder
}
