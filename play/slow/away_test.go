package slow

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/storage/bolt"
	"github.com/bashni/bashni/storage/redis"
	"github.com/bashni/bashni/storage/redis/redistest"
)

var (
	alice = storage.Player{UserID: 1, Name: "Alice"}
	bob   = storage.Player{UserID: 2, Name: "Bob"}
)

// stores open a store of each kind.
var stores = map[string]func(t *testing.T, now func() time.Time) play.Store{
	"bolt": func(t *testing.T, now func() time.Time) play.Store {
		st, err := bolt.Open(filepath.Join(t.TempDir(), "bashni.db"), now)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	},
	"redis": func(t *testing.T, now func() time.Time) play.Store {
		db := redistest.New(t)
		st := redis.New(db.Client(t), now, redis.WithPrefix(db.Prefix))
		t.Cleanup(func() { st.Close() })
		return st
	},
}

type rig struct {
	core  *play.Service
	slow  *Service
	clock *testkit.Clock
}

func newRig(t *testing.T, open func(t *testing.T, now func() time.Time) play.Store) *rig {
	clock := testkit.NewClock(time.Now())
	st := open(t, clock.Now)
	core := play.New(st, nil, play.DefaultConfig, clock.Now)
	return &rig{core: core, slow: New(core, st, clock.Now), clock: clock}
}

// game starts a game alice (White) against bob at days per move (0: the
// server's timeout, or a live control).
func (r *rig) game(t *testing.T, days int, control string) *play.Game {
	t.Helper()
	ctx := context.Background()
	c, err := r.core.Challenge(ctx, play.ChallengeRequest{ChatID: -100, From: alice, Color: play.ColorWhite, DaysPerMove: days, TimeControl: control})
	if err != nil {
		t.Fatal(err)
	}
	g, err := r.core.Accept(ctx, c.ID, bob, "bob")
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func (r *rig) read(t *testing.T, id string) *play.Game {
	t.Helper()
	g, err := r.core.Game(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// Away holds the player's clock in their games at a pace, and only there:
// a live game and a game at the server's timeout keep their deadlines.
// The same command again announces nothing new and charges nothing.
func TestAwayHoldsPacedGamesOnly(t *testing.T) {
	for name, open := range stores {
		t.Run(name, func(t *testing.T) {
			r := newRig(t, open)
			ctx := context.Background()
			paced, plain, live := r.game(t, 1, ""), r.game(t, 0, ""), r.game(t, 0, "5+3")
			a, err := r.slow.Away(ctx, alice.UserID, 5*day, "-100.7")
			if err != nil {
				t.Fatal(err)
			}
			if len(a.Held) != 1 || a.Held[0].ID() != paced.ID() {
				t.Fatalf("held %d games, want the paced one", len(a.Held))
			}
			if got := r.read(t, paced.ID()).TimeoutAt(); !got.Equal(paced.TimeoutAt().Add(5 * day)) {
				t.Errorf("paced game: timeout %v, want five days later than %v", got, paced.TimeoutAt())
			}
			for _, g := range []*play.Game{plain, live} {
				if got := r.read(t, g.ID()); !got.TimeoutAt().Equal(g.TimeoutAt()) || !got.HeldUntil(rules.White).IsZero() {
					t.Errorf("game without a pace (%q): timeout %v, want %v unchanged", g.TimeControl(), got.TimeoutAt(), g.TimeoutAt())
				}
			}
			if a.Left != Allowance-5*day {
				t.Errorf("left %v, want %v", a.Left, Allowance-5*day)
			}
			r.clock.Advance(time.Minute)
			again, err := r.slow.Away(ctx, alice.UserID, 5*day, "-100.7")
			if err != nil {
				t.Fatal(err)
			}
			if !again.Until.Equal(a.Until) || again.Left != a.Left {
				t.Errorf("the same command again: until %v, left %v; want %v, %v", again.Until, again.Left, a.Until, a.Left)
			}
		})
	}
}

// An absence beyond the year's allowance is refused and changes nothing.
func TestAwayAllowance(t *testing.T) {
	r := newRig(t, stores["bolt"])
	ctx := context.Background()
	g := r.game(t, 2, "")
	if _, err := r.slow.Away(ctx, alice.UserID, 20*day, "a"); err != nil {
		t.Fatal(err)
	}
	r.clock.Advance(20 * day) // the absence taken in full
	before := r.read(t, g.ID()).TimeoutAt()
	if _, err := r.slow.Away(ctx, alice.UserID, 11*day, "b"); !errors.Is(err, ErrAllowance) {
		t.Fatalf("20 days then 11 more: %v, want ErrAllowance", err)
	}
	if got := r.read(t, g.ID()).TimeoutAt(); !got.Equal(before) {
		t.Errorf("a refused absence moved the clock: %v, want %v", got, before)
	}
	if _, err := ParseDays("31d"); !errors.Is(err, ErrBadAway) {
		t.Errorf("31d: %v, want ErrBadAway", err)
	}
	for _, ok := range []string{"1d", "30d", "5"} {
		if _, err := ParseDays(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, bad := range []string{"0d", "", "x", "-2d", "1h"} {
		if _, err := ParseDays(bad); !errors.Is(err, ErrBadAway) {
			t.Errorf("%q: %v, want ErrBadAway", bad, err)
		}
	}
}

// Back early: the clock runs again with the time that was left, and the
// unused days go back to the allowance.
func TestBackReleasesAndRefunds(t *testing.T) {
	r := newRig(t, stores["bolt"])
	ctx := context.Background()
	g := r.game(t, 1, "")
	due := g.TimeoutAt()
	if _, err := r.slow.Away(ctx, alice.UserID, 10*day, "a"); err != nil {
		t.Fatal(err)
	}
	r.clock.Advance(2 * day)
	released, err := r.slow.Back(ctx, alice.UserID)
	if err != nil || len(released) != 1 {
		t.Fatalf("back: %d games released, %v; want 1", len(released), err)
	}
	if got, want := r.read(t, g.ID()).TimeoutAt(), due.Add(2*day); !got.Equal(want) {
		t.Errorf("back after two days: timeout %v, want %v", got, want)
	}
	u, err := r.core.User(ctx, alice.UserID)
	if err != nil {
		t.Fatal(err)
	}
	if got := Left(u, r.clock.Now()); got != Allowance-2*day {
		t.Errorf("allowance left %v, want %v", got, Allowance-2*day)
	}
	if _, err := r.slow.Back(ctx, alice.UserID); !errors.Is(err, ErrNotAway) {
		t.Errorf("back twice: %v, want ErrNotAway", err)
	}
}

// Moves wait for a confirming tap by default in correspondence games, not
// against the AI nor at the server's timeout; the player's choice wins.
func TestConfirmDefaults(t *testing.T) {
	r := newRig(t, stores["bolt"])
	ctx := context.Background()
	corr, plain := r.game(t, 3, ""), r.game(t, 0, "")
	ai, err := r.core.NewAIGame(ctx, play.AIGameRequest{ChatID: alice.UserID, Human: alice, Level: 1, DaysPerMove: 1})
	if err != nil {
		t.Fatal(err)
	}
	u := play.Newcomer(alice.UserID)
	for _, tc := range []struct {
		setting string
		g       *play.Game
		want    bool
	}{
		{ConfirmAuto, corr, true}, {ConfirmAuto, plain, false}, {ConfirmAuto, ai, false},
		{ConfirmOn, ai, true}, {ConfirmOff, corr, false},
	} {
		u.Slow.Confirm = tc.setting
		if got := Confirms(u, tc.g); got != tc.want {
			t.Errorf("setting %q, game %d days/move: %v, want %v", tc.setting, tc.g.DaysPerMove(), got, tc.want)
		}
	}
	if _, err := r.slow.SetConfirm(ctx, alice.UserID, "maybe"); !errors.Is(err, ErrBadConfirm) {
		t.Errorf("a setting of maybe: %v", err)
	}
	got, err := r.slow.SetConfirm(ctx, alice.UserID, ConfirmOff)
	if err != nil || got.Slow.Confirm != ConfirmOff {
		t.Errorf("set off: %q, %v", got.Slow.Confirm, err)
	}
}
