package play

import (
	"context"
	"errors"
	"slices"

	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// A rematch is an offer the opponent accepts, like a challenge, kept on the
// finished game's record so that the game's compare-and-set decides every
// race: one pending offer per game, at most one rematch game, and two
// players tapping Rematch at once make one game (the second tap finds the
// first one's offer and accepts it). Against the AI there is nobody to ask:
// the rematch starts at once.

// RematchOutcome is what a Rematch tap did: an offer now waits for the
// opponent (Offered), or the rematch game started (Game).
type RematchOutcome struct {
	Old     *Game // the finished game, as stored now
	Offered bool
	Game    *Game
}

// Rematch is a tap on Rematch by user by in finished game id: it offers a
// rematch to the opponent, or accepts the opponent's pending offer. A
// second offer is ErrRematchOffered, a tap after the rematch started
// ErrRematchStarted.
func (s *Service) Rematch(ctx context.Context, id string, by int64) (*RematchOutcome, error) {
	return s.rematch(ctx, id, by, false)
}

// AcceptRematch accepts the opponent's pending rematch offer; without one
// it is ErrNoRematch (ErrRematchOffered for the one who offered).
func (s *Service) AcceptRematch(ctx context.Context, id string, by int64) (*RematchOutcome, error) {
	return s.rematch(ctx, id, by, true)
}

func (s *Service) rematch(ctx context.Context, id string, by int64, acceptOnly bool) (*RematchOutcome, error) {
	out := &RematchOutcome{}
	var started bool
	g, err := s.update(ctx, id, func(g *Game) error {
		out.Offered, started = false, false
		if g.rec.Active() {
			return ErrGameNotOver
		}
		c, ok := g.colorOfAny(by)
		if !ok {
			return ErrNotAPlayer
		}
		if g.rec.RematchID != "" {
			started = true
			return errUnchanged
		}
		pending := g.rec.RematchBy != 0 && s.now().Before(g.rec.RematchUntil)
		switch {
		case !g.Player(c.Opponent()).Human():
			g.rec.RematchID = s.newID() // the AI always agrees
		case pending && g.rec.RematchBy == by:
			return ErrRematchOffered
		case pending:
			g.rec.RematchID = s.newID() // the opponent's offer, accepted
		case acceptOnly:
			return ErrNoRematch
		default:
			g.rec.RematchBy, g.rec.RematchUntil = by, s.now().Add(s.cfg.ChallengeTTL)
			out.Offered = true
			return nil
		}
		g.rec.RematchBy, g.rec.RematchUntil = 0, timeZero
		return nil
	})
	if err != nil {
		return nil, s.startedAlready(ctx, err)
	}
	out.Old = g
	if out.Offered {
		return out, nil
	}
	// Started: by this tap, or before it. A rematch recorded but never
	// created (the process died in between) is created now, so the
	// record never points at nothing.
	ng, err := s.startRematch(ctx, g)
	if err != nil {
		return nil, err
	}
	if started && ng == nil {
		return nil, ErrRematchStarted
	}
	out.Game = ng
	return out, nil
}

// startedAlready is the answer to a tap refused with err: a tap Telegram
// delivers again after a crash cut its replies off, which had started the
// rematch (the finished game has its receipt, *AppliedError), finds the
// rematch game made (now, if the crash came before) and is answered with
// the *AppliedError: the caller shows what the tap owes (EventRematch: the
// rematch's card).
func (s *Service) startedAlready(ctx context.Context, err error) error {
	var ae *AppliedError
	if !errors.As(err, &ae) || ae.Game.rec.RematchID == "" {
		return err
	}
	if _, serr := s.startRematch(ctx, ae.Game); serr != nil {
		return serr
	}
	return err
}

// RematchGame is the game old's rematch started, as stored: a read that is
// never an *AppliedError, for showing the rematch a tap (or the clock)
// owes under the tap's receipt.
func (s *Service) RematchGame(ctx context.Context, old *Game) (*Game, error) {
	if old.rec.RematchID == "" {
		return nil, ErrNoRematch
	}
	rec, err := s.store.Game(ctx, old.rec.RematchID)
	if err != nil {
		return nil, err
	}
	return s.replays.load(rec)
}

// oweRematch makes, for the clock's tick that claimed g's EventRematch
// (its writer died before showing it), the rematch game if the writer died
// before making it too: under the event's receipt, with its card owed, so
// that showing the event posts it. owed without the event if that failed:
// the next tick tries again.
func (s *Service) oweRematch(ctx context.Context, g *Game, owed []storage.GameEvent) []storage.GameEvent {
	for i, ev := range owed {
		if ev.Kind != EventRematch || g.rec.RematchID == "" {
			continue
		}
		if _, err := s.startRematch(WithReceipt(ctx, ev.Receipt), g); err != nil {
			s.log.Warn("rematch game not made", "game", g.rec.ID, "err", err)
			return slices.Delete(slices.Clone(owed), i, i+1)
		}
	}
	return owed
}

// startRematch creates the game old.RematchID names unless it exists; it
// returns nil when it existed already. The game is made with its first
// card owed under the receipt in ctx (the tap's, or the one the clock
// shows the tap's event under): a crash before the card leaves it owed.
func (s *Service) startRematch(ctx context.Context, old *Game) (*Game, error) {
	if _, err := s.store.Game(ctx, old.rec.RematchID); err == nil {
		return nil, nil
	} else if !isNotFound(err) {
		return nil, err
	}
	v, _ := rules.ParseVariant(old.rec.Variant)
	g, err := s.newGame(ctx, newGameSpec{
		id: old.rec.RematchID, variant: v, white: old.rec.Black, black: old.rec.White,
		chatID: old.rec.ChatID, rated: old.rec.Rated, lang: old.rec.Lang, owesCard: true,
		daysPerMove: old.rec.DaysPerMove, // the same pace again
		// A game on an inline message goes on there, as text if it is.
		inline: inlineCard{id: old.rec.InlineMessageID, text: old.rec.InlineText},
	})
	if errors.Is(err, storage.ErrConflict) {
		return nil, nil // another tap created it a moment ago
	}
	return g, err
}

// DeclineRematch answers the pending rematch offer with no (the opponent)
// or withdraws it (the one who offered). It returns the game and who had
// offered. The offer's end is stored with its event, By the one who
// tapped (EventRematchDeclined, or EventRematchWithdrawn for the one who
// offered): the record, which clears the offer, cannot tell the two apart,
// and a crash before the chat is told leaves the words owed.
func (s *Service) DeclineRematch(ctx context.Context, id string, by int64) (*Game, int64, error) {
	var offeredBy int64
	g, err := s.update(ctx, id, func(g *Game) error {
		if _, ok := g.colorOfAny(by); !ok {
			return ErrNotAPlayer
		}
		if g.rec.RematchID != "" {
			return ErrRematchStarted
		}
		if g.rec.RematchBy == 0 || !s.now().Before(g.rec.RematchUntil) {
			return ErrNoRematch
		}
		offeredBy = g.rec.RematchBy
		g.rec.RematchBy, g.rec.RematchUntil = 0, timeZero
		g.owes = storage.GameEvent{Kind: EventRematchDeclined, By: by}
		if by == offeredBy {
			g.owes.Kind = EventRematchWithdrawn
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
	}
	return g, offeredBy, nil
}
