package play

import (
	"context"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// startLive starts a 1+0 game in group -100 (alice White, bob Black), has
// its first card shown, and lets Alice play c3-d4 at once: Bob's turn
// waits for the board showing it. It returns the game after the move.
func startLive(t *testing.T, s *Service) *Game {
	t.Helper()
	ctx := t.Context()
	c, err := s.Challenge(ctx, ChallengeRequest{ChatID: -100, From: alice, Color: ColorWhite, TimeControl: "1+0"})
	if err != nil {
		t.Fatal(err)
	}
	g, err := s.Accept(ctx, c.ID, bob, "bob")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Shown(ctx, g.ID(), g.Version(), -100); err != nil {
		t.Fatal(err)
	}
	out, err := s.Move(ctx, g.ID(), alice.UserID, 0, "c3-d4")
	if err != nil {
		t.Fatal(err)
	}
	if out.Game.rec.Spent[0] != 0 {
		t.Fatalf("Alice's instant move cost %v", out.Game.rec.Spent[0])
	}
	return out.Game
}

// Bob's clock starts when the board showing Alice's move reaches him, the
// first showing of it: the card edit Telegram took, or his Mini App board.
// A delivery that never comes (failed, or held by a 429 past the grace)
// starts it at the latest a grace after the move, and the flag's fall and
// the clock's tick follow the same rule. A showing of an older board, or
// to someone else, starts nothing.
func TestShownStartsTheClockWithinTheGrace(t *testing.T) {
	grace := DefaultConfig.ShowGrace
	type show struct {
		after   time.Duration // after the move
		version int64         // relative to the move's version
		to      int64
	}
	for _, tc := range []struct {
		name  string
		shows []show
		start time.Duration // when Bob's clock starts, after the move
	}{
		{"the card's edit taken", []show{{time.Second, 0, -100}}, time.Second},
		{"a newer board (a notice stored since)", []show{{time.Second, 1, -100}}, time.Second},
		{"his Mini App board first, then the card", []show{{300 * time.Millisecond, 0, bob.UserID}, {2 * time.Second, 0, -100}}, 300 * time.Millisecond},
		{"never shown: the delivery failed", nil, grace},
		{"held by a 429 past the grace", []show{{30 * time.Second, 0, -100}}, grace},
		{"an older board only", []show{{time.Second, -1, -100}}, grace},
		{"Alice's own board", []show{{time.Second, 0, alice.UserID}}, grace},
		{"a spectator's board", []show{{time.Second, 0, 77}}, grace},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, clock, _ := newTestService(t)
			ctx := t.Context()
			g := startLive(t, s)
			moved := clock.Now()
			for _, sh := range tc.shows {
				clock.Advance(moved.Add(sh.after).Sub(clock.Now()))
				if err := s.Shown(ctx, g.ID(), g.Version()+sh.version, sh.to); err != nil {
					t.Fatal(err)
				}
			}
			start := moved.Add(tc.start)
			stored, err := s.Game(ctx, g.ID())
			if err != nil {
				t.Fatal(err)
			}
			if !stored.rec.TurnStart.Equal(start) || !stored.rec.TimeoutAt.Equal(start.Add(time.Minute)) {
				t.Fatalf("Bob's turn starts %v after the move, his flag falls %v after; want %v and %v",
					stored.rec.TurnStart.Sub(moved), stored.rec.TimeoutAt.Sub(moved), tc.start, tc.start+time.Minute)
			}
			if left := stored.Left(rules.Black, clock.Now()); left != time.Minute-max(clock.Now().Sub(start), 0) {
				t.Errorf("Bob's clock shows %v", left)
			}
			// The tick ends the game on time only at that flag.
			clock.Advance(start.Add(time.Minute - time.Millisecond).Sub(clock.Now()))
			if timedOut(t, s) {
				t.Fatal("a tick before the flag ended the game on time")
			}
			clock.Advance(time.Millisecond)
			if !timedOut(t, s) {
				t.Fatal("the tick at the flag: no loss on time")
			}
		})
	}
}

// timedOut ticks s's clock (a turn notice due first is sent on the way)
// and reports whether a game was lost on time.
func timedOut(t *testing.T, s *Service) bool {
	t.Helper()
	for range 3 {
		evs, err := s.Tick(t.Context(), 10)
		if err != nil {
			t.Fatal(err)
		}
		for _, ev := range evs {
			if ev.TimedOut {
				return true
			}
		}
		if len(evs) == 0 {
			return false
		}
	}
	return false
}

// Bob's move is charged from his turn's start: nothing when he moves
// before the board reached him (he saw it by other means), the time since
// it did otherwise.
func TestAMoveIsChargedFromTheBoardShown(t *testing.T) {
	s, clock, _ := newTestService(t)
	ctx := t.Context()
	g := startLive(t, s)
	clock.Advance(3 * time.Second) // the group's pace
	if err := s.Shown(ctx, g.ID(), g.Version(), -100); err != nil {
		t.Fatal(err)
	}
	clock.Advance(700 * time.Millisecond)
	out, err := s.Move(ctx, g.ID(), bob.UserID, 1, "f6-e5")
	if err != nil {
		t.Fatal(err)
	}
	if got := out.Game.rec.Spent[1]; got != 700*time.Millisecond {
		t.Errorf("Bob's move cost %v, want his 700ms", got)
	}
	clock.Advance(time.Second)
	out, err = s.Move(ctx, g.ID(), alice.UserID, 2, "d4:f6")
	if err != nil {
		t.Fatal(err)
	}
	if got := out.Game.rec.Spent[2]; got != 0 {
		t.Errorf("Alice's move before her board was shown cost %v, want nothing", got)
	}
	if out.Game.rec.WhiteLeft != time.Minute || out.Game.rec.BlackLeft != time.Minute-700*time.Millisecond {
		t.Errorf("clocks %v and %v", out.Game.rec.WhiteLeft, out.Game.rec.BlackLeft)
	}
}

// The showing is a fact of the stored game: reported to one replica, it
// is what every replica charges and times out by, and a process started
// afresh on the store (after a crash) too. On bbolt and Redis.
func TestShownHoldsAcrossReplicas(t *testing.T) {
	for name, open := range replicaStores {
		t.Run(name, func(t *testing.T) {
			clock := testkit.NewClock(time.Now())
			st := open(t, clock.Now)
			a := New(st, nil, DefaultConfig, clock.Now)
			b := New(st, nil, DefaultConfig, clock.Now)
			ctx := t.Context()
			g := startLive(t, a)
			clock.Advance(time.Second)
			if err := b.Shown(ctx, g.ID(), g.Version(), -100); err != nil {
				t.Fatal(err)
			}
			shown := clock.Now()
			// A third replica, or this one after a crash, reads it stored.
			c := New(st, nil, DefaultConfig, clock.Now)
			rec, err := st.Game(ctx, g.ID())
			if err != nil {
				t.Fatal(err)
			}
			if !rec.TurnStart.Equal(shown) || rec.TurnVersion != g.Version() {
				t.Fatalf("stored turn start %v after the showing, version %d; want 0, %d", rec.TurnStart.Sub(shown), rec.TurnVersion, g.Version())
			}
			// A late report to a (remembering) replica changes nothing.
			clock.Advance(time.Second)
			if err := a.ShownGame(ctx, g, g.Version(), -100); err != nil {
				t.Fatal(err)
			}
			clock.Advance(time.Minute - time.Second)
			ev, err := c.ClaimTimeout(ctx, g.ID())
			if err != nil || !ev.TimedOut {
				t.Fatalf("the claim at the flag of the shown board: %+v %v", ev, err)
			}
		})
	}
}

// A turn's version and start survive the store's round trip.
func TestTurnVersionIsStored(t *testing.T) {
	for name, open := range replicaStores {
		t.Run(name, func(t *testing.T) {
			now := time.Now().Truncate(time.Millisecond)
			st := open(t, func() time.Time { return now })
			rec := &storage.GameRecord{ID: "g1", Status: storage.GameActive, White: alice, Black: bob,
				TimeControl: "1+0", TurnStart: now, TurnVersion: 3}
			if err := st.CreateGame(context.Background(), rec); err != nil {
				t.Fatal(err)
			}
			got, err := st.Game(context.Background(), "g1")
			if err != nil {
				t.Fatal(err)
			}
			if got.TurnVersion != 3 || !got.TurnStart.Equal(now) {
				t.Errorf("stored %d at %v; want 3 at %v", got.TurnVersion, got.TurnStart, now)
			}
		})
	}
}
