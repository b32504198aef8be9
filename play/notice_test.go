package play

import (
	"context"
	"testing"
	"time"
)

// A player who moves within NoticeDelay is never told it is their move; one
// who has not is told once, by exactly one Tick.
func TestNoticeOnlyForAPlayerWhoIsAway(t *testing.T) {
	s, clock, _ := newTestService(t)
	ctx := context.Background()
	g := startGame(t, s)
	notices := func() int {
		t.Helper()
		n := 0
		for range 2 {
			evs, err := s.Tick(ctx, 10)
			if err != nil {
				t.Fatalf("tick: %v", err)
			}
			for _, ev := range evs {
				if ev.Notice {
					n++
				}
				if ev.Reminder || ev.TimedOut {
					t.Errorf("unexpected clock event %+v", ev)
				}
			}
		}
		return n
	}
	delay := DefaultConfig.NoticeDelay
	// Both play live: each moves well within the delay.
	for ply := range 4 {
		clock.Advance(delay / 2)
		if n := notices(); n != 0 {
			t.Fatalf("ply %d: %d notices while the player to move is within the delay", ply, n)
		}
		cur, err := s.Game(ctx, g.rec.ID)
		if err != nil {
			t.Fatal(err)
		}
		_, p := cur.ToMove()
		if _, err := s.Move(ctx, g.rec.ID, p.UserID, cur.Ply(), cur.Rules().Legal()[0].String()); err != nil {
			t.Fatal(err)
		}
	}
	// Then White goes away.
	clock.Advance(delay)
	if n := notices(); n != 1 {
		t.Fatalf("%d notices once White was away for the delay; want 1", n)
	}
	clock.Advance(delay)
	if n := notices(); n != 0 {
		t.Fatalf("%d more notices; want one per turn", n)
	}
}

// With no delay no notice is scheduled: the bot tells the player after
// every move itself.
func TestNoNoticeScheduledWithoutADelay(t *testing.T) {
	_, clock, st := newTestService(t)
	cfg := DefaultConfig
	cfg.NoticeDelay = 0
	s := New(st, nil, cfg, clock.Now)
	g := startGame(t, s)
	if !g.rec.NoticeAt.IsZero() {
		t.Errorf("NoticeAt %v, want none", g.rec.NoticeAt)
	}
	clock.Advance(time.Hour)
	evs, err := s.Tick(context.Background(), 10)
	if err != nil {
		t.Fatal(err)
	}
	if len(evs) != 0 {
		t.Errorf("events %+v, want none", evs)
	}
}
