package manners

import (
	"context"
	"errors"
	"testing"

	"github.com/bashni/bashni/play"
)

// A game between people is aborted by either player before both have
// moved, and then no longer; it ends with no result.
func TestAbort(t *testing.T) {
	r := newTestReplica(t)
	ctx := context.Background()
	g := r.start(t, alice, bob, nil)
	r.move(t, g.ID(), alice.UserID, "c3-d4")
	if _, err := r.Abort(ctx, g.ID(), 99); !errors.Is(err, play.ErrNotAPlayer) {
		t.Errorf("a stranger's abort: %v, want ErrNotAPlayer", err)
	}
	ended, err := r.Abort(ctx, g.ID(), bob.UserID)
	if err != nil {
		t.Fatal(err)
	}
	if !ended.Aborted() || ended.Active() || ended.Result() != "*" && ended.Result() != "" {
		t.Errorf("after Abort: aborted %v, active %v, result %q", ended.Aborted(), ended.Active(), ended.Result())
	}
	if _, err := r.Abort(ctx, g.ID(), alice.UserID); !errors.Is(err, play.ErrGameOver) {
		t.Errorf("abort of an ended game: %v, want ErrGameOver", err)
	}

	late := r.start(t, alice, bob, nil)
	r.move(t, late.ID(), alice.UserID, "c3-d4")
	r.move(t, late.ID(), bob.UserID, "b6-a5")
	if _, err := r.Abort(ctx, late.ID(), alice.UserID); !errors.Is(err, ErrTooLateToAbort) {
		t.Errorf("abort after both moved: %v, want ErrTooLateToAbort", err)
	}
	if !r.game(t, late.ID()).Active() {
		t.Error("a refused abort ended the game")
	}
	vsAI := r.start(t, alice, robot, nil)
	if _, err := r.Abort(ctx, vsAI.ID(), alice.UserID); !errors.Is(err, ErrNotBetweenPeople) {
		t.Errorf("abort against the AI: %v, want ErrNotBetweenPeople", err)
	}
}
