package play

import (
	"context"
	"testing"
	"time"

	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// startChatGame starts, through the seam a feature uses, a game chat -100
// plays as White against the AI, with its part of the record (a vote
// closing at closes, which puts the game among the due ones then).
func startChatGame(t *testing.T, s *Service, closes time.Time) *Game {
	t.Helper()
	g, err := s.StartGame(context.Background(), GameSpec{Variant: rules.Bashni, ChatID: -100, Lang: "en",
		White: storage.Player{Name: "The chat"}, Black: storage.Player{Name: AIName(1), AILevel: 1},
		Team: &storage.TeamGame{Window: time.Minute, ClosesAt: closes}})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// A feature's deadline (AddDeadline) is handled by the clock's Tick within
// its write, before the core's: the move it plays is the tick's Played
// event, once; a side that a chat plays loses on time as a player does.
func TestAFeatureDeadlineIsTicked(t *testing.T) {
	s, clock, _ := newTestService(t)
	ctx := context.Background()
	g := startChatGame(t, s, clock.Now().Add(time.Minute))
	if !g.TimeoutAt().Equal(clock.Now().Add(DefaultConfig.TimeoutAfter)) {
		t.Errorf("the chat's timeout %v, want %v from now", g.TimeoutAt(), DefaultConfig.TimeoutAfter)
	}
	calls := 0
	s.AddDeadline(func(g *Game, now time.Time) (*Outcome, error) {
		calls++
		if t := g.Team(); t.ClosesAt.IsZero() || now.Before(t.ClosesAt) {
			return nil, nil
		}
		g.Team().ClosesAt = time.Time{}
		return s.PlayFor(g, "c3-d4")
	})
	if evs, err := s.Tick(ctx, 10); err != nil || len(evs) != 0 || calls != 0 {
		t.Fatalf("Tick before the deadline: %+v, %v, %d calls", evs, err, calls)
	}
	clock.Advance(time.Minute)
	evs, err := s.Tick(ctx, 10)
	if err != nil || len(evs) != 1 || !evs[0].Played || evs[0].Move.String() != "c3-d4" || evs[0].Game.Ply() != 1 {
		t.Fatalf("Tick at the deadline: %+v, %v; want c3-d4 played", evs, err)
	}
	if evs, err := s.Tick(ctx, 10); err != nil || len(evs) != 0 {
		t.Fatalf("Tick after the move: %+v, %v; want nothing", evs, err)
	}
}

// A change a feature makes (ChangeGame) that ends the game counts it, as
// the core's own ends; Unchanged writes nothing.
func TestAFeatureChangeThatEndsTheGameCountsIt(t *testing.T) {
	s, clock, st := newTestService(t)
	finished := 0
	s.hooks.GameFinished = func() { finished++ }
	ctx := context.Background()
	g := startChatGame(t, s, time.Time{})
	same, err := s.ChangeGame(ctx, g.ID(), func(*Game) error { return Unchanged })
	if err != nil || same.Version() != g.Version() {
		t.Fatalf("an unchanged change: version %d to %d, %v", g.Version(), same.Version(), err)
	}
	clock.Advance(time.Second)
	g, err = s.ChangeGame(ctx, g.ID(), func(g *Game) error {
		_, err := s.PlayFor(g, Resign)
		return err
	})
	if err != nil || g.Active() || g.Result() != "0-1" || g.Reason() != rules.Resignation.String() {
		t.Fatalf("the chat resigned: %v, %s %s", err, g.Result(), g.Reason())
	}
	if finished != 1 {
		t.Errorf("the end was counted %d times, want once", finished)
	}
	if rec, _ := st.Game(ctx, g.ID()); !rec.TimeoutAt.IsZero() {
		t.Errorf("the ended game keeps a timeout at %v", rec.TimeoutAt)
	}
}
