package play

import (
	"context"

	"github.com/bashni/bashni/rules"
)

// Help a player may take in a game against the AI.
const (
	// HintsPerGame is how many hints a game allows: enough to get
	// unstuck, too few to let the engine play the game.
	HintsPerGame = 3
	// TakebacksPerGame is how many full moves a game lets be taken back.
	TakebacksPerGame = 3
)

// Hint is the engine's suggestion for the player to move.
type Hint struct {
	Game *Game
	Move rules.Move
	Left int // hints left after this one
}

// Takeback undoes userID's last full move in a game against the AI (their
// move and the AI's answer), on their turn. The game becomes casual: it
// counts in no statistics. ply is the board the player saw, or AnyPly.
func (s *Service) Takeback(ctx context.Context, id string, userID int64, ply int) (*Outcome, error) {
	var out Outcome
	g, err := s.act(ctx, id, func(g *Game) error {
		if err := humanTurnVsAI(g, userID); err != nil {
			return err
		}
		if ply != AnyPly && ply != g.Ply() {
			return ErrStale
		}
		if g.rec.Takebacks >= TakebacksPerGame {
			return ErrNoTakebacksLeft
		}
		// The human's last move is two plies back, behind the AI's
		// answer; a game the AI opened has none at ply 1.
		if g.Ply() < 2 {
			return ErrNoTakeback
		}
		for range 2 {
			if err := g.rules.Undo(); err != nil {
				return err
			}
		}
		g.rec.Takebacks++
		g.rec.Casual = true
		g.rec.DrawOfferBy = 0
		s.syncRecord(g)
		return nil
	})
	if err != nil {
		return nil, err
	}
	out.Game = g
	return &out, nil
}

// humanTurnVsAI checks that g is a game against the AI in progress where
// it is userID's move.
func humanTurnVsAI(g *Game, userID int64) error {
	if !g.rec.Active() {
		return ErrGameOver
	}
	c, ok := g.ColorOf(userID)
	if !ok {
		return ErrNotAPlayer
	}
	if !g.AgainstAI() {
		return ErrNotAgainstAI
	}
	if toMove, _ := g.ToMove(); toMove != c {
		return ErrNotYourTurn
	}
	return nil
}
