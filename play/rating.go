package play

import (
	"context"
	"errors"
	"math"

	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// StartRating is everyone's rating before their first rated game.
const StartRating = 1500

// eloK is the Elo K-factor: how far one game moves a rating. New players
// move faster so their rating finds its level sooner.
func eloK(games int) float64 {
	if games < 30 {
		return 40
	}
	return 20
}

// eloExpected is the expected score of a player rated a against one rated b.
func eloExpected(a, b float64) float64 { return 1 / (1 + math.Pow(10, (b-a)/400)) }

// EloChange returns the new ratings of two players after a game in which
// the first scored score (1 win, 0.5 draw, 0 loss).
func EloChange(a, b float64, gamesA, gamesB int, score float64) (newA, newB float64) {
	ea := eloExpected(a, b)
	newA = a + eloK(gamesA)*(score-ea)
	newB = b + eloK(gamesB)*((1-score)-(1-ea))
	return math.Round(newA*10) / 10, math.Round(newB*10) / 10
}

// finished updates stats and, for a rated game between two people, ratings
// in the game's chat and globally. It runs once per game: only the caller
// whose compare-and-set ended the game gets here. Failures are logged, not
// returned: the game itself is safely over.
func (s *Service) finished(ctx context.Context, g *Game) {
	if s.hooks.GameFinished != nil {
		s.hooks.GameFinished()
	}
	if g.rec.Casual {
		return // moves were taken back: the result says nothing of anyone
	}
	r, _ := g.rules.Result()
	scoreWhite := 0.5
	if w, ok := r.Winner(); ok {
		scoreWhite = 0
		if w == rules.White {
			scoreWhite = 1
		}
	}
	white, black := g.rec.White, g.rec.Black
	rated := g.rec.Rated && white.Human() && black.Human() && white.UserID != black.UserID
	var uw, ub *storage.User
	var err error
	if white.Human() {
		if uw, err = s.userOrNew(ctx, white); err != nil {
			s.log.Warn("stats not updated", "game", g.rec.ID, "err", err)
			return
		}
	}
	if black.Human() && black.UserID != white.UserID {
		if ub, err = s.userOrNew(ctx, black); err != nil {
			s.log.Warn("stats not updated", "game", g.rec.ID, "err", err)
			return
		}
	}
	if rated {
		uw.Rating, ub.Rating = EloChange(uw.Rating, ub.Rating, uw.Stats.Games, ub.Stats.Games, scoreWhite)
		if err := s.rateInChat(ctx, g.ratingChat(), uw, ub, scoreWhite); err != nil {
			s.log.Warn("chat ratings not updated", "game", g.rec.ID, "err", err)
		}
	}
	for _, x := range []struct {
		u     *storage.User
		score float64
	}{{uw, scoreWhite}, {ub, 1 - scoreWhite}} {
		if x.u == nil {
			continue
		}
		addResult(&x.u.Stats, x.score)
		x.u.UpdatedAt = s.now()
		if err := s.store.PutUser(ctx, x.u); err != nil {
			s.log.Warn("user not updated", "user", x.u.ID, "err", err)
			continue
		}
		if rated {
			st := storage.Standing{UserID: x.u.ID, Name: x.u.Name, Rating: x.u.Rating, Games: x.u.Stats.Games}
			if err := s.store.SetStanding(ctx, 0, st); err != nil {
				s.log.Warn("global standing not updated", "user", x.u.ID, "err", err)
			}
		}
	}
}

// rateInChat updates the two players' lines of the chat's leaderboard, each
// chat keeping its own Elo.
func (s *Service) rateInChat(ctx context.Context, chatID int64, uw, ub *storage.User, scoreWhite float64) error {
	if chatID == 0 {
		return nil
	}
	sw, err := s.standing(ctx, chatID, uw)
	if err != nil {
		return err
	}
	sb, err := s.standing(ctx, chatID, ub)
	if err != nil {
		return err
	}
	sw.Rating, sb.Rating = EloChange(sw.Rating, sb.Rating, sw.Games, sb.Games, scoreWhite)
	sw.Games++
	sb.Games++
	if err := s.store.SetStanding(ctx, chatID, sw); err != nil {
		return err
	}
	return s.store.SetStanding(ctx, chatID, sb)
}

func (s *Service) standing(ctx context.Context, scope int64, u *storage.User) (storage.Standing, error) {
	st, err := s.store.Standing(ctx, scope, u.ID)
	if errors.Is(err, storage.ErrNotFound) {
		return storage.Standing{UserID: u.ID, Name: u.Name, Rating: StartRating}, nil
	}
	st.Name = u.Name
	return st, err
}

// addResult counts one finished game; the streak counts wins (positive) or
// losses (negative) in a row.
func addResult(st *storage.Stats, score float64) {
	st.Games++
	switch score {
	case 1:
		st.Wins++
		if st.Streak < 0 {
			st.Streak = 0
		}
		st.Streak++
	case 0:
		st.Losses++
		if st.Streak > 0 {
			st.Streak = 0
		}
		st.Streak--
	default:
		st.Draws++
		st.Streak = 0
	}
}

// Top returns a leaderboard: a chat's (scope = chat id) or the global one (0).
func (s *Service) Top(ctx context.Context, scope int64, n int) ([]storage.Standing, error) {
	return s.store.Top(ctx, scope, n)
}
