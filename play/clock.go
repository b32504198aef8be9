package play

import (
	"context"
	"errors"
)

// ClockEvent is a reminder sent or a game won on time, found by Tick.
type ClockEvent struct {
	Game     *Game
	Reminder bool // the player to move was reminded
	TimedOut bool // the player to move lost on time
	Notice   bool // the player to move has not moved within NoticeDelay: tell them
}

// Tick handles the games whose deadline has passed: tells the player to
// move that it is their move, reminds them, or ends the game on time. Each deadline is handled exactly once even
// with several bot instances on one store: the compare-and-set that moves
// the deadline on is won by one of them, and only the winner reports the
// event.
func (s *Service) Tick(ctx context.Context, limit int) ([]ClockEvent, error) {
	now := s.now()
	ids, err := s.store.DueGames(ctx, now, limit)
	if err != nil {
		return nil, err
	}
	var events []ClockEvent
	for _, id := range ids {
		var ev ClockEvent
		g, err := s.update(ctx, id, func(g *Game) error {
			ev = ClockEvent{}
			if !g.Active() {
				return errUnchanged
			}
			c, _ := g.ToMove()
			switch {
			case !g.TimeoutAt.IsZero() && !now.Before(g.TimeoutAt):
				if err := g.rules.LoseOnTime(c); err != nil {
					return err
				}
				s.syncRecord(g)
				ev.TimedOut = true
			case !g.RemindAt.IsZero() && !now.Before(g.RemindAt):
				g.NoticeAt = timeZero // the reminder tells them too
				g.Reminders++
				g.RemindAt = now.Add(s.cfg.RemindEvery)
				if !g.TimeoutAt.IsZero() && !g.RemindAt.Before(g.TimeoutAt) {
					g.RemindAt = timeZero // the timeout comes first
				}
				ev.Reminder = true
			case !g.NoticeAt.IsZero() && !now.Before(g.NoticeAt):
				g.NoticeAt = timeZero
				ev.Notice = true
			default:
				return errUnchanged // someone else handled it, or a move reset it
			}
			return nil
		})
		if err != nil {
			if errors.Is(err, ErrBusy) || isNotFound(err) {
				continue
			}
			return events, err
		}
		if !ev.Reminder && !ev.TimedOut && !ev.Notice {
			continue
		}
		ev.Game = g
		if ev.TimedOut {
			s.finished(ctx, g)
		}
		events = append(events, ev)
	}
	return events, nil
}
