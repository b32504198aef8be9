package play

import (
	"errors"
	"slices"
	"testing"
)

// Two replicas share a store: what one remembers of a game goes out of date
// when the other writes. A decision on the remembered state must never be
// the answer: a tap on the new board is taken, a tap on the old one is
// stale, and a notice swap returns the notice really stored.
func TestUpdateDoesNotTrustARememberedGame(t *testing.T) {
	a, clock, st := newTestService(t)
	b := New(st, nil, DefaultConfig, clock.Now)
	ctx := t.Context()
	g := startGame(t, a)
	if _, err := a.Move(ctx, g.rec.ID, alice.UserID, 0, "c3-d4"); err != nil {
		t.Fatal(err)
	}
	// b plays Bob's reply and records Alice's notice; a saw neither.
	if _, err := b.Move(ctx, g.rec.ID, bob.UserID, 1, "f6-e5"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.SetNotice(ctx, g.rec.ID, alice.UserID, -7); err != nil {
		t.Fatal(err)
	}

	if prev, err := a.SetNotice(ctx, g.rec.ID, alice.UserID, -8); err != nil || prev != -7 {
		t.Errorf("SetNotice on the replica that missed a write: previous %d, %v; want -7", prev, err)
	}
	if _, err := a.Move(ctx, g.rec.ID, alice.UserID, 1, "d4:f6"); !errors.Is(err, ErrStale) {
		t.Errorf("a tap on the old board: %v, want ErrStale", err)
	}
	out, err := a.Move(ctx, g.rec.ID, alice.UserID, 2, "d4:f6")
	if err != nil {
		t.Fatalf("a tap on the board as it is: %v", err)
	}
	if out.MoverNotice != -8 {
		t.Errorf("MoverNotice %d, want -8", out.MoverNotice)
	}
	stored, err := st.Game(ctx, g.rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"c3-d4", "f6-e5", "d4:f6"}; !slices.Equal(stored.Moves, want) {
		t.Errorf("stored moves %q, want %q", stored.Moves, want)
	}
}
