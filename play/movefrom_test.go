package play

import (
	"context"
	"errors"
	"testing"

	"github.com/bashni/bashni/storage"
)

// A move decided on the game as the caller read it is written only if the
// game is still as read: a copy from before the opponent moved is decided
// again on the game as stored, both where the copy would refuse the move
// (not yet Bob's turn on it) and where it would take a move the stored
// game refuses (a board changed since).
func TestMoveFromDecidesAgainOnAStaleCopy(t *testing.T) {
	s, _, _ := newTestService(t)
	ctx := context.Background()
	g := startGame(t, s)
	before, err := s.Game(ctx, g.ID())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Move(ctx, g.ID(), alice.UserID, 0, "c3-d4"); err != nil {
		t.Fatal(err)
	}
	// On the copy it is White's move; as stored, Bob's.
	out, err := s.MoveFrom(ctx, before, bob.UserID, AnyPly, "f6-e5")
	if err != nil {
		t.Fatalf("Bob's typed move on a copy from before Alice's: %v", err)
	}
	if got := out.Game.Rules().Record(); got != "1. c3-d4 f6-e5" {
		t.Errorf("after Bob's move: %q, want 1. c3-d4 f6-e5", got)
	}
	// On the copy Alice's c3-d4 at ply 0 is legal; as stored, it is stale.
	if _, err := s.MoveFrom(ctx, before, alice.UserID, 0, "c3-d4"); !errors.Is(err, ErrStale) {
		t.Fatalf("Alice's tap on the board of ply 0 at ply 2: %v, want ErrStale", err)
	}
	stored, err := s.Game(ctx, g.ID())
	if err != nil {
		t.Fatal(err)
	}
	if got := stored.Rules().Record(); got != "1. c3-d4 f6-e5" {
		t.Errorf("stored: %q, want 1. c3-d4 f6-e5", got)
	}
	// The caller's copy is left as it was read.
	if before.Ply() != 0 {
		t.Errorf("the caller's game moved to ply %d", before.Ply())
	}
}

// A mirrored game (a tournament game's second card, its record naming
// Black's chat) is never written: MoveFrom reads the game as stored.
func TestMoveFromNeverWritesAMirror(t *testing.T) {
	s, _, _ := newTestService(t)
	ctx := context.Background()
	g := startGame(t, s)
	read, err := s.Game(ctx, g.ID())
	if err != nil {
		t.Fatal(err)
	}
	read.rec.Link = &storage.GameLink{ChatID: -5, ID: "t1", MirrorChat: 777}
	mirror, ok := read.Mirrored()
	if !ok || mirror.ChatID() != 777 {
		t.Fatalf("Mirrored: %v in chat %d", ok, mirror.ChatID())
	}
	out, err := s.MoveFrom(ctx, mirror, alice.UserID, 0, "c3-d4")
	if err != nil {
		t.Fatal(err)
	}
	if out.Game.ChatID() != g.ChatID() {
		t.Errorf("the move wrote chat %d, want the game's own %d", out.Game.ChatID(), g.ChatID())
	}
}
