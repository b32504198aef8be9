package manners

import (
	"context"

	"github.com/bashni/bashni/play"
)

// A takeback between people is asked for by the player who moved last,
// on the board their move made, and answered by the opponent on the card:
// accepted, the move is taken back (a rated game becomes casual, as
// against the AI: play.Service.TakeBackFor); declined, or overtaken by
// the opponent's move, it lapses.

// AskTakeback asks, for userID, to take back their last move in game id.
func (s *Service) AskTakeback(ctx context.Context, id string, userID int64) (*play.Game, error) {
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
		if _, p := g.ToMove(); p.UserID == userID || g.Ply() == 0 {
			return ErrNothingToTake
		}
		st, err := load(g)
		if err != nil {
			return err
		}
		if st.TakebackBy != 0 && st.TakebackAt == g.Ply() {
			return ErrTakebackAsked
		}
		st.TakebackBy, st.TakebackAt = userID, g.Ply()
		return save(g, st)
	})
}

// AnswerTakeback is the opponent's answer (accept or not) to the takeback
// asked for on the board of version ply of game id (AnyPly: the board as
// it is).
func (s *Service) AnswerTakeback(ctx context.Context, id string, userID int64, ply int, accept bool) (*play.Game, error) {
	return s.core.ChangeGame(ctx, id, func(g *play.Game) error {
		if !g.Active() {
			return play.ErrGameOver
		}
		st, err := load(g)
		if err != nil {
			return err
		}
		if st.TakebackBy == 0 || st.TakebackAt != g.Ply() || ply != play.AnyPly && ply != g.Ply() {
			return ErrNoTakebackAsk
		}
		if !isPlayer(g, userID) {
			return play.ErrNotAPlayer
		}
		if userID == st.TakebackBy {
			return ErrNotYourAsk
		}
		st.TakebackBy, st.TakebackAt = 0, 0
		if accept {
			// The board goes back: a line of conditional moves and an
			// answer shown were for the board as it was.
			st = state{}
			if err := s.core.TakeBackFor(g, 1); err != nil {
				return err
			}
		}
		return save(g, st)
	})
}

// TakebackAsked is who asks to take back their move on g's board as it
// is, 0 for no one.
func TakebackAsked(g *play.Game) int64 {
	st, err := load(g)
	if err != nil || st.TakebackAt != g.Ply() || !g.Active() {
		return 0
	}
	return st.TakebackBy
}
