package versus

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// MaxPauseDays caps a group's pause: a week covers a school holiday or
// an office's closed week, and a longer one would leave the other group
// waiting longer than any match's time for a move is worth; a group away
// for longer leaves its matches instead (/versus leave).
const MaxPauseDays = 7

// Pause stops group chat's clock in its running matches for days days
// (from now), at its administrator's word (admin: the sender administers
// the group), with the core's hold that a player's absence uses
// (play.Game.Hold): the time for the side's move runs on from the hold's
// end. It returns the matches it paused, for the other groups to be told
// once: a pause that changes nothing (as long or shorter than one
// already set) returns none. Matches at an hour a move are played
// through an evening and are not paused.
func (s *Service) Pause(ctx context.Context, chat int64, admin bool, days int) (time.Time, []*play.Game, error) {
	if !admin {
		return time.Time{}, nil, ErrAdminsOnly
	}
	if days < 1 || days > MaxPauseDays {
		return time.Time{}, nil, fmt.Errorf("%w: %d", ErrBadPause, days)
	}
	now := s.core.Now()
	until := now.Add(time.Duration(days) * 24 * time.Hour)
	games, err := s.each(ctx, chat, func(g *play.Game, c rules.Color) bool { return g.Hold(c, until, now) })
	return until, games, err
}

// Resume starts group chat's clock again in the matches it paused, at
// its administrator's word, and returns them.
func (s *Service) Resume(ctx context.Context, chat int64, admin bool) ([]*play.Game, error) {
	if !admin {
		return nil, ErrAdminsOnly
	}
	now := s.core.Now()
	games, err := s.each(ctx, chat, func(g *play.Game, c rules.Color) bool {
		return g.Held(c, now) && g.Release(c, now)
	})
	if err == nil && len(games) == 0 {
		return nil, ErrNotPaused
	}
	return games, err
}

// each changes group chat's side in each of its running matches at days
// a move by change, by compare-and-set, and returns the matches changed.
// The vote of a side to move closes when its time runs out, which the
// hold has just moved: it follows the core's deadline.
func (s *Service) each(ctx context.Context, chat int64, change func(g *play.Game, c rules.Color) bool) ([]*play.Game, error) {
	rec, err := s.Chat(ctx, chat)
	if err != nil {
		return nil, err
	}
	var done []*play.Game
	running := 0
	for _, id := range rec.Playing {
		changed := false
		g, err := s.core.ChangeGame(ctx, id, func(g *play.Game) error {
			changed = false
			t := g.Team()
			if !g.Active() || t == nil || g.DaysPerMove() == 0 {
				return play.Unchanged
			}
			i := slices.IndexFunc(t.Sides, func(s storage.TeamSide) bool { return s.Chat == chat })
			if i < 0 || !change(g, rules.Color(i)) {
				return play.Unchanged
			}
			if c, _ := g.ToMove(); c == rules.Color(i) {
				t.ClosesAt = g.TimeoutAt()
			}
			changed = true
			return nil
		})
		if errors.Is(err, storage.ErrNotFound) {
			continue
		}
		if err != nil {
			return done, err
		}
		if g.Active() && g.DaysPerMove() > 0 {
			running++
		}
		if changed {
			done = append(done, g)
		}
	}
	if running == 0 {
		return nil, ErrNoMatch
	}
	return done, nil
}
