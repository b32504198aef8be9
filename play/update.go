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
// won the race. decide sees the latest state every time, read from the
// store (never a copy this process remembers: another replica may have
// written since), so it re-checks turn, staleness and the like on each
// attempt.
//
// Under a receipt (WithReceipt) the write also stores the event the change
// makes (events.go), and a receipt the game has had applied already is
// refused with an *AppliedError before decide runs.
func (s *Service) update(ctx context.Context, id string, decide func(g *Game) error) (*Game, error) {
	return s.updateFrom(ctx, id, nil, decide)
}

// updateFrom is update whose first attempt decides on a copy of seen, the
// game as the caller read it a moment ago (Service.Game), instead of
// reading it again: a tap reads its game once, not twice. The
// compare-and-set refuses the copy's write if anyone wrote since, and the
// next attempt reads the game as stored. Only a write proves the copy
// current, so a decision on it that writes nothing (an error, nothing to
// change, a receipt applied) is made again on a fresh read before it is
// returned. seen must be a game as stored (not Mirrored); nil reads.
func (s *Service) updateFrom(ctx context.Context, id string, seen *Game, decide func(g *Game) error) (*Game, error) {
	r := receiptOf(ctx)
	for range maxAttempts {
		g, copied, err := s.attempt(ctx, id, seen)
		seen = nil
		if err != nil {
			return nil, err
		}
		rec := g.rec
		if r != nil && r.applied(rec) {
			if copied {
				continue
			}
			return nil, &AppliedError{Game: g}
		}
		var before *storage.GameRecord
		if r != nil {
			before = rec.Clone()
		}
		aiBefore, wasActive := rec.AIAt, rec.Active()
		if err := decide(g); err != nil {
			if copied {
				continue
			}
			if errors.Is(err, errUnchanged) {
				return g, nil
			}
			return nil, err
		}
		g.rec.UpdatedAt = s.now()
		if wasActive && !g.rec.Active() && owesCount(g.rec) {
			// The end owes its count (rating.go), claimed by this writer.
			g.rec.RateAt = g.rec.UpdatedAt.Add(rateLease)
		}
		if r != nil {
			s.owe(r, before, g.rec, g.owes)
		}
		err = s.store.UpdateGame(ctx, g.rec)
		if errors.Is(err, storage.ErrConflict) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if r != nil {
			r.wrote1(id)
			if r.detached {
				s.handOver(ctx, g, r)
			}
		}
		if claimedAI(aiBefore, g.rec.AIAt) {
			s.oweAI(g.rec.ID)
		}
		return g, nil
	}
	return nil, ErrBusy
}

// attempt is the game one attempt of updateFrom decides on: a copy of
// seen if there is one (copied), else the game as stored.
func (s *Service) attempt(ctx context.Context, id string, seen *Game) (g *Game, copied bool, err error) {
	if seen != nil && !seen.mirror && seen.ID() == id {
		return seen.Clone(), true, nil
	}
	rec, err := s.store.Game(ctx, id)
	if err != nil {
		return nil, false, err
	}
	g, err = s.replays.load(rec)
	return g, false, err
}

// syncRecord copies the rules state into the stored record after a change:
// moves, position, result, and the deadlines of the player now to move.
func (s *Service) syncRecord(g *Game) {
	rec := g.rec
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
		rec.RemindAt, rec.TimeoutAt, rec.NoticeAt, rec.AIAt = timeZero, timeZero, timeZero, timeZero
		rec.DrawOfferBy, rec.DrawDeclinedBy = 0, 0
		return
	}
	s.resetDeadlines(g)
}

// resetDeadlines starts the clock of the player to move: a turn notice
// after NoticeDelay, a reminder after RemindAfter and a loss after
// TimeoutAfter. The AI has no clock; its move is owed (AIAt) instead.
func (s *Service) resetDeadlines(g *Game) {
	rec := g.rec
	rec.Reminders = 0
	c, p := g.ToMove()
	rec.RemindAt, rec.TimeoutAt, rec.NoticeAt = timeZero, timeZero, timeZero
	now := s.now()
	if chatSide(g.rec, p) && s.cfg.TimeoutAfter > 0 {
		// A chat that stops voting loses, as a player who stops moving.
		rec.TimeoutAt = now.Add(s.cfg.TimeoutAfter)
	}
	if chatSide(g.rec, p) && rec.DaysPerMove > 0 {
		// At the game's own pace, from the end of its side's hold (a
		// group's pause).
		rec.TimeoutAt = later(now, g.HeldUntil(c)).Add(g.PerMove())
	}
	if p.AILevel > 0 {
		// The AI has no clock: its move is owed, and this write claims
		// it for the writer (aiturns.go).
		if rec.AIAt.IsZero() {
			rec.AIAt = now.Add(s.aiClaim())
		}
		return
	}
	rec.AIAt = timeZero
	if !p.Human() {
		return
	}
	if s.cfg.NoticeDelay > 0 && rec.ChatID != p.UserID && mirrorChat(rec) != p.UserID {
		// In their own private chat the board itself is the notice (a
		// mirrored game has a card in each player's).
		rec.NoticeAt = now.Add(s.cfg.NoticeDelay)
	}
	if rec.TimeControl != "" {
		flagDeadline(g) // live play: the flag falls, no reminders
		return
	}
	if rec.DaysPerMove > 0 {
		paceDeadlines(g, now) // the game's own pace
		return
	}
	if s.cfg.RemindAfter > 0 {
		rec.RemindAt = now.Add(s.cfg.RemindAfter)
	}
	if s.cfg.TimeoutAfter > 0 {
		rec.TimeoutAt = now.Add(s.cfg.TimeoutAfter)
	}
}

// chatSide reports whether p, to move in the active game rec, is a side no
// one user plays and not the AI: a chat that votes its moves (play/team).
func chatSide(rec *storage.GameRecord, p storage.Player) bool {
	return rec.Active() && p.UserID == 0 && p.AILevel == 0
}
