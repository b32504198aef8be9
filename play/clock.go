package play

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// ClockEvent is a reminder sent or a game won on time, found by Tick.
type ClockEvent struct {
	Game     *Game
	Reminder bool // the player to move was reminded
	TimedOut bool // the player to move lost on time
	Notice   bool // the player to move has not moved within NoticeDelay: tell them
	// Played: a feature's deadline (AddDeadline: a chat's vote that
	// closed on time) played Move for the side that was to move.
	Played bool
	Move   rules.Move
	// Receipt is the receipt the event's change was stored with: the
	// caller commits what it shows with it (events.go).
	Receipt int64
	// Owed are the events of changes whose writer did not show them
	// before their ShowAt (it died): this tick claimed them, and the
	// caller shows them, each committed with its receipt (events.go).
	Owed []storage.GameEvent
	// count: the tick claimed the finished game's count (rating.go).
	count bool
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
	var failed []error
	for _, id := range ids {
		ev, err := s.due(ctx, id, now)
		if err != nil {
			if errors.Is(err, ErrBusy) || isNotFound(err) {
				continue
			}
			// One game that cannot be handled must not hold back the
			// deadlines of the games due after it, tick after tick; a
			// store that is down fails them all, so a few failures in
			// a row end the tick.
			failed = append(failed, fmt.Errorf("play: tick of game %s: %w", id, err))
			if len(failed) >= tickFailures || ctx.Err() != nil {
				break
			}
			continue
		}
		if ev.Reminder || ev.TimedOut || ev.Notice || ev.Played || len(ev.Owed) > 0 {
			events = append(events, ev)
		}
	}
	return events, errors.Join(failed...)
}

// tickFailures is how many games may fail in one tick before it stops.
const tickFailures = 3

// ClaimTimeout ends game id on time if the flag of the side to move has
// fallen, as Tick would: the live board asks when its clock reaches zero,
// rather than waiting for the next tick. Exactly one of any number of
// claims, and of Tick, reports the event; the others get a zero event.
func (s *Service) ClaimTimeout(ctx context.Context, id string) (ClockEvent, error) {
	now := s.now()
	g, err := s.Game(ctx, id)
	if err != nil {
		return ClockEvent{}, err
	}
	if !g.rec.Active() || g.rec.TimeoutAt.IsZero() || now.Before(g.rec.TimeoutAt) {
		return ClockEvent{}, nil // not yet, or someone was first
	}
	ev, err := s.due(ctx, id, now)
	if err != nil || !ev.TimedOut {
		return ClockEvent{}, err
	}
	return ev, nil
}

// due handles game id's deadline if it has passed at now.
func (s *Service) due(ctx context.Context, id string, now time.Time) (ClockEvent, error) {
	if receiptOf(ctx) == nil {
		ctx = withNewReceipt(ctx)
	}
	var ev ClockEvent
	g, err := s.update(ctx, id, func(g *Game) error {
		ev = ClockEvent{}
		return s.decideDue(ctx, g, now, &ev)
	})
	if err != nil {
		return ClockEvent{}, err
	}
	if ev.count {
		s.count(ctx, id)
	}
	return s.dueEvent(ctx, g, ev), nil
}

// decideDue is due's decision on the game as read: what its last writer
// left owed is shown first; otherwise the first of a live game's passed
// deadlines is handled (liveDeadline).
func (s *Service) decideDue(ctx context.Context, g *Game, now time.Time, ev *ClockEvent) error {
	owed, shown, err := s.dueShow(ctx, g, now)
	if err != nil {
		return err
	}
	if passed(g.rec.RateAt, now) {
		// The count its writer owed is not made (a crash): claimed
		// here, made once this write is (due).
		g.rec.RateAt = now.Add(rateLease)
		ev.count, shown = true, true
	}
	if len(owed) > 0 {
		// Claimed: shown first; the rest is for the next tick.
		ev.Owed = owed
		return nil
	}
	unchanged := errUnchanged
	if shown {
		unchanged = nil // the forgotten events are the write
	}
	if !g.rec.Active() {
		return unchanged
	}
	handled, err := s.liveDeadline(g, now, ev)
	if err != nil || !handled {
		return cmp.Or(err, unchanged) // not handled: someone else did, or a move reset it
	}
	return nil
}

// liveDeadline handles the first passed deadline of an active game: a
// feature's own (AddDeadline), a fallen flag, a reminder, a turn notice, or an
// AI move whose claim lapsed. It reports whether one was due.
func (s *Service) liveDeadline(g *Game, now time.Time, ev *ClockEvent) (bool, error) {
	played, err := s.featureDeadline(g, now)
	if err != nil {
		return false, err
	}
	switch {
	case played != nil:
		ev.Played, ev.Move = true, played.Move
	case flagFallen(g, now):
		if err := s.loseOnTime(g); err != nil {
			return false, err
		}
		ev.TimedOut = true
	case passed(g.rec.RemindAt, now):
		s.remind(g, now)
		ev.Reminder = true
	case passed(g.rec.NoticeAt, now):
		g.rec.NoticeAt = timeZero
		ev.Notice = true
	case passed(g.rec.AIAt, now) && g.IsAITurn():
		// The AI's move is owed and whoever claimed it has not made
		// it (a crash): claim it here; update hands it to this
		// process's runner (aiturns.go). Nothing to tell anyone yet.
		g.rec.AIAt = now.Add(s.aiClaim())
	default:
		return false, nil
	}
	return true, nil
}

// passed reports whether deadline is set and not after now.
func passed(deadline, now time.Time) bool {
	return !deadline.IsZero() && !now.Before(deadline)
}

// remind counts a reminder and sets the next one, unless the loss on time
// comes first.
func (s *Service) remind(g *Game, now time.Time) {
	g.rec.NoticeAt = timeZero // the reminder tells them too
	g.rec.Reminders++
	g.rec.RemindAt = now.Add(s.cfg.RemindEvery)
	if g.rec.DaysPerMove > 0 {
		g.rec.RemindAt = paceReminder(g, now)
	}
	if !g.rec.TimeoutAt.IsZero() && !g.rec.RemindAt.Before(g.rec.TimeoutAt) {
		g.rec.RemindAt = timeZero // the timeout comes first
	}
}

// dueEvent is what due tells its caller once the write is made: what was
// owed, or the deadline handled (with the receipt the write carried);
// the zero event when nothing was due. A game the deadline ended is
// rated.
func (s *Service) dueEvent(ctx context.Context, g *Game, ev ClockEvent) ClockEvent {
	if len(ev.Owed) > 0 {
		ev.Game, ev.Owed = g, s.oweRematch(ctx, g, ev.Owed)
		return ev
	}
	if !ev.Reminder && !ev.TimedOut && !ev.Notice && !ev.Played {
		return ClockEvent{}
	}
	ev.Game, ev.Receipt = g, ReceiptOf(ctx)
	if ev.TimedOut || ev.Played && !g.rec.Active() {
		s.finished(ctx, g)
	}
	return ev
}
