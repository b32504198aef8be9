package play

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/bashni/bashni/rules"
)

func TestParsePace(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int
		ok   bool
	}{
		{"1d", 1, true}, {"7d", 7, true}, {" 3D ", 3, true}, {"14d", 14, true},
		{"0d", 0, false}, {"15d", 0, false}, {"d", 0, false}, {"1", 0, false}, {"5+3", 0, false}, {"-1d", 0, false}, {"", 0, false},
	} {
		got, err := ParsePace(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParsePace(%q) = %d, %v; want %d, ok %v", tc.in, got, err, tc.want, tc.ok)
		}
		if err != nil && !errors.Is(err, ErrBadPace) {
			t.Errorf("ParsePace(%q): %v, want ErrBadPace", tc.in, err)
		}
	}
}

// startPaced is startGame at days per move.
func startPaced(t *testing.T, s *Service, days int) *Game {
	t.Helper()
	ctx := context.Background()
	c, err := s.Challenge(ctx, ChallengeRequest{ChatID: -100, From: alice, Color: ColorWhite, DaysPerMove: days})
	if err != nil {
		t.Fatal(err)
	}
	g, err := s.Accept(ctx, c.ID, bob, "bob")
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// playFirst plays the first legal move for whoever is to move.
func playFirst(t *testing.T, s *Service, g *Game) *Game {
	t.Helper()
	_, p := g.ToMove()
	out, err := s.Move(context.Background(), g.ID(), p.UserID, AnyPly, g.Rules().Legal()[0].String())
	if err != nil {
		t.Fatal(err)
	}
	return out.Game
}

// tickEvents ticks until nothing is due and counts the reminders and
// timeouts (a tick first claims what earlier changes owe, as nobody here
// shows it).
func tickEvents(t *testing.T, s *Service) (reminders, timeouts int) {
	t.Helper()
	for range 5 {
		evs, err := s.Tick(context.Background(), 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(evs) == 0 {
			break
		}
		for _, ev := range evs {
			if ev.Reminder {
				reminders++
			}
			if ev.TimedOut {
				timeouts++
			}
		}
	}
	return reminders, timeouts
}

// A game at one day per move: the player to move has a day, not the
// server's three; reminded when half of it is gone and when three hours are
// left, and loses on time at its end.
func TestOneDayPerMove(t *testing.T) {
	s, clock, _ := newTestService(t)
	g := startPaced(t, s, 1)
	if g.DaysPerMove() != 1 {
		t.Fatalf("DaysPerMove %d, want 1", g.DaysPerMove())
	}
	g = playFirst(t, s, g)
	g = playFirst(t, s, g) // both have moved: a loss on time is a loss
	if got, want := g.rec.TimeoutAt, clock.Now().Add(24*time.Hour); !got.Equal(want) {
		t.Fatalf("timeout at %v, want a day from the move, %v", got, want)
	}
	clock.Advance(12*time.Hour + time.Minute)
	if r, to := tickEvents(t, s); r != 1 || to != 0 {
		t.Fatalf("half the day gone: %d reminders, %d timeouts; want 1, 0", r, to)
	}
	clock.Advance(9 * time.Hour)
	if r, to := tickEvents(t, s); r != 1 || to != 0 {
		t.Fatalf("three hours left: %d reminders, %d timeouts; want 1, 0", r, to)
	}
	clock.Advance(3 * time.Hour)
	if _, to := tickEvents(t, s); to != 1 {
		t.Fatalf("the day is up: %d timeouts, want 1", to)
	}
	g, _ = s.Game(context.Background(), g.ID())
	if g.Result() != "0-1" || g.Reason() != rules.Timeout.String() {
		t.Errorf("result %s %s, want White lost on time", g.Result(), g.Reason())
	}
}

// A held clock stops: the player to move held for five days loses on time
// only five days after the day was up, and a player back early gets the
// rest of their time, not the hold's.
func TestHeldClockStops(t *testing.T) {
	s, clock, _ := newTestService(t)
	ctx := context.Background()
	g := playFirst(t, s, playFirst(t, s, startPaced(t, s, 1)))
	due := g.rec.TimeoutAt
	clock.Advance(6 * time.Hour)
	g, err := s.ChangeGame(ctx, g.ID(), func(g *Game) error {
		if !g.Hold(rules.White, clock.Now().Add(5*24*time.Hour), clock.Now()) {
			return errors.New("not held")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := g.rec.TimeoutAt, due.Add(5*24*time.Hour); !got.Equal(want) {
		t.Fatalf("held: timeout at %v, want five days later, %v", got, want)
	}
	clock.Advance(24 * time.Hour)
	if _, to := tickEvents(t, s); to != 0 {
		t.Fatal("a held clock ran out")
	}
	if !g.Held(rules.White, clock.Now()) {
		t.Fatal("White's clock is not held")
	}
	// Back after a day: the 18 hours left when the hold began are left.
	g, err = s.ChangeGame(ctx, g.ID(), func(g *Game) error {
		g.Release(rules.White, clock.Now())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := g.rec.TimeoutAt, clock.Now().Add(18*time.Hour); !got.Equal(want) {
		t.Errorf("released: timeout at %v, want 18 h from now, %v", got, want)
	}
}

// A hold of the side not to move starts its next turn at the hold's end;
// its move ends the hold.
func TestHoldDelaysTheNextTurnAndAMoveEndsIt(t *testing.T) {
	s, clock, _ := newTestService(t)
	ctx := context.Background()
	g := playFirst(t, s, startPaced(t, s, 2)) // Black to move
	until := clock.Now().Add(3 * 24 * time.Hour)
	g, err := s.ChangeGame(ctx, g.ID(), func(g *Game) error {
		g.Hold(rules.White, until, clock.Now())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	g = playFirst(t, s, g) // Black moves: White's turn, held
	if got, want := g.rec.TimeoutAt, until.Add(48*time.Hour); !got.Equal(want) {
		t.Fatalf("White's turn: timeout at %v, want two days after the hold, %v", got, want)
	}
	g = playFirst(t, s, g) // White is back
	if !g.HeldUntil(rules.White).IsZero() {
		t.Error("White moved and is still held")
	}
}

// A pace is not for a live game, and out of range it is refused; a game
// without one keeps the server's timeout.
func TestPaceRefusedAndDefaultKept(t *testing.T) {
	s, clock, _ := newTestService(t)
	ctx := context.Background()
	for _, r := range []ChallengeRequest{
		{ChatID: -100, From: alice, DaysPerMove: 15},
		{ChatID: -100, From: alice, DaysPerMove: -1},
		{ChatID: -100, From: alice, DaysPerMove: 1, TimeControl: "5+3"},
	} {
		if _, err := s.Challenge(ctx, r); !errors.Is(err, ErrBadPace) {
			t.Errorf("%+v: %v, want ErrBadPace", r, err)
		}
	}
	g := startGame(t, s)
	if g.DaysPerMove() != 0 || !g.rec.TimeoutAt.Equal(clock.Now().Add(DefaultConfig.TimeoutAfter)) {
		t.Errorf("no pace: %d days, timeout %v; want the server's", g.DaysPerMove(), g.rec.TimeoutAt)
	}
	if g.Hold(rules.White, clock.Now().Add(time.Hour), clock.Now()) {
		t.Error("a game without a pace was held")
	}
}

// A game against the AI may have a pace: the person's turn runs on it.
func TestAIGameAtAPace(t *testing.T) {
	s, clock, _ := newTestService(t)
	g, err := s.NewAIGame(context.Background(), AIGameRequest{ChatID: alice.UserID, Human: alice, Level: 1, Color: ColorWhite, DaysPerMove: 2})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := g.TimeoutAt(), clock.Now().Add(48*time.Hour); g.DaysPerMove() != 2 || !got.Equal(want) {
		t.Errorf("%d days a move, timeout %v; want 2, %v", g.DaysPerMove(), got, want)
	}
	if _, err := s.NewAIGame(context.Background(), AIGameRequest{ChatID: alice.UserID, Human: alice, Level: 1, DaysPerMove: 30}); !errors.Is(err, ErrBadPace) {
		t.Errorf("30 days a move: %v, want ErrBadPace", err)
	}
}
