package play

import (
	"context"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/testkit"
)

// A challenge offered on an inline message as text makes a game that
// knows its card is text (its edits are made as text, never tried as a
// photo Telegram would refuse), and so does its rematch on the same
// message; a game that learns it late (Telegram's refusal) records it
// once. On each store.
func TestInlineTextIsKeptWithTheGame(t *testing.T) {
	ctx := context.Background()
	for name, open := range replicaStores {
		for _, tc := range []struct {
			name   string
			asText bool
		}{{"offered as text", true}, {"offered as a photo", false}} {
			t.Run(name+"/"+tc.name, func(t *testing.T) {
				clock := testkit.NewClock(time.Now())
				s := New(open(t, clock.Now), nil, DefaultConfig, clock.Now)
				c, err := s.Challenge(ctx, ChallengeRequest{From: alice, Color: ColorWhite})
				if err != nil {
					t.Fatal(err)
				}
				g, err := s.AcceptInline(ctx, c.ID, bob, "bob", "inl-"+c.ID, tc.asText)
				if err != nil {
					t.Fatal(err)
				}
				if got := mustGame(t, s, g.ID()).InlineText(); got != tc.asText {
					t.Fatalf("the game's card is text: %v, want %v", got, tc.asText)
				}
				if _, err := s.Resign(ctx, g.ID(), bob.UserID); err != nil {
					t.Fatal(err)
				}
				if _, err := s.Rematch(ctx, g.ID(), alice.UserID); err != nil {
					t.Fatal(err)
				}
				out, err := s.Rematch(ctx, g.ID(), bob.UserID)
				if err != nil || out.Game == nil {
					t.Fatalf("the rematch: %+v, %v", out, err)
				}
				if out.Game.InlineMessageID() != g.InlineMessageID() || out.Game.InlineText() != tc.asText {
					t.Errorf("the rematch's card: %q, text %v; want %q, text %v", out.Game.InlineMessageID(), out.Game.InlineText(), g.InlineMessageID(), tc.asText)
				}

				// Learnt late: recorded once, only for the message it is about.
				if err := s.SetInlineText(ctx, out.Game.ID(), "another"); err != nil || mustGame(t, s, out.Game.ID()).InlineText() != tc.asText {
					t.Errorf("another message's refusal changed the game's card (%v)", err)
				}
				if err := s.SetInlineText(ctx, out.Game.ID(), g.InlineMessageID()); err != nil || !mustGame(t, s, out.Game.ID()).InlineText() {
					t.Errorf("the card's refusal not recorded: %v", err)
				}
				v := mustGame(t, s, out.Game.ID()).Version()
				if err := s.SetInlineText(ctx, out.Game.ID(), g.InlineMessageID()); err != nil || mustGame(t, s, out.Game.ID()).Version() != v {
					t.Errorf("recorded again: %v, version %d → %d", err, v, mustGame(t, s, out.Game.ID()).Version())
				}
			})
		}
	}
}
