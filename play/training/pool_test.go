package training

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/bashni/bashni/puzzle"
)

// A puzzle found in a game played here joins the pool: a newcomer whose
// rating it is nearest gets it from Next, a link opens it by its id, it
// is solved as any other, and it says which game it came from. One
// already in the pool is not added twice; an id the pool lacks is no
// puzzle.
func TestMinedPuzzlesJoinThePool(t *testing.T) {
	ctx := context.Background()
	p, _ := newTestPuzzles(t)
	mined, err := puzzle.ParseLine("hecubpzi\tb:a1w,c1w,e1w,g1w,d2w,f2w,h2w,a3w,e3w,h4w,e5bww,g5b,d6b,f6b,a7b,c7b,e7b,g7b,b8b,d8b,f8b,h8b\te5-d4\t1500")
	if err != nil {
		t.Fatal(err)
	}
	again := testPuzzleSet(t)[0]
	if n := p.Add([]puzzle.Puzzle{mined, again}, []Origin{{Game: "g1", White: "Ann", Black: "Bob"}, {Game: "g2"}}); n != 1 {
		t.Fatalf("Add joined %d puzzles, want 1 (the other is in the set)", n)
	}
	if o, ok := p.Origin(mined.ID); !ok || o != (Origin{Game: "g1", White: "Ann", Black: "Bob"}) {
		t.Errorf("Origin(%s) = %+v, %v", mined.ID, o, ok)
	}
	if _, ok := p.Origin(again.ID); ok {
		t.Errorf("a shipped puzzle has an origin")
	}

	// A newcomer (1500) gets the puzzle rated nearest: the mined one.
	st, err := p.Next(ctx, 7)
	if err != nil || st.Puzzle.ID != mined.ID {
		t.Fatalf("Next = %+v, %v; want the mined puzzle", st, err)
	}
	// Another opens it by its link, and solves it.
	st, err = p.Open(ctx, 8, mined.ID)
	if err != nil || st.Puzzle.ID != mined.ID || st.Moves != 0 {
		t.Fatalf("Open = %+v, %v; want the mined puzzle from its start", st, err)
	}
	res, err := p.Move(ctx, 8, mined.ID, 0, "e5-d4")
	if err != nil || !res.Solved || !res.Rated {
		t.Fatalf("the solution: %+v, %v; want solved and rated", res, err)
	}
	if _, err := p.Open(ctx, 8, "nosuchid"); !errors.Is(err, ErrNoPuzzle) {
		t.Errorf("Open of an id the pool lacks: %v, want ErrNoPuzzle", err)
	}
}

// Puzzles join the pool while players draw from it: no reader sees a
// half-added set (run with -race).
func TestPoolGrowsWhilePlayersDraw(t *testing.T) {
	ctx := context.Background()
	p, _ := newTestPuzzles(t)
	shipped, err := puzzle.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		for i := range 40 {
			p.Add(shipped[i:i+1], []Origin{{Game: "g"}})
		}
	})
	for u := range int64(4) {
		wg.Go(func() {
			for range 10 {
				st, err := p.Next(ctx, 100+u)
				if err != nil {
					t.Error(err)
					return
				}
				if _, err := p.Current(ctx, 100+u); err != nil {
					t.Error(err)
				}
				p.Origin(st.Puzzle.ID)
			}
		})
	}
	wg.Wait()
	// The test set's two puzzles are the shipped set's first two: added
	// again, they are not doubled.
	if set, _, _ := p.pool(); len(set) != 40 {
		t.Errorf("%d puzzles in the pool, want 40", len(set))
	}
}
