package play

import (
	"context"
	"testing"
	"time"

	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// openBoth plays one move for each side of g, so that it is a game that
// counts (abort.go).
func openBoth(t *testing.T, s *Service, g *Game) {
	t.Helper()
	ctx := context.Background()
	for i, m := range []string{"c3-d4", "f6-e5"} {
		who := g.rec.White.UserID
		if i == 1 {
			who = g.rec.Black.UserID
		}
		if _, err := s.Move(ctx, g.rec.ID, who, AnyPly, m); err != nil {
			t.Fatalf("%s: %v", m, err)
		}
	}
}

// Two accounts farming each other: games resigned, drawn or lost on time
// before both sides have moved end aborted, and no rating, leaderboard
// line or statistic moves, however many they play (issue 38: 1,000 rated
// wins in 24 s before).
func TestUnplayedGamesAbortNotRated(t *testing.T) {
	s, clock, _ := newTestService(t)
	ctx := t.Context()
	ends := []struct {
		name string
		end  func(g *Game)
	}{
		{"resigned at move 0", func(g *Game) {
			if _, err := s.Resign(ctx, g.rec.ID, bob.UserID); err != nil {
				t.Fatal(err)
			}
		}},
		{"resigned after White's first move", func(g *Game) {
			if _, err := s.Move(ctx, g.rec.ID, alice.UserID, AnyPly, "c3-d4"); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Resign(ctx, g.rec.ID, bob.UserID); err != nil {
				t.Fatal(err)
			}
		}},
		{"draw agreed at move 0", func(g *Game) {
			if _, err := s.OfferDraw(ctx, g.rec.ID, alice.UserID); err != nil {
				t.Fatal(err)
			}
			if _, err := s.AnswerDraw(ctx, g.rec.ID, bob.UserID, true); err != nil {
				t.Fatal(err)
			}
		}},
		{"lost on time at move 0", func(g *Game) {
			clock.Advance(DefaultConfig.TimeoutAfter + time.Minute)
			for {
				evs, err := s.Tick(ctx, 10)
				if err != nil {
					t.Fatal(err)
				}
				if len(evs) == 0 {
					break
				}
			}
		}},
	}
	for round := range 25 {
		for _, e := range ends {
			g := startGame(t, s)
			e.end(g)
			got, err := s.Game(ctx, g.rec.ID)
			if err != nil {
				t.Fatal(err)
			}
			if r, why := got.Rules().Result(); !got.Aborted() || got.Active() || r != rules.NoResult || why != rules.Aborted {
				t.Fatalf("round %d, %s: aborted %v, active %v, result %v (%v); want aborted, no result", round, e.name, got.Aborted(), got.Active(), r, why)
			}
			if got.rec.Result != "*" || got.rec.Reason != "aborted" || !got.rec.RateAt.IsZero() {
				t.Fatalf("round %d, %s: stored result %q reason %q, count owed at %v; want *, aborted, none", round, e.name, got.rec.Result, got.rec.Reason, got.rec.RateAt)
			}
		}
	}
	for _, p := range []storage.Player{alice, bob} {
		u, err := s.User(ctx, p.UserID)
		if err == nil && (u.Rating != 0 && u.Rating != StartRating || u.Stats != (storage.Stats{})) {
			t.Errorf("%s after 100 aborted games: rating %v, stats %+v; want unchanged", p.Name, u.Rating, u.Stats)
		}
	}
	for _, scope := range []int64{-100, 0} {
		if top, err := s.Top(ctx, scope, 10); err != nil || len(top) != 0 {
			t.Errorf("leaderboard %d after aborted games: %+v, %v; want empty", scope, top, err)
		}
	}

	// Once both have moved it is a game: rated as ever.
	g := startGame(t, s)
	openBoth(t, s, g)
	if _, err := s.Resign(ctx, g.rec.ID, bob.UserID); err != nil {
		t.Fatal(err)
	}
	ua, _ := s.User(ctx, alice.UserID)
	if ua.Rating <= StartRating || ua.Stats.Games != 1 {
		t.Errorf("alice after a real game won: rating %v, stats %+v; want rated", ua.Rating, ua.Stats)
	}
}
