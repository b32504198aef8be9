package play

import (
	"context"
	"errors"
	"sync"
	"testing"
)

// finishedGame is a game Bob resigned.
func finishedGame(t *testing.T, s *Service) *Game {
	t.Helper()
	g := startGame(t, s)
	if _, err := s.Resign(context.Background(), g.rec.ID, bob.UserID); err != nil {
		t.Fatal(err)
	}
	return g
}

// A rematch needs the opponent's consent; one offer per game; a tap after
// the rematch started says so.
func TestRematchIsAnOfferTheOpponentAccepts(t *testing.T) {
	s, _, _ := newTestService(t)
	ctx := context.Background()
	g := finishedGame(t, s)

	out, err := s.Rematch(ctx, g.rec.ID, alice.UserID)
	if err != nil || !out.Offered || out.Game != nil {
		t.Fatalf("Alice's Rematch: %+v, %v; want an offer and no game", out, err)
	}
	if ids, _ := s.store.ActiveGamesByUser(ctx, bob.UserID); len(ids) != 0 {
		t.Fatalf("a game started without Bob's consent: %v", ids)
	}
	for range 3 {
		if _, err := s.Rematch(ctx, g.rec.ID, alice.UserID); !errors.Is(err, ErrRematchOffered) {
			t.Errorf("Alice's Rematch again: %v, want ErrRematchOffered", err)
		}
	}
	if _, err := s.AcceptRematch(ctx, g.rec.ID, alice.UserID); !errors.Is(err, ErrRematchOffered) {
		t.Errorf("Alice accepting her own offer: %v, want ErrRematchOffered", err)
	}
	if _, err := s.Rematch(ctx, g.rec.ID, carol.UserID); !errors.Is(err, ErrNotAPlayer) {
		t.Errorf("Carol's Rematch: %v, want ErrNotAPlayer", err)
	}
	out, err = s.AcceptRematch(ctx, g.rec.ID, bob.UserID)
	if err != nil || out.Game == nil {
		t.Fatalf("Bob accepting: %+v, %v; want the rematch", out, err)
	}
	if out.Game.rec.White != bob || out.Game.rec.Black != alice {
		t.Errorf("rematch %v vs %v, want colours swapped", out.Game.rec.White, out.Game.rec.Black)
	}
	for _, by := range []int64{alice.UserID, bob.UserID} {
		if _, err := s.Rematch(ctx, g.rec.ID, by); !errors.Is(err, ErrRematchStarted) {
			t.Errorf("Rematch by %d after the start: %v, want ErrRematchStarted", by, err)
		}
	}
	if ids, _ := s.store.ActiveGamesByUser(ctx, bob.UserID); len(ids) != 1 {
		t.Errorf("Bob has %d active games, want the 1 rematch", len(ids))
	}
}

// An offer expires like a challenge; declined, it is gone.
func TestRematchOfferExpiresAndCanBeDeclined(t *testing.T) {
	s, clock, _ := newTestService(t)
	ctx := context.Background()
	g := finishedGame(t, s)
	if _, err := s.Rematch(ctx, g.rec.ID, alice.UserID); err != nil {
		t.Fatal(err)
	}
	clock.Advance(s.cfg.ChallengeTTL)
	if _, err := s.AcceptRematch(ctx, g.rec.ID, bob.UserID); !errors.Is(err, ErrNoRematch) {
		t.Errorf("accepting an expired offer: %v, want ErrNoRematch", err)
	}
	out, err := s.Rematch(ctx, g.rec.ID, bob.UserID)
	if err != nil || !out.Offered {
		t.Fatalf("Bob's Rematch after Alice's offer expired: %+v, %v; want a new offer", out, err)
	}
	if _, by, err := s.DeclineRematch(ctx, g.rec.ID, alice.UserID); err != nil || by != bob.UserID {
		t.Errorf("Alice declining: offered by %d, %v; want Bob's offer declined", by, err)
	}
	if _, err := s.AcceptRematch(ctx, g.rec.ID, alice.UserID); !errors.Is(err, ErrNoRematch) {
		t.Errorf("accepting a declined offer: %v, want ErrNoRematch", err)
	}
}

// Both players tapping Rematch at once make one game.
func TestBothRematchAtOnceMakeOneGame(t *testing.T) {
	s, _, _ := newTestService(t)
	ctx := context.Background()
	for range 10 {
		g := finishedGame(t, s)
		var wg sync.WaitGroup
		outs := make([]*RematchOutcome, 2)
		for i, by := range []int64{alice.UserID, bob.UserID} {
			wg.Go(func() {
				out, err := s.Rematch(ctx, g.rec.ID, by)
				if err != nil {
					t.Errorf("Rematch by %d: %v", by, err)
				}
				outs[i] = out
			})
		}
		wg.Wait()
		games := 0
		for _, o := range outs {
			if o != nil && o.Game != nil {
				games++
			}
		}
		if games != 1 {
			t.Fatalf("two taps at once made %d games, want 1", games)
		}
		rematch, err := s.Game(ctx, mustGame(t, s, g.rec.ID).rec.RematchID)
		if err != nil {
			t.Fatal(err)
		}
		// Clear the board for the next round: the rematch ends too.
		if _, err := s.Resign(ctx, rematch.rec.ID, alice.UserID); err != nil {
			t.Fatal(err)
		}
	}
}

// Against the AI there is nobody to ask: the rematch starts at once, once.
func TestRematchAgainstTheAIStartsAtOnce(t *testing.T) {
	s, _, _ := newTestService(t)
	ctx := context.Background()
	g, err := s.NewAIGame(ctx, AIGameRequest{Human: alice, Level: 1, Color: ColorWhite, ChatID: alice.UserID})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Resign(ctx, g.rec.ID, alice.UserID); err != nil {
		t.Fatal(err)
	}
	out, err := s.Rematch(ctx, g.rec.ID, alice.UserID)
	if err != nil || out.Game == nil {
		t.Fatalf("Rematch against the AI: %+v, %v; want a game", out, err)
	}
	if _, err := s.Rematch(ctx, g.rec.ID, alice.UserID); !errors.Is(err, ErrRematchStarted) {
		t.Errorf("a second Rematch: %v, want ErrRematchStarted", err)
	}
}

func mustGame(t *testing.T, s *Service, id string) *Game {
	t.Helper()
	g, err := s.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return g
}
