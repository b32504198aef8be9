package versus

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/play/team"
	"github.com/bashni/bashni/rules"
)

// startMatch makes club's challenge, accepted by office at pace, and
// returns the game and club's colour in it.
func startMatch(t *testing.T, s *Service, pace time.Duration) (*play.Game, rules.Color) {
	t.Helper()
	ctx := context.Background()
	c, err := s.Challenge(ctx, club, 7)
	if err != nil {
		t.Fatal(err)
	}
	g, err := s.Accept(ctx, c.Code, office, rules.Bashni, pace)
	if err != nil {
		t.Fatal(err)
	}
	if g.Team().Sides[0].Chat == club.Chat {
		return g, rules.White
	}
	return g, rules.Black
}

// A pause holds the pausing group's side only, and the vote of a side to
// move closes when its held time runs out; a resume releases it.
func TestPauseHoldsOnlyItsSide(t *testing.T) {
	ctx := context.Background()
	s, core := newTestService(t)
	_, mine := startMatch(t, s, 24*time.Hour)
	now := core.Now()
	until, paused, err := s.Pause(ctx, club.Chat, true, 3)
	if err != nil || len(paused) != 1 {
		t.Fatalf("pause: %v, %d matches; want the one", err, len(paused))
	}
	g := paused[0]
	if !g.Held(mine, now) || !g.HeldUntil(mine).Equal(until) || g.Held(1-mine, now) {
		t.Errorf("held: the pausing side %v, the other %v; want only the pausing side's", g.HeldUntil(mine), g.HeldUntil(1-mine))
	}
	if c, _ := g.ToMove(); c == mine && (!team.ClosesAt(g).Equal(g.TimeoutAt()) || !g.TimeoutAt().After(until)) {
		t.Errorf("the vote closes %v, the move's time runs out %v; want both after the pause's end %v", team.ClosesAt(g), g.TimeoutAt(), until)
	}
	if _, again, err := s.Pause(ctx, club.Chat, true, 2); err != nil || len(again) != 0 {
		t.Errorf("a shorter pause again: %v, %d matches; want none changed (the other group told once)", err, len(again))
	}
	resumed, err := s.Resume(ctx, club.Chat, true)
	if err != nil || len(resumed) != 1 || resumed[0].Held(mine, now) {
		t.Fatalf("resume: %v, %d matches; want the one released", err, len(resumed))
	}
	if g := resumed[0]; toMove(g) == mine && (!g.TimeoutAt().Equal(now.Add(24*time.Hour)) || !team.ClosesAt(g).Equal(g.TimeoutAt())) {
		t.Errorf("after the resume the move's time runs out %v, its vote closes %v; want the pace's day from its start", g.TimeoutAt(), team.ClosesAt(g))
	}
	if _, err := s.Resume(ctx, club.Chat, true); !errors.Is(err, ErrNotPaused) {
		t.Errorf("resume again: %v, want ErrNotPaused", err)
	}
}

// Only an administrator pauses or resumes, for 1 to MaxPauseDays days;
// a refused pause changes nothing.
func TestPauseRefusals(t *testing.T) {
	ctx := context.Background()
	s, core := newTestService(t)
	g, mine := startMatch(t, s, 24*time.Hour)
	for _, tc := range []struct {
		admin bool
		days  int
		want  error
	}{{false, 3, ErrAdminsOnly}, {true, 0, ErrBadPause}, {true, MaxPauseDays + 1, ErrBadPause}} {
		if _, _, err := s.Pause(ctx, club.Chat, tc.admin, tc.days); !errors.Is(err, tc.want) {
			t.Errorf("pause (admin %v) for %d days: %v, want %v", tc.admin, tc.days, err, tc.want)
		}
	}
	if _, err := s.Resume(ctx, club.Chat, false); !errors.Is(err, ErrAdminsOnly) {
		t.Errorf("a member's resume: %v, want ErrAdminsOnly", err)
	}
	g, err := core.Game(ctx, g.ID())
	if err != nil || !g.HeldUntil(mine).IsZero() {
		t.Errorf("after the refusals the side is held until %v (%v); want never", g.HeldUntil(mine), err)
	}
	if _, _, err := s.Pause(ctx, club.Chat, true, MaxPauseDays); err != nil {
		t.Errorf("a pause of the most days: %v", err)
	}
}

// A match at an hour a move is played through an evening: not paused.
func TestPauseNotHourly(t *testing.T) {
	s, _ := newTestService(t)
	startMatch(t, s, time.Hour)
	if _, _, err := s.Pause(context.Background(), club.Chat, true, 1); !errors.Is(err, ErrNoMatch) {
		t.Errorf("pausing an hourly match: %v, want ErrNoMatch", err)
	}
}

// toMove is the side to move in g.
func toMove(g *play.Game) rules.Color {
	c, _ := g.ToMove()
	return c
}
