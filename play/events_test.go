package play

import (
	"context"
	"errors"
	"testing"

	"github.com/bashni/bashni/storage"
)

// A change made under a detached receipt (the Mini App) is handed to the
// service's OwedFunc right after its write, once, with the event its
// write stored: moved, draw offered, draw declined, ended.
func TestDetachedChangesAreHandedOver(t *testing.T) {
	s, _, st := newTestService(t)
	ctx := context.Background()
	g := startGame(t, s)
	var got []storage.GameEvent
	s.OnOwed(func(ctx context.Context, g *Game, ev storage.GameEvent) {
		if ReceiptOf(ctx) != 0 {
			t.Error("the OwedFunc runs under the writer's receipt")
		}
		got = append(got, ev)
	})
	if _, err := s.Move(Detached(ctx), g.ID(), alice.UserID, 0, "c3-d4"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.OfferDraw(Detached(ctx), g.ID(), bob.UserID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AnswerDraw(Detached(ctx), g.ID(), alice.UserID, false); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Move(ctx, g.ID(), bob.UserID, AnyPly, "f6-e5"); err != nil { // not detached: not handed over
		t.Fatal(err)
	}
	if _, err := s.Resign(Detached(ctx), g.ID(), alice.UserID); err != nil {
		t.Fatal(err)
	}
	want := []struct {
		kind string
		by   int64
	}{{storage.EventMoved, 0}, {storage.EventDrawOffered, bob.UserID}, {storage.EventDrawDeclined, alice.UserID}, {storage.EventEnded, 0}}
	if len(got) != len(want) {
		t.Fatalf("handed over %+v; want %v", got, want)
	}
	for i, w := range want {
		if got[i].Kind != w.kind || got[i].By != w.by || got[i].Receipt >= 0 {
			t.Errorf("event %d: %+v; want %s by %d under a receipt of its own", i, got[i], w.kind, w.by)
		}
	}
	rec, err := st.Game(ctx, g.ID())
	if err != nil {
		t.Fatal(err)
	}
	if len(rec.Owed) != 4 || rec.ShowAt.IsZero() {
		t.Errorf("stored: owed %+v, ShowAt %v; want the four events kept until shown", rec.Owed, rec.ShowAt)
	}
}

// An update applied already (its receipt is in the record) is refused
// with an *AppliedError before anything is decided, by a read or a write
// under it in another process; the process that applied it may read and
// write the game again under it.
func TestReceiptAppliedOnce(t *testing.T) {
	s, _, _ := newTestService(t)
	ctx := context.Background()
	g := startGame(t, s)
	first := WithReceipt(ctx, 77)
	if _, err := s.Move(first, g.ID(), alice.UserID, 0, "c3-d4"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Game(first, g.ID()); err != nil {
		t.Errorf("the writer reading its game again: %v", err)
	}
	again := WithReceipt(ctx, 77) // the update delivered again, to another process
	_, err := s.Move(again, g.ID(), alice.UserID, 0, "c3-d4")
	var ae *AppliedError
	if !errors.As(err, &ae) || !errors.Is(err, ErrApplied) || ae.Game.Ply() != 1 {
		t.Fatalf("the move delivered again: %v; want ErrApplied with the game as stored", err)
	}
	if _, err := s.Game(again, g.ID()); !errors.Is(err, ErrApplied) {
		t.Errorf("a read under the receipt delivered again: %v; want ErrApplied", err)
	}
}
