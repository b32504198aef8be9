package play

import (
	"context"
	"errors"
	"testing"
	"time"
)

// Every action on a live game whose flag has fallen settles the loss on
// time first, and is refused: the fallen flag cannot be drawn, resigned
// or moved past. Only the first action reports the event; the clock's
// tick finds nothing left.
func TestActionsAfterTheFlagSettleTheLoss(t *testing.T) {
	for _, tc := range []struct {
		name   string
		offer  bool // White offers a draw before the flag falls
		action func(s *Service, id string) error
	}{
		{"accept a draw", true, func(s *Service, id string) error {
			_, err := s.AnswerDraw(context.Background(), id, bob.UserID, true)
			return err
		}},
		{"decline a draw", true, func(s *Service, id string) error {
			_, err := s.AnswerDraw(context.Background(), id, bob.UserID, false)
			return err
		}},
		{"offer a draw", false, func(s *Service, id string) error {
			_, err := s.OfferDraw(context.Background(), id, bob.UserID)
			return err
		}},
		{"resign (the other side)", false, func(s *Service, id string) error {
			_, err := s.Resign(context.Background(), id, alice.UserID)
			return err
		}},
		{"move", false, func(s *Service, id string) error {
			_, err := s.Move(context.Background(), id, bob.UserID, AnyPly, "f6-e5")
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, clock, _ := newTestService(t)
			ctx := context.Background()
			c, err := s.Challenge(ctx, ChallengeRequest{ChatID: -100, From: alice, Color: ColorWhite, TimeControl: "1+0"})
			if err != nil {
				t.Fatal(err)
			}
			g, err := s.Accept(ctx, c.ID, bob, "bob")
			if err != nil {
				t.Fatal(err)
			}
			id := g.ID()
			out, err := s.Move(ctx, id, alice.UserID, 0, "c3-d4")
			if err != nil {
				t.Fatal(err)
			}
			// The card shows the move: Black's clock starts (shown.go).
			if err := s.Shown(ctx, id, out.Game.Version(), -100); err != nil {
				t.Fatal(err)
			}
			if tc.offer {
				if _, err := s.OfferDraw(ctx, id, alice.UserID); err != nil {
					t.Fatal(err)
				}
			}
			clock.Advance(time.Minute) // Black's flag falls: the clock's tick has not run
			err = tc.action(s, id)
			var tu *TimeUpError
			if !errors.As(err, &tu) || !errors.Is(err, ErrGameOver) {
				t.Fatalf("after the flag fell: %v; want a TimeUpError (game over)", err)
			}
			if !tu.Event.TimedOut || tu.Event.Game == nil {
				t.Fatalf("event %+v; want the loss on time", tu.Event)
			}
			g, err = s.Game(ctx, id)
			if err != nil {
				t.Fatal(err)
			}
			// Black never moved: out of time, aborted (abort.go).
			if g.Active() || !g.Aborted() {
				t.Errorf("stored: active %v, %s by %q; want aborted on time", g.Active(), g.Result(), g.Reason())
			}
			// Settled once: another action is refused plainly, the tick
			// and a board's claim find nothing.
			err = tc.action(s, id)
			if !errors.Is(err, ErrGameOver) || errors.As(err, &tu) {
				t.Errorf("the action again: %v; want ErrGameOver without an event", err)
			}
			if events, err := s.Tick(ctx, 10); err != nil || len(events) != 0 {
				t.Errorf("tick: %v %v; want nothing", events, err)
			}
			if ev, err := s.ClaimTimeout(ctx, id); err != nil || ev.TimedOut {
				t.Errorf("claim: %+v %v; want nothing", ev, err)
			}
		})
	}
}

// The AI answers a draw offer in play itself, so every door (the /draw
// command, the Mini App) gets the same answer: declined, nothing stored.
func TestAIDeclinesADrawOffer(t *testing.T) {
	s, _, _ := newTestService(t)
	ctx := context.Background()
	g, err := s.NewAIGame(ctx, AIGameRequest{ChatID: alice.UserID, Human: alice, Level: 1, Color: ColorWhite})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.OfferDraw(ctx, g.ID(), alice.UserID); !errors.Is(err, ErrAIDeclinesDraw) {
		t.Fatalf("a draw offered to the AI: %v; want ErrAIDeclinesDraw", err)
	}
	g, err = s.Game(ctx, g.ID())
	if err != nil {
		t.Fatal(err)
	}
	if g.DrawOfferBy() != 0 || !g.Active() || g.Version() != 1 {
		t.Errorf("after the AI declined: offer by %d, active %v, version %d; want no offer, active, unchanged", g.DrawOfferBy(), g.Active(), g.Version())
	}
}
