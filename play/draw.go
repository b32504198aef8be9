package play

import (
	"context"
	"errors"

	"github.com/bashni/bashni/rules"
)

// Resign ends game id: user loses.
func (s *Service) Resign(ctx context.Context, id string, userID int64) (*Outcome, error) {
	return s.end(ctx, id, func(g *Game) error {
		c, ok := g.colorOfAny(userID)
		if !ok {
			return ErrNotAPlayer
		}
		return g.conclude(func(r *rules.Game) error { return r.Resign(c) })
	})
}

// OfferDraw offers a draw to the opponent. The AI answers an offer at
// once, whichever door it came through (a command, the Mini App): it plays
// on, and the offer is refused with ErrAIDeclinesDraw, nothing stored.
func (s *Service) OfferDraw(ctx context.Context, id string, userID int64) (*Outcome, error) {
	g, err := s.act(ctx, id, func(g *Game) error {
		if !g.rec.Active() {
			return ErrGameOver
		}
		c, ok := g.colorOfAny(userID)
		if !ok {
			return ErrNotAPlayer
		}
		if g.Player(c.Opponent()).AILevel > 0 {
			return ErrAIDeclinesDraw
		}
		if g.rec.DrawOfferBy != 0 {
			return ErrDrawPending
		}
		g.rec.DrawOfferBy, g.rec.DrawDeclinedBy = userID, 0
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &Outcome{Game: g}, nil
}

// AnswerDraw accepts or declines the pending draw offer; only the player it
// was made to may answer.
func (s *Service) AnswerDraw(ctx context.Context, id string, userID int64, accept bool) (*Outcome, error) {
	check := func(g *Game) error {
		if !g.rec.Active() {
			return ErrGameOver
		}
		if _, ok := g.colorOfAny(userID); !ok {
			return ErrNotAPlayer
		}
		if g.rec.DrawOfferBy == 0 {
			return ErrNoDrawOffer
		}
		if g.rec.DrawOfferBy == userID {
			return ErrDrawOfferOwn
		}
		return nil
	}
	if accept {
		return s.end(ctx, id, func(g *Game) error {
			if err := check(g); err != nil {
				return err
			}
			return g.conclude((*rules.Game).AgreeDraw)
		})
	}
	g, err := s.act(ctx, id, func(g *Game) error {
		if err := check(g); err != nil {
			return err
		}
		g.rec.DrawOfferBy, g.rec.DrawDeclinedBy = 0, userID
		return nil
	})
	if err != nil {
		return nil, err
	}
	return &Outcome{Game: g}, nil
}

// end applies a game-ending decision and runs the end-of-game bookkeeping.
func (s *Service) end(ctx context.Context, id string, decide func(g *Game) error) (*Outcome, error) {
	g, err := s.act(ctx, id, func(g *Game) error {
		if !g.rec.Active() {
			return ErrGameOver
		}
		if err := decide(g); err != nil {
			if errors.Is(err, rules.ErrGameOver) {
				return ErrGameOver
			}
			return err
		}
		s.syncRecord(g)
		return nil
	})
	if err != nil {
		return nil, err
	}
	s.finished(ctx, g)
	return &Outcome{Game: g, Ended: true}, nil
}
