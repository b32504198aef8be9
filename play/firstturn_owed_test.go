package play

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/bashni/bashni/storage"
)

// A new game's first card is recorded with the call of its first turn
// owed in the same write (EventFirstTurn, By the player who needs no
// notice): if the process that recorded it dies before making the call
// (its bot never shows the event), any replica's tick hands it over once
// ShowAt has passed; a card recorded again is no new call.
func TestFirstCardOwesTheFirstTurn(t *testing.T) {
	s, clock, st := newTestService(t)
	ctx := context.Background()
	g := startGame(t, s)
	dead := New(st, nil, DefaultConfig, clock.Now)
	dead.OnOwed(func(context.Context, *Game, storage.GameEvent) {}) // killed before showing it
	if _, err := dead.SetFirstCard(Detached(ctx), g.ID(), -100, 7, bob.UserID); err != nil {
		t.Fatal(err)
	}
	isCall := func(e storage.GameEvent) bool { return e.Kind == EventFirstTurn && e.By == bob.UserID }
	if got := mustGame(t, s, g.ID()); got.MessageID() != 7 || !slices.ContainsFunc(got.Owed(), isCall) {
		t.Fatalf("after the record: card %d, owed %v; want card 7 and the first turn's call", got.MessageID(), got.Owed())
	}
	if evs, err := s.Tick(ctx, 100); err != nil || len(evs) != 0 {
		t.Fatalf("tick within the writer's lease: %+v, %v; want nothing", evs, err)
	}
	clock.Advance(10 * time.Second)
	evs, err := s.Tick(ctx, 100)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 1 || !slices.ContainsFunc(evs[0].Owed, isCall) {
		t.Fatalf("tick past ShowAt: %+v; want the first turn's call handed over", evs)
	}
	// The same card recorded again (a process that took the send over
	// after the record): nothing new is owed.
	before := mustGame(t, s, g.ID()).Version()
	if _, err := s.SetFirstCard(Detached(ctx), g.ID(), -100, 7, bob.UserID); err != nil {
		t.Fatal(err)
	}
	if v := mustGame(t, s, g.ID()).Version(); v != before {
		t.Errorf("the card recorded again wrote the game (version %d → %d)", before, v)
	}
}
