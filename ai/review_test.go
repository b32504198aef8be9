package ai

import (
	"context"
	"testing"

	"github.com/bashni/bashni/rules"
)

func TestReviewRefusesAnIllegalMove(t *testing.T) {
	start := rules.Start(rules.Bashni)
	p := rules.MustParsePosition("w:c3w,d4b,h8b")
	bad := p.Legal()[0] // legal there, not from the start
	if _, err := New(Options{HashMB: 1}).ReviewGame(context.Background(), start, []rules.Move{bad}, Limits{Depth: 2}); err == nil {
		t.Error("a review of an illegal game succeeded")
	}
	if _, err := New(Options{HashMB: 1}).ReviewGame(context.Background(), start, nil, Limits{}); err == nil {
		t.Error("a review without a limit succeeded")
	}
}

// TestReviewOfAWonGame reviews the won position of won_test.go played out
// (forced moves in it, and an end by no legal move): the graph ends at
// Black's full win, and a forced move is worth the position after it.
func TestReviewOfAWonGame(t *testing.T) {
	start := rules.MustParsePosition(wonForBlack)
	g := rules.NewGame(start)
	e := New(Options{HashMB: 2})
	for !g.Over() {
		res, err := e.Search(context.Background(), Request{Position: g.Position(), History: g.History(), Limits: Limits{Depth: 8}})
		if err != nil {
			t.Fatal(err)
		}
		if err := g.Play(res.Move); err != nil {
			t.Fatal(err)
		}
	}
	rv, err := New(Options{HashMB: 2}).ReviewGame(context.Background(), start, g.Moves(), Limits{Depth: 8})
	if err != nil {
		t.Fatal(err)
	}
	n := len(rv.Scores)
	if rv.Scores[n-1] != -ReviewCap || rv.Scores[0] != -ReviewCap {
		t.Errorf("scores %v: want Black's full win (%d) from the start to the end", rv.Scores, -ReviewCap)
	}
	forced := 0
	for i, m := range rv.Moves {
		if pos := replay(start, g.Moves()[:i]); len(pos.Legal()) == 1 {
			forced++
			if rv.Scores[i] != rv.Scores[i+1] || m.Loss != 0 || m.Best != m.Move {
				t.Errorf("forced move %d (%s): score %d then %d, loss %d, best %s", i, m.Move, rv.Scores[i], rv.Scores[i+1], m.Loss, m.Best)
			}
		}
	}
	if forced == 0 {
		t.Error("the game has no forced move: the test needs one")
	}
}

func replay(start rules.Position, moves []rules.Move) rules.Position {
	for _, m := range moves {
		start = start.Play(m)
	}
	return start
}

func TestMoveReviewNumberCountsAsTheRecord(t *testing.T) {
	white := rules.Start(rules.Bashni)
	black := white.WithSideToMove(rules.Black)
	for _, tc := range []struct {
		start rules.Position
		m     MoveReview
		want  string
	}{
		{white, MoveReview{Ply: 0, Mover: rules.White}, "1."},
		{white, MoveReview{Ply: 1, Mover: rules.Black}, "1…"},
		{white, MoveReview{Ply: 8, Mover: rules.White}, "5."},
		{black, MoveReview{Ply: 0, Mover: rules.Black}, "1…"},
		{black, MoveReview{Ply: 1, Mover: rules.White}, "2."},
	} {
		if got := tc.m.Number(tc.start); got != tc.want {
			t.Errorf("ply %d by %v: %q, want %q", tc.m.Ply, tc.m.Mover, got, tc.want)
		}
	}
}
