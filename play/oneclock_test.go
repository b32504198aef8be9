package play

import (
	"errors"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/storage"
)

// The service and its store decide about time by one clock. With that clock
// years away from the machine's, in either direction, a challenge accepted a
// minute after it was made still starts a game, and one accepted after its
// time is up does not. Before the store took the service's clock, the store
// read the machine's own and the two disagreed about what had expired.
func TestOneClockForServiceAndStore(t *testing.T) {
	for name, open := range replicaStores {
		for _, years := range []int{-3, 5, 30} {
			t.Run(name+"/"+time.Now().AddDate(years, 0, 0).Format("2006"), func(t *testing.T) {
				clock := testkit.NewClock(time.Now().AddDate(years, 0, 0))
				s := New(open(t, clock.Now), nil, DefaultConfig, clock.Now)
				ctx := t.Context()

				c, err := s.Challenge(ctx, ChallengeRequest{ChatID: -100, From: alice, Color: ColorWhite})
				if err != nil {
					t.Fatal(err)
				}
				clock.Advance(time.Minute)
				g, err := s.Accept(ctx, c.ID, bob, "bob")
				if err != nil {
					t.Fatalf("accepted a minute after it was made: %v", err)
				}
				if !g.rec.Active() {
					t.Fatalf("the game is %s, want active", g.rec.Status)
				}

				late, err := s.Challenge(ctx, ChallengeRequest{ChatID: -100, From: alice, Color: ColorWhite})
				if err != nil {
					t.Fatal(err)
				}
				clock.Advance(DefaultConfig.ChallengeTTL + time.Minute)
				if _, err := s.Accept(ctx, late.ID, carol, "carol"); err == nil {
					t.Fatal("a challenge accepted after its time was up started a game")
				}
				if _, err := s.ChallengeByID(ctx, late.ID); !errors.Is(err, storage.ErrNotFound) && err == nil {
					t.Fatal("an expired challenge can still be read")
				}
			})
		}
	}
}
