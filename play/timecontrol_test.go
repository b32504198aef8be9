package play

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/bashni/bashni/rules"
)

func TestParseTimeControl(t *testing.T) {
	for _, tc := range []struct {
		in        string
		base, inc time.Duration
		ok        bool
	}{
		{"3+2", 3 * time.Minute, 2 * time.Second, true},
		{"15+10", 15 * time.Minute, 10 * time.Second, true},
		{" 5+0 ", 5 * time.Minute, 0, true},
		{"0+2", 0, 0, false}, {"5", 0, 0, false}, {"5+-1", 0, 0, false}, {"181+0", 0, 0, false},
		{"5+61", 0, 0, false}, {"+", 0, 0, false}, {"a+b", 0, 0, false}, {"", 0, 0, false},
	} {
		base, inc, err := ParseTimeControl(tc.in)
		if (err == nil) != tc.ok || base != tc.base || inc != tc.inc {
			t.Errorf("%q: %v %v %v; want %v %v ok %v", tc.in, base, inc, err, tc.base, tc.inc, tc.ok)
		}
		if err != nil && !errors.Is(err, ErrBadTimeControl) {
			t.Errorf("%q: %v is not ErrBadTimeControl", tc.in, err)
		}
	}
}

// A live game: time spent is booked per move with the increment, the flag
// of the side to move is the game's deadline, a move after it is refused,
// and the game ends on time exactly once.
func TestLiveClock(t *testing.T) {
	s, clock, _ := newTestService(t)
	ctx := context.Background()
	c, err := s.Challenge(ctx, ChallengeRequest{ChatID: -100, From: alice, Color: ColorWhite, TimeControl: "3+2"})
	if err != nil {
		t.Fatal(err)
	}
	g, err := s.Accept(ctx, c.ID, bob, "bob")
	if err != nil {
		t.Fatal(err)
	}
	if g.rec.TimeControl != "3+2" || !g.rec.TimeoutAt.Equal(g.rec.TurnStart.Add(3*time.Minute)) || !g.rec.RemindAt.IsZero() {
		t.Fatalf("new game: control %q, timeout %v after turn start, remind %v", g.rec.TimeControl, g.rec.TimeoutAt.Sub(g.rec.TurnStart), g.rec.RemindAt)
	}
	// Each turn's clock starts when its board reaches the group
	// (shown.go): the first card, then the card showing White's move.
	if err := s.Shown(ctx, g.rec.ID, g.Version(), -100); err != nil {
		t.Fatal(err)
	}
	clock.Advance(10 * time.Second)
	out, err := s.Move(ctx, g.rec.ID, alice.UserID, 0, "c3-d4")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Shown(ctx, g.rec.ID, out.Game.Version(), -100); err != nil {
		t.Fatal(err)
	}
	if g, err = s.Game(ctx, g.rec.ID); err != nil {
		t.Fatal(err)
	}
	if want := 3*time.Minute - 10*time.Second + 2*time.Second; g.rec.WhiteLeft != want || len(g.rec.Spent) != 1 || g.rec.Spent[0] != 10*time.Second {
		t.Errorf("after White's move: left %v, spent %v; want %v, [10s]", g.rec.WhiteLeft, g.rec.Spent, want)
	}
	if got := g.Left(rules.Black, clock.Now()); got != 3*time.Minute {
		t.Errorf("Black has %v; want 3m", got)
	}
	if !g.rec.TimeoutAt.Equal(clock.Now().Add(3 * time.Minute)) {
		t.Errorf("Black's flag falls at %v; want in 3m", g.rec.TimeoutAt.Sub(clock.Now()))
	}
	clock.Advance(3*time.Minute + time.Second)
	// The move after the flag fell settles it: refused, the game lost on time.
	_, err = s.Move(ctx, g.rec.ID, bob.UserID, 1, "f6-e5")
	var tu *TimeUpError
	if !errors.Is(err, ErrTimeUp) || !errors.As(err, &tu) || !tu.Event.TimedOut {
		t.Fatalf("a move after the flag fell: %v; want a TimeUpError with the loss on time", err)
	}
	ev := tu.Event
	// Black never moved: out of time, the game is aborted (abort.go).
	if ev.Game.rec.Result != "*" || ev.Game.rec.Reason != "aborted" || ev.Game.rec.BlackLeft != 0 {
		t.Errorf("result %s by %s, Black left %v; want * (aborted), 0", ev.Game.rec.Result, ev.Game.rec.Reason, ev.Game.rec.BlackLeft)
	}
	// Once: neither the tick nor another claim ends it again.
	if events, err := s.Tick(ctx, 10); err != nil || len(events) != 0 {
		t.Errorf("tick after the claim: %v %v; want nothing", events, err)
	}
	if ev, err := s.ClaimTimeout(ctx, g.rec.ID); err != nil || ev.TimedOut {
		t.Errorf("a claim after the move settled it: %+v %v; want nothing", ev, err)
	}
}
