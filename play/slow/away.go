package slow

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
)

// Allowance is the absence a player may take in a calendar year: 30 days.
// Enough for a summer holiday and a week or two of illness or travel,
// which is what correspondence players ask it for; and it bounds how long
// one player can stall a game beyond its pace, so that an opponent is
// never kept waiting for more than a month a year. An absence counts in
// the year it starts (UTC, the service's clock).
const Allowance = 30 * day

const day = 24 * time.Hour

// Store is what an absence needs of storage: the user's record, changed
// by compare-and-set (play.ChangeUser).
type Store = play.UserStore

// Service keeps absences and the confirmation setting. It is safe for
// concurrent use.
type Service struct {
	core  *play.Service
	users Store
	now   func() time.Time
}

// New returns slow play's service over core, with users for the records;
// now is the one clock (the core's).
func New(core *play.Service, users Store, now func() time.Time) *Service {
	return &Service{core: core, users: users, now: now}
}

// ParseDays reads an absence's length, "5d" or "5" (1..30 days).
func ParseDays(s string) (time.Duration, error) {
	n := strings.TrimSuffix(strings.ToLower(strings.TrimSpace(s)), "d")
	days, err := strconv.Atoi(n)
	if err != nil || days < 1 || time.Duration(days)*day > Allowance {
		return 0, fmt.Errorf("%w: %q", ErrBadAway, s)
	}
	return time.Duration(days) * day, nil
}

// Absence is an absence in force and the games whose clock it holds.
type Absence struct {
	Until time.Time
	Left  time.Duration // what is left of the year's allowance
	// Held are the player's games at a pace whose clock this absence
	// holds; the opponents are to be told.
	Held []*play.Game
}

// Away announces userID's absence of length d from now: the allowance is
// charged, and their clock in every game at a pace is held until its end.
// by names the announcing command (storage.SlowPlay.AwayBy): the same
// command again (redelivered after a crash) announces the same absence
// and charges nothing more. An absence already running is replaced from
// now, charged (or refunded) the difference.
func (s *Service) Away(ctx context.Context, userID int64, d time.Duration, by string) (*Absence, error) {
	if d <= 0 || d > Allowance {
		return nil, ErrBadAway
	}
	now := s.now()
	var a Absence
	_, err := play.ChangeUser(ctx, s.users, userID, func(u *play.User) error {
		sp := &u.Slow
		rollYear(u, now)
		if sp.AwayBy == by && now.Before(sp.AwayUntil) {
			a.Until, a.Left = sp.AwayUntil, Allowance-sp.Used
			return play.Unchanged // this very command, again
		}
		until := now.Add(d)
		charge := until.Sub(later(now, sp.AwayUntil))
		if sp.Used+charge > Allowance {
			return fmt.Errorf("%w (%d of %d days left)", ErrAllowance, int((Allowance-sp.Used)/day), int(Allowance/day))
		}
		sp.Used += charge
		sp.AwayUntil, sp.AwayBy = until, by
		a.Until, a.Left = until, Allowance-sp.Used
		return nil
	})
	if err != nil {
		return nil, err
	}
	a.Held, err = s.holdAll(ctx, userID, a.Until)
	return &a, err
}

// Back ends userID's absence now (they moved, or said so): the unused
// part goes back to the allowance, and the clocks it held run again. It
// returns the games whose clock it released.
func (s *Service) Back(ctx context.Context, userID int64) ([]*play.Game, error) {
	now := s.now()
	_, err := play.ChangeUser(ctx, s.users, userID, func(u *play.User) error {
		sp := &u.Slow
		if !now.Before(sp.AwayUntil) {
			return ErrNotAway
		}
		if sp.Year == now.UTC().Year() {
			sp.Used -= sp.AwayUntil.Sub(now)
		}
		sp.AwayUntil, sp.AwayBy = time.Time{}, ""
		return nil
	})
	if err != nil {
		return nil, err
	}
	return s.each(ctx, userID, func(g *play.Game, c rules.Color) bool { return g.Release(c, now) })
}

// IsAway reports whether u is away at now, and until when.
func IsAway(u *play.User, now time.Time) (time.Time, bool) {
	return u.Slow.AwayUntil, now.Before(u.Slow.AwayUntil)
}

// Left is what is left of u's allowance at now.
func Left(u *play.User, now time.Time) time.Duration {
	if u.Slow.Year != now.UTC().Year() {
		return Allowance
	}
	return max(Allowance-u.Slow.Used, 0)
}

// Now is the service's clock.
func (s *Service) Now() time.Time { return s.now() }

// holdAll holds userID's clock until until in each of their games at a
// pace, and returns the games it held.
func (s *Service) holdAll(ctx context.Context, userID int64, until time.Time) ([]*play.Game, error) {
	now := s.now()
	return s.each(ctx, userID, func(g *play.Game, c rules.Color) bool {
		if g.HeldUntil(c).Equal(until) {
			return true // held by this absence before a crash: tell again
		}
		return g.Hold(c, until, now)
	})
}

// each changes userID's side in each of their active games at a pace by
// change, and returns the games it changed (or found as wanted: change
// reports true without changing anything is written anyway, as nothing).
func (s *Service) each(ctx context.Context, userID int64, change func(g *play.Game, c rules.Color) bool) ([]*play.Game, error) {
	games, err := s.core.ActiveGames(ctx, userID, 0)
	if err != nil {
		return nil, err
	}
	var done []*play.Game
	var failed []error
	for _, g := range games {
		if g.DaysPerMove() == 0 {
			continue // live games and the server's timeout: not held
		}
		hit := false
		ng, err := s.core.ChangeGame(ctx, g.ID(), func(g *play.Game) error {
			c, ok := g.ColorOf(userID)
			if hit = ok && change(g, c); !hit {
				return play.Unchanged
			}
			return nil
		})
		if _, applied := errors.AsType[*play.AppliedError](err); applied {
			continue // the game this very update changed: a move, which released it
		}
		if err != nil {
			failed = append(failed, err)
			continue
		}
		if hit {
			done = append(done, ng)
		}
	}
	return done, errors.Join(failed...)
}

// rollYear starts the year's allowance afresh in a new year.
func rollYear(u *play.User, now time.Time) {
	if y := now.UTC().Year(); u.Slow.Year != y {
		u.Slow.Year, u.Slow.Used = y, 0
	}
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}
