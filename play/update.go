package play

import (
	"context"
	"errors"

	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// maxAttempts bounds the compare-and-set retries of one operation. Each
// retry follows a write that someone else won, so it is rarely needed more
// than once.
const maxAttempts = 8

// errUnchanged lets a decide function say "nothing to write" without error.
var errUnchanged = errors.New("play: unchanged")

// update reads game id, lets decide change it, and writes it back with a
// compare-and-set, deciding again from a fresh read whenever another writer
// won the race. decide sees the latest state every time, so it re-checks
// turn, staleness and the like on each attempt.
//
// The first attempt starts from the game as this process last read or
// wrote it, which saves a read: the bot has usually just read the game to
// show or check the tap, or written it with the move a notice follows. That
// copy may be out of date, so it only counts if the compare-and-set takes
// it; if decide refuses it or has nothing to write, the answer may be the
// old state's, and the game is read again and decided afresh.
func (s *Service) update(ctx context.Context, id string, decide func(g *Game) error) (*Game, error) {
	for attempt := 0; attempt < maxAttempts; attempt++ {
		var g *Game
		guess := false
		if attempt == 0 {
			g, guess = s.replays.latest(id)
		}
		if !guess {
			rec, err := s.store.Game(ctx, id)
			if err != nil {
				return nil, err
			}
			if g, err = s.replays.load(rec); err != nil {
				return nil, err
			}
		}
		if err := decide(g); err != nil {
			if guess {
				continue
			}
			if errors.Is(err, errUnchanged) {
				return g, nil
			}
			return nil, err
		}
		g.UpdatedAt = s.now()
		err := s.store.UpdateGame(ctx, g.Game)
		if errors.Is(err, storage.ErrConflict) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if g.Active() {
			// Finished games may carry a result the moves alone do not
			// give (resignation, time, agreement): the cache keeps only
			// states a replay of the record would rebuild.
			s.replays.keep(g.Game, g.rules)
		} else {
			s.replays.forget(id)
		}
		return g, nil
	}
	return nil, ErrBusy
}

// syncRecord copies the rules state into the stored record after a change:
// moves, position, result, and the deadlines of the player now to move.
func (s *Service) syncRecord(g *Game) {
	rec := g.Game
	moves := g.rules.Moves()
	rec.Moves = rec.Moves[:0]
	for _, m := range moves {
		rec.Moves = append(rec.Moves, m.String())
	}
	rec.Position = g.rules.Position().String()
	r, why := g.rules.Result()
	if r != rules.Ongoing {
		rec.Status = storage.GameFinished
		rec.Result = r.String()
		rec.Reason = why.String()
		rec.RemindAt, rec.TimeoutAt = timeZero, timeZero
		rec.DrawOfferBy = 0
		return
	}
	s.resetDeadlines(g)
}

// resetDeadlines starts the clock of the player to move: a reminder after
// RemindAfter and a loss after TimeoutAfter. The AI has no clock.
func (s *Service) resetDeadlines(g *Game) {
	rec := g.Game
	rec.Reminders = 0
	_, p := g.ToMove()
	if !p.Human() || s.cfg.TimeoutAfter <= 0 && s.cfg.RemindAfter <= 0 {
		rec.RemindAt, rec.TimeoutAt = timeZero, timeZero
		return
	}
	now := s.now()
	rec.RemindAt, rec.TimeoutAt = timeZero, timeZero
	if s.cfg.RemindAfter > 0 {
		rec.RemindAt = now.Add(s.cfg.RemindAfter)
	}
	if s.cfg.TimeoutAfter > 0 {
		rec.TimeoutAt = now.Add(s.cfg.TimeoutAfter)
	}
}
