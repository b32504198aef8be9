package play

import (
	"context"
	"errors"
	"testing"
)

// A MoveHook's change, a move played for the other side included, is in
// the player's move's own write: one version further, both moves stored,
// and the feature's part of the record with them.
func TestMoveHookWritesWithTheMove(t *testing.T) {
	s, _, _ := newTestService(t)
	ctx := context.Background()
	g, err := s.StartGame(ctx, GameSpec{White: Player{UserID: 1, Name: "A"}, Black: Player{UserID: 2, Name: "B"}, ChatID: -5})
	if err != nil {
		t.Fatal(err)
	}
	s.AfterMove(func(g *Game, o *Outcome) error {
		if g.Ply() != 1 {
			return nil
		}
		answer, err := s.PlayFor(g, "b6-a5")
		if err != nil {
			return err
		}
		o.Move = answer.Move
		return g.SetFeature("test", map[string]int{"answered": g.Ply()})
	})
	before := g.Version()
	o, err := s.Move(ctx, g.ID(), 1, AnyPly, "c3-d4")
	if err != nil {
		t.Fatal(err)
	}
	if o.Move.String() != "b6-a5" {
		t.Errorf("outcome's move %s, want the hook's b6-a5", o.Move)
	}
	got, err := s.Game(ctx, g.ID())
	if err != nil {
		t.Fatal(err)
	}
	if got.Ply() != 2 || got.Version() != before+1 {
		t.Errorf("ply %d, version %d; want 2 in one write (version %d)", got.Ply(), got.Version(), before+1)
	}
	var part map[string]int
	if ok, err := got.Feature("test", &part); !ok || err != nil || part["answered"] != 2 {
		t.Errorf("feature part %v (%v, %v), want answered at 2", part, ok, err)
	}
}

// A hook's error refuses the move: nothing is written.
func TestMoveHookErrorRefusesTheMove(t *testing.T) {
	s, _, _ := newTestService(t)
	ctx := context.Background()
	g, err := s.StartGame(ctx, GameSpec{White: Player{UserID: 1, Name: "A"}, Black: Player{UserID: 2, Name: "B"}, ChatID: -5})
	if err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	s.AfterMove(func(*Game, *Outcome) error { return boom })
	if _, err := s.Move(ctx, g.ID(), 1, AnyPly, "c3-d4"); !errors.Is(err, boom) {
		t.Fatalf("Move = %v, want the hook's error", err)
	}
	if got, _ := s.Game(ctx, g.ID()); got.Ply() != 0 || got.Version() != g.Version() {
		t.Errorf("a refused move wrote: ply %d, version %d", got.Ply(), got.Version())
	}
}

// PlayFor's Abort ends a game no side has moved in with no result, and
// refuses once both have moved; TakeBackFor makes a rated game casual.
func TestAbortAndTakeBackFor(t *testing.T) {
	s, _, _ := newTestService(t)
	ctx := context.Background()
	spec := GameSpec{White: Player{UserID: 1, Name: "A"}, Black: Player{UserID: 2, Name: "B"}, ChatID: -5, Rated: true}
	g, err := s.StartGame(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	ended, err := s.ChangeGame(ctx, g.ID(), func(g *Game) error { _, err := s.PlayFor(g, Abort); return err })
	if err != nil || !ended.Aborted() {
		t.Fatalf("abort at move 0: %v, aborted %v", err, ended != nil && ended.Aborted())
	}
	g, err = s.StartGame(ctx, spec)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []struct {
		by   int64
		move string
	}{{1, "c3-d4"}, {2, "b6-a5"}} {
		if _, err := s.Move(ctx, g.ID(), m.by, AnyPly, m.move); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.ChangeGame(ctx, g.ID(), func(g *Game) error { _, err := s.PlayFor(g, Abort); return err }); err == nil {
		t.Error("abort after both moved was played")
	}
	back, err := s.ChangeGame(ctx, g.ID(), func(g *Game) error { return s.TakeBackFor(g, 1) })
	if err != nil || back.Ply() != 1 || back.Rated() || back.Takebacks() != 1 {
		t.Errorf("TakeBackFor: %v, ply %d, rated %v, takebacks %d", err, back.Ply(), back.Rated(), back.Takebacks())
	}
}
