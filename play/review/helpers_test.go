package review

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/storage/bolt"
)

var (
	alice = storage.Player{UserID: 1, Name: "Alice"}
	bob   = storage.Player{UserID: 2, Name: "Bob"}
	carol = storage.Player{UserID: 3, Name: "Carol"}
)

// newTestGames returns a game service on a real bbolt file, a fast real
// engine and a fake clock that starts at the real present; the store and
// the service share it. Reviews are made over the same store.
func newTestGames(t *testing.T) (*play.Service, *testkit.Clock, *bolt.Store) {
	t.Helper()
	clock := testkit.NewClock(time.Now())
	st, err := bolt.Open(filepath.Join(t.TempDir(), "bashni.db"), clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	pool := play.NewEnginePool(1, 1, ai.Limits{Nodes: 2000})
	return play.New(st, pool, play.DefaultConfig, clock.Now), clock, st
}

// startGame opens a challenge from alice (White) to anyone, accepted by bob.
func startGame(t *testing.T, s *play.Service) *play.Game {
	t.Helper()
	ctx := context.Background()
	c, err := s.Challenge(ctx, play.ChallengeRequest{ChatID: -100, From: alice, Color: play.ColorWhite})
	if err != nil {
		t.Fatal(err)
	}
	g, err := s.Accept(ctx, c.ID, bob, "bob")
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// playedAndResigned is a game between Alice and Bob, two moves each way,
// that Alice resigned.
func playedAndResigned(t *testing.T, s *play.Service) *play.Game {
	t.Helper()
	ctx := t.Context()
	g := startGame(t, s)
	for i, m := range []string{"c3-d4", "f6-e5", "d4:f6", "g7:e5"} {
		if _, err := s.Move(ctx, g.ID(), []int64{alice.UserID, bob.UserID}[i%2], play.AnyPly, m); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Resign(ctx, g.ID(), alice.UserID); err != nil {
		t.Fatal(err)
	}
	return g
}

// aiGame starts alice (White) against the AI at level 2.
func aiGame(t *testing.T, s *play.Service) *play.Game {
	t.Helper()
	g, err := s.NewAIGame(context.Background(), play.AIGameRequest{ChatID: 1, Human: alice, Level: 2, Color: play.ColorWhite})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// moveAndAnswer plays text for alice and lets the AI answer.
func moveAndAnswer(t *testing.T, s *play.Service, id, text string) *play.Game {
	t.Helper()
	ctx := context.Background()
	if _, err := s.Move(ctx, id, alice.UserID, play.AnyPly, text); err != nil {
		t.Fatal(err)
	}
	out, err := s.PlayAI(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return out.Game
}
