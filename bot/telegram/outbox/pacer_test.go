package outbox_test

import (
	"context"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/storage/redis/redistest"
)

// Two replicas' pacers on one Redis: a card edit older than one either has
// shown is refused; a 429's hold is seen by both.
func TestRedisPacerIsShared(t *testing.T) {
	srv := redistest.Start(t)
	rdb := goredis.NewClient(&goredis.Options{Addr: srv.Addr()})
	defer rdb.Close()
	a := outbox.NewRedisPacer(rdb, "test:", outbox.Options{})
	b := outbox.NewRedisPacer(rdb, "test:", outbox.Options{})
	ctx := t.Context()
	steps := []struct {
		p    *outbox.RedisPacer
		v    int64
		want bool
	}{
		{a, 5, true},  // first shown
		{b, 4, false}, // older than what a showed
		{b, 5, true},  // the same board again (a picker step)
		{a, 7, true},
		{b, 6, false},
	}
	for _, s := range steps {
		got, err := s.p.Fresh(ctx, "card:-1:7", s.v)
		if err != nil || got != s.want {
			t.Errorf("Fresh(version %d): got %v, %v; want %v", s.v, got, err, s.want)
		}
	}
	if err := a.Hold(ctx, "-1", time.Minute); err != nil {
		t.Fatal(err)
	}
	if held, err := rdb.PTTL(ctx, "test:pace:hold:-1").Result(); err != nil || held <= 0 {
		t.Errorf("after a's hold, b's view of the chat: held for %v (%v), want a positive time", held, err)
	}
	// A chat action spends none of a held chat's budget: it is not held.
	if err := b.Wait(ctx, "-1", true, true); err != nil {
		t.Errorf("unpaced Wait on a held chat: %v", err)
	}
}

// A board drawn at send time is shown once a version, whichever replica
// draws it; a board decided earlier (a picker step) may show the same
// version again, and after it the drawn board may too.
func TestRedisPacerDrawnOnceAVersion(t *testing.T) {
	db := redistest.New(t)
	rdb := db.Client(t)
	a := outbox.NewRedisPacer(rdb, "test:", outbox.Options{})
	b := outbox.NewRedisPacer(rdb, "test:", outbox.Options{})
	ctx := t.Context()
	steps := []struct {
		what  string
		drawn bool
		fp    string
		p     *outbox.RedisPacer
		v     int64
		want  bool
	}{
		{"a draws 5", true, "x", a, 5, true},
		{"b draws 5 too", true, "x", b, 5, false},
		{"b's picker step at 5", false, "", b, 5, true},
		{"a draws 5 after it", true, "x", a, 5, true},
		{"b draws 4", true, "w", b, 4, false},
		{"b draws 6", true, "y", b, 6, true},
		{"a draws 7, the same board (a notice's id stored)", true, "y", a, 7, false},
		{"b draws 6 after it", true, "y", b, 6, false},
		{"b draws 8, a new board", true, "z", b, 8, true},
		{"a draws 9 unfingerprinted", true, "", a, 9, true},
		{"b draws 9 unfingerprinted", true, "", b, 9, false},
	}
	for _, s := range steps {
		check := s.p.Fresh
		if s.drawn {
			check = func(ctx context.Context, key string, v int64) (bool, error) { return s.p.Drawn(ctx, key, v, s.fp) }
		}
		if got, err := check(ctx, "card:-1:8", s.v); err != nil || got != s.want {
			t.Errorf("%s: got %v, %v; want %v", s.what, got, err, s.want)
		}
	}
}
