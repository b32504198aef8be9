package manners

import (
	"context"

	"github.com/bashni/bashni/play"
)

// Abort ends game id for userID, one of its two people, before both have
// moved: it ends with no result and counts in no rating or statistics
// (play/abort.go), as lichess does. Once both have moved the game can only
// be resigned or agreed drawn.
func (s *Service) Abort(ctx context.Context, id string, userID int64) (*play.Game, error) {
	return s.core.ChangeGame(ctx, id, func(g *play.Game) error {
		if !g.Active() {
			return play.ErrGameOver
		}
		if !isPlayer(g, userID) {
			return play.ErrNotAPlayer
		}
		if !betweenPeople(g) {
			return ErrNotBetweenPeople
		}
		if !g.Unplayed() {
			return ErrTooLateToAbort
		}
		if _, err := s.core.PlayFor(g, play.Abort); err != nil {
			return err
		}
		return save(g, state{})
	})
}
