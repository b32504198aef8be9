package play

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// Correspondence at a pace chosen per game ("days per move", as lichess's
// days per turn): each player has DaysPerMove days for each move, counted
// from when their turn began; they are reminded when half of it is gone
// and again when an eighth is left, and lose on time at its end, as in any
// correspondence game. A game without a pace keeps the server's one
// timeout (Config.TimeoutAfter). A side's clock may be held (Hold): a
// player away; the turn's deadlines then run from the hold's end.

// Paces are the days per move the doors offer as buttons; ParsePace reads
// any number of days from 1 to MaxDaysPerMove.
var Paces = []int{1, 2, 3, 7}

// MaxDaysPerMove is the longest pace a game may have.
const MaxDaysPerMove = 14

// ParsePace reads "Nd": N days per move (1..MaxDaysPerMove).
func ParsePace(s string) (int, error) {
	n, ok := strings.CutSuffix(strings.ToLower(strings.TrimSpace(s)), "d")
	days, err := strconv.Atoi(n)
	if !ok || err != nil || days < 1 || days > MaxDaysPerMove {
		return 0, fmt.Errorf("%w: %q", ErrBadPace, s)
	}
	return days, nil
}

// IsPace reports whether s is a pace ParsePace reads.
func IsPace(s string) bool {
	_, err := ParsePace(s)
	return err == nil
}

// checkPace refuses a pace out of range (0 is none).
func checkPace(days int) error {
	if days < 0 || days > MaxDaysPerMove {
		return fmt.Errorf("%w: %dd", ErrBadPace, days)
	}
	return nil
}

// DaysPerMove is the game's pace, 0 when it keeps the server's timeout. A
// game between people at a pace is a correspondence game.
func (g *Game) DaysPerMove() int { return g.rec.DaysPerMove }

// PerMove is the time each move may take at the game's pace, 0 for none.
func (g *Game) PerMove() time.Duration {
	return time.Duration(g.rec.DaysPerMove) * 24 * time.Hour
}

// HeldUntil is when side c's clock runs again, zero if it was never held.
func (g *Game) HeldUntil(c rules.Color) time.Time {
	if c == rules.White {
		return g.rec.HoldWhite
	}
	return g.rec.HoldBlack
}

// Held reports whether side c's clock is stopped at now.
func (g *Game) Held(c rules.Color, now time.Time) bool { return now.Before(g.HeldUntil(c)) }

func (g *Game) setHold(c rules.Color, until time.Time) {
	if c == rules.White {
		g.rec.HoldWhite = until
	} else {
		g.rec.HoldBlack = until
	}
}

// Hold stops side c's clock in a paced game until until (within a
// ChangeGame decide): if c is to move, its deadlines move on by the time
// the hold adds; otherwise its next turn starts at the hold's end. A hold
// never shortens one already set (Release does). It reports whether it
// changed anything: a game without a pace, or ended, has no clock to hold.
func (g *Game) Hold(c rules.Color, until, now time.Time) bool {
	was := g.HeldUntil(c)
	if g.rec.DaysPerMove == 0 || !g.rec.Active() || !until.After(now) || !until.After(was) {
		return false
	}
	g.shiftTurn(c, until.Sub(later(now, was)))
	g.setHold(c, until)
	return true
}

// Release starts side c's clock again at now (the player is back): if c
// is to move, its deadlines come forward by the hold's unused time.
func (g *Game) Release(c rules.Color, now time.Time) bool {
	was := g.HeldUntil(c)
	if was.IsZero() {
		return false
	}
	if now.Before(was) && g.rec.Active() {
		g.shiftTurn(c, -was.Sub(now))
	}
	g.setHold(c, timeZero)
	return true
}

// shiftTurn moves the deadlines of side c's running turn by d, if c is a
// person or a chat voting (a group's pause) to move.
func (g *Game) shiftTurn(c rules.Color, d time.Duration) {
	side, p := g.ToMove()
	if side != c || !p.Human() && !chatSide(g.rec, p) {
		return
	}
	for _, t := range []*time.Time{&g.rec.TimeoutAt, &g.rec.RemindAt} {
		if !t.IsZero() {
			*t = t.Add(d)
		}
	}
}

// later is the later of a and b.
func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// paceDeadlines starts the turn of the person to move in a paced game: it
// runs from now, or from the end of their side's hold; the loss on time
// after the pace, the first reminder when half of it is gone.
func paceDeadlines(g *Game, now time.Time) {
	c, _ := g.ToMove()
	start := later(now, g.HeldUntil(c))
	per := g.PerMove()
	g.rec.TimeoutAt = start.Add(per)
	g.rec.RemindAt = start.Add(per / 2)
}

// paceReminder is the reminder after the first in a paced game: when an
// eighth of the pace is left (3 hours of a day), zero if that has passed.
func paceReminder(g *Game, now time.Time) time.Time {
	next := g.rec.TimeoutAt.Add(-g.PerMove() / 8)
	if !next.After(now) {
		return timeZero
	}
	return next
}

// PaceChallenge sets the pace of open challenge id (days per move, 0 for
// the server's timeout), as its challenger by chose on its card: not on a
// live one. The challenge is rewritten as AttachChallenge does.
func (s *Service) PaceChallenge(ctx context.Context, id string, by int64, days int) (*storage.Challenge, error) {
	c, err := s.ChallengeByID(ctx, id)
	if err != nil {
		return nil, err
	}
	if c.From.UserID != by {
		return nil, ErrNotYourChallenge
	}
	if c.TimeControl != "" {
		return nil, ErrBadPace // a live clock or a pace, not both
	}
	if err := checkPace(days); err != nil {
		return nil, err
	}
	c.DaysPerMove = days
	if err := s.store.PutChallenge(ctx, c); err != nil {
		return nil, err
	}
	return c, nil
}
