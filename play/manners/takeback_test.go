package manners

import (
	"context"
	"errors"
	"testing"

	"github.com/bashni/bashni/play"
)

// A takeback is asked for by the player who moved last and answered by
// the other: accepted, the move goes and a rated game turns casual;
// declined or overtaken by a move, it lapses and the board stays.
func TestTakeback(t *testing.T) {
	r := newTestReplica(t)
	ctx := context.Background()
	g := r.start(t, alice, bob, nil)
	r.move(t, g.ID(), alice.UserID, "c3-d4")
	if _, err := r.AskTakeback(ctx, g.ID(), bob.UserID); !errors.Is(err, ErrNothingToTake) {
		t.Errorf("Bob, to move, asks: %v, want ErrNothingToTake", err)
	}
	asked, err := r.AskTakeback(ctx, g.ID(), alice.UserID)
	if err != nil {
		t.Fatal(err)
	}
	if by := TakebackAsked(asked); by != alice.UserID {
		t.Errorf("TakebackAsked = %d, want Alice", by)
	}
	if _, err := r.AskTakeback(ctx, g.ID(), alice.UserID); !errors.Is(err, ErrTakebackAsked) {
		t.Errorf("asked twice: %v, want ErrTakebackAsked", err)
	}
	if _, err := r.AnswerTakeback(ctx, g.ID(), alice.UserID, play.AnyPly, true); !errors.Is(err, ErrNotYourAsk) {
		t.Errorf("Alice answers her own: %v, want ErrNotYourAsk", err)
	}
	if _, err := r.AnswerTakeback(ctx, g.ID(), bob.UserID, 0, true); !errors.Is(err, ErrNoTakebackAsk) {
		t.Errorf("an answer on an old board: %v, want ErrNoTakebackAsk", err)
	}
	back, err := r.AnswerTakeback(ctx, g.ID(), bob.UserID, 1, true)
	if err != nil {
		t.Fatal(err)
	}
	if back.Ply() != 0 || back.Rated() || TakebackAsked(back) != 0 {
		t.Errorf("after the takeback: ply %d, rated %v, asked by %d; want 0, false, 0", back.Ply(), back.Rated(), TakebackAsked(back))
	}

	r.move(t, g.ID(), alice.UserID, "c3-d4")
	if _, err := r.AskTakeback(ctx, g.ID(), alice.UserID); err != nil {
		t.Fatal(err)
	}
	declined, err := r.AnswerTakeback(ctx, g.ID(), bob.UserID, play.AnyPly, false)
	if err != nil || declined.Ply() != 1 || TakebackAsked(declined) != 0 {
		t.Fatalf("declined: %v, ply %d, asked by %d", err, declined.Ply(), TakebackAsked(declined))
	}
	if _, err := r.AskTakeback(ctx, g.ID(), alice.UserID); err != nil {
		t.Fatal(err)
	}
	r.move(t, g.ID(), bob.UserID, "b6-a5")
	if by := TakebackAsked(r.game(t, g.ID())); by != 0 {
		t.Errorf("a move left the takeback asked for by %d", by)
	}

	casual := r.start(t, alice, bob, func(s *play.GameSpec) { s.Rated = false })
	r.move(t, casual.ID(), alice.UserID, "c3-d4")
	if _, err := r.AskTakeback(ctx, casual.ID(), alice.UserID); err != nil {
		t.Fatal(err)
	}
	if _, err := r.AnswerTakeback(ctx, casual.ID(), bob.UserID, play.AnyPly, true); err != nil {
		t.Fatal(err)
	}
	vsAI := r.start(t, alice, robot, nil)
	if _, err := r.AskTakeback(ctx, vsAI.ID(), alice.UserID); !errors.Is(err, ErrNotBetweenPeople) {
		t.Errorf("against the AI: %v, want ErrNotBetweenPeople", err)
	}
}
