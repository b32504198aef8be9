package play

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/bashni/bashni/rating"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// StartRating is everyone's rating before their first rated game.
const StartRating = 1500

// A finished game's count in its players' statistics and ratings is owed
// by the write that ended it (the transactional outbox, as its events,
// events.go): update stores RateAt with the ending write, claimed by its
// writer for rateLease. The writer counts it at once (finished); if it
// dies first, the game is due at RateAt and any replica's clock tick
// claims the count again and makes it (decideDue).
//
// The count is written exactly once whoever tries, and however often:
// its reckoning (RateDue) is fixed in the game by a compare-and-set before
// any player's record is written, so every try writes the same; each
// player's record, and each chat leaderboard line, keeps the last games
// counted in it (Counted) and takes a game only once; the game forgets
// RateAt only after every record has it. A crash anywhere between leaves
// the game due, and the next try writes only what is missing.

// rateLease is how long the writer of a game's end has to count it
// before another process does.
const rateLease = 5 * time.Second

// owesCount reports whether a game just ended owes a count: a game with
// moves taken back counts nowhere (the result says nothing of anyone),
// nor does an aborted one (abort.go), and one without a person in it has
// nobody to count.
func owesCount(rec *storage.GameRecord) bool {
	return !rec.Casual && rec.Reason != rules.Aborted.String() && (rec.White.Human() || rec.Black.Human())
}

// finished counts the game that the caller's write ended: only the caller
// whose compare-and-set ended it gets here. Failures are logged, not
// returned: the game itself is safely over, and its count, still owed,
// is the clock's (RateAt).
func (s *Service) finished(ctx context.Context, g *Game) {
	if s.hooks.GameFinished != nil {
		s.hooks.GameFinished()
	}
	if !g.rec.RateAt.IsZero() {
		s.count(ctx, g.rec.ID)
	}
}

// count writes game id's owed count (see above), logging what failed.
func (s *Service) count(ctx context.Context, id string) {
	// Its writes are no change the players are shown: no receipt.
	ctx = context.WithValue(ctx, receiptKey{}, (*receipt)(nil))
	if err := s.countGame(ctx, id); err != nil {
		s.log.Warn("game not counted yet: the clock will", "game", id, "err", err)
	}
}

func (s *Service) countGame(ctx context.Context, id string) error {
	g, err := s.update(ctx, id, func(g *Game) error {
		if g.rec.RateAt.IsZero() || g.rec.RateDue != nil {
			return errUnchanged
		}
		due, err := s.reckon(ctx, g)
		if err != nil {
			return err
		}
		g.rec.RateDue = due
		return nil
	})
	if err != nil {
		return err
	}
	due := g.rec.RateDue
	if g.rec.RateAt.IsZero() || due == nil {
		return nil // counted by someone else
	}
	for _, p := range due.Players {
		if err := s.countPlayer(ctx, id, due.Chat, p); err != nil {
			return err
		}
	}
	_, err = s.update(ctx, id, func(g *Game) error {
		if g.rec.RateAt.IsZero() {
			return errUnchanged
		}
		g.rec.RateAt, g.rec.RateDue = timeZero, nil
		return nil
	})
	return err
}

// reckon is g's count: each human player's score and, in a rated game
// between two people, the changes of their ratings, from their records
// as they stand.
func (s *Service) reckon(ctx context.Context, g *Game) (*storage.RateDue, error) {
	r, _ := g.rules.Result()
	scoreWhite := 0.5
	if w, ok := r.Winner(); ok {
		scoreWhite = 0
		if w == rules.White {
			scoreWhite = 1
		}
	}
	white, black := g.rec.White, g.rec.Black
	due := &storage.RateDue{}
	if white.Human() {
		due.Players = append(due.Players, storage.RatedScore{UserID: white.UserID, Name: white.Name, Score: scoreWhite})
	}
	if black.Human() && black.UserID != white.UserID {
		due.Players = append(due.Players, storage.RatedScore{UserID: black.UserID, Name: black.Name, Score: 1 - scoreWhite})
	}
	if !g.rec.Rated || len(due.Players) != 2 {
		return due, nil
	}
	due.Chat = g.ratingChat()
	uw, err := s.userOrNew(ctx, white)
	if err != nil {
		return nil, err
	}
	ub, err := s.userOrNew(ctx, black)
	if err != nil {
		return nil, err
	}
	w, b := &due.Players[0], &due.Players[1]
	w.Rated, b.Rated = true, true
	rw, rb := UserRating(uw), UserRating(ub)
	nw, nb := rating.Game(rw, rb, scoreWhite)
	setGlobal(w, rw.Diff(nw))
	setGlobal(b, rb.Diff(nb))
	if due.Chat == 0 {
		return due, nil
	}
	sw, err := s.standing(ctx, due.Chat, uw)
	if err != nil {
		return nil, err
	}
	sb, err := s.standing(ctx, due.Chat, ub)
	if err != nil {
		return nil, err
	}
	rw, rb = LineRating(sw), LineRating(sb)
	nw, nb = rating.Game(rw, rb, scoreWhite)
	setInChat(w, rw.Diff(nw))
	setInChat(b, rb.Diff(nb))
	return due, nil
}

func setGlobal(p *storage.RatedScore, c rating.Change) {
	p.Global, p.GlobalRD, p.GlobalVol = c.R, c.RD, c.Vol
}

func setInChat(p *storage.RatedScore, c rating.Change) {
	p.InChat, p.InChatRD, p.InChatVol = c.R, c.RD, c.Vol
}

// countPlayer writes p's part of game id's count into their record and
// leaderboard lines, each once (Counted). The record and each line are
// written by compare-and-set, and the record's and the chat line's Counted
// are checked on every attempt: a game counted by a writer that came first
// is not counted again, nor is one that came first lost.
func (s *Service) countPlayer(ctx context.Context, id string, chat int64, p storage.RatedScore) error {
	newUser := func(int64) *storage.User { return newPlayer(storage.Player{UserID: p.UserID, Name: p.Name}) }
	u, err := changeUser(ctx, s.store, p.UserID, newUser, func(u *storage.User) error {
		carryElo(u)
		if !storage.Counted(&u.Counted, id) {
			return errUnchanged
		}
		addResult(&u.Stats, p.Score)
		if p.Rated {
			setUserRating(u, UserRating(u).Apply(rating.Change{R: p.Global, RD: p.GlobalRD, Vol: p.GlobalVol}))
		}
		u.UpdatedAt = s.now()
		return nil
	})
	if err != nil {
		return err
	}
	if !p.Rated {
		return nil
	}
	// The global line follows the record: written from u unless it is
	// from a record at least as new already (another count of the
	// player's, which wrote the record after u, came first). Written again
	// from the same record, it is the same.
	err = s.changeLine(ctx, 0, u, func(line *storage.Standing) error {
		if line.UserVersion > 0 && line.UserVersion >= u.Version {
			return errUnchanged
		}
		setLineRating(line, UserRating(u))
		line.Games, line.UserVersion = u.Stats.Games, u.Version
		return nil
	})
	if err != nil || chat == 0 {
		return err
	}
	return s.changeLine(ctx, chat, u, func(line *storage.Standing) error {
		if !storage.Counted(&line.Counted, id) {
			return errUnchanged
		}
		setLineRating(line, LineRating(*line).Apply(rating.Change{R: p.InChat, RD: p.InChatRD, Vol: p.InChatVol}))
		line.Games++
		return nil
	})
}

// changeLine is changeUser for u's line in a leaderboard: it reads the
// line (a new one at StartRating if none), lets change change it and
// writes it back by compare-and-set (SetStanding), reading again and
// changing anew whenever another writer came first. change returns
// errUnchanged when there is nothing to write.
func (s *Service) changeLine(ctx context.Context, scope int64, u *storage.User, change func(line *storage.Standing) error) error {
	for range maxAttempts {
		line, err := s.standing(ctx, scope, u)
		if err != nil {
			return err
		}
		if err := change(&line); errors.Is(err, errUnchanged) {
			return nil
		} else if err != nil {
			return err
		}
		err = s.store.SetStanding(ctx, scope, &line)
		if !errors.Is(err, storage.ErrConflict) {
			return err
		}
	}
	return fmt.Errorf("play: line of user %d in %d: %w", u.ID, scope, ErrBusy)
}

func (s *Service) standing(ctx context.Context, scope int64, u *storage.User) (storage.Standing, error) {
	st, err := s.store.Standing(ctx, scope, u.ID)
	if errors.Is(err, storage.ErrNotFound) {
		return storage.Standing{UserID: u.ID, Name: u.Name, Rating: StartRating, RD: rating.MaxRD, Vol: rating.StartVol}, nil
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

// Standing returns userID's line in a leaderboard (as Top), or
// storage.ErrNotFound if they have none there.
func (s *Service) Standing(ctx context.Context, scope, userID int64) (storage.Standing, error) {
	return s.store.Standing(ctx, scope, userID)
}
