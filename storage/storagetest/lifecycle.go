package storagetest

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/bashni/bashni/storage"
)

func testLifecycle(t *testing.T, newStore func(t *testing.T) storage.Store) {
	t.Run("Ping", func(t *testing.T) {
		s := newStore(t)
		checkErr(t, "Ping", s.Ping(ctxFor(t)), nil)
		checkErr(t, "Writable", s.Writable(ctxFor(t)), nil)
	})

	t.Run("CanceledContext", func(t *testing.T) {
		s := newStore(t)
		mustCreate(t, s, game("g", 1, 2, 3))
		ctx, cancel := context.WithCancel(ctxFor(t))
		cancel()
		calls := []struct {
			name string
			call func() error
		}{
			{"Game", func() error { _, err := s.Game(ctx, "g"); return err }},
			{"UpdateGame", func() error {
				g := game("g", 1, 2, 3)
				g.Version = 1
				return s.UpdateGame(ctx, g)
			}},
			{"PutUser", func() error { return s.PutUser(ctx, user(1, "x")) }},
			{"MarkUpdate", func() error { _, err := s.MarkUpdate(ctx, 1, time.Minute); return err }},
		}
		for _, c := range calls {
			if err := c.call(); !errors.Is(err, context.Canceled) {
				t.Errorf("%s with a canceled context: got error %v, want context.Canceled", c.name, err)
			}
		}
		if g := mustGame(t, s, "g"); g.Version != 1 {
			t.Errorf("version after a canceled update: got %d, want 1", g.Version)
		}
	})

	t.Run("Closed", func(t *testing.T) {
		s := newStore(t)
		mustCreate(t, s, game("g", 1, 2, 3))
		if err := s.Close(); err != nil {
			t.Fatalf("Close: %v", err)
		}
		_, err := s.Game(ctxFor(t), "g")
		checkErr(t, "Game after Close", err, storage.ErrUnavailable)
		checkErr(t, "Ping after Close", s.Ping(ctxFor(t)), storage.ErrUnavailable)
		checkErr(t, "Writable after Close", s.Writable(ctxFor(t)), storage.ErrUnavailable)
	})
}
