package play

import (
	"context"
	"errors"

	"github.com/bashni/bashni/storage"
)

func isNotFound(err error) bool { return errors.Is(err, storage.ErrNotFound) }

// Profile is what the bot knows of a Telegram user when they write.
type Profile struct {
	ID       int64
	Name     string
	Username string
	Lang     string // Telegram's language_code
	Private  bool   // they wrote in a private chat, so the bot may DM them
}

// Touch creates or refreshes a user from their Telegram profile and returns
// the stored user. A user who writes to the bot privately can be sent DMs.
func (s *Service) Touch(ctx context.Context, p Profile) (*storage.User, error) {
	newUser := func(id int64) *storage.User {
		u := newcomer(id)
		u.Lang = p.Lang
		return u
	}
	return changeUser(ctx, s.store, p.ID, newUser, func(u *storage.User) error {
		changed := u.Name != p.Name || u.Username != p.Username
		u.Name, u.Username = p.Name, p.Username
		if u.Lang == "" && p.Lang != "" {
			u.Lang, changed = p.Lang, true
		}
		if p.Private && (!u.CanDM || u.Blocked) {
			u.CanDM, u.Blocked, changed = true, false, true
		}
		if carryElo(u) {
			changed = true // the record's one migration (glicko.go)
		}
		if !changed && !u.UpdatedAt.IsZero() {
			return errUnchanged
		}
		u.UpdatedAt = s.now()
		return nil
	})
}

// User returns a stored user.
func (s *Service) User(ctx context.Context, id int64) (*storage.User, error) {
	return s.store.User(ctx, id)
}

// UserByUsername finds a user who has talked to the bot by their @name.
func (s *Service) UserByUsername(ctx context.Context, name string) (*storage.User, error) {
	return s.store.UserByUsername(ctx, name)
}

// UpdateUser changes a user's settings with fn and stores them. fn may be
// run more than once, each time on the record as stored (another write to
// the user came first), so a toggle toggles what is stored.
func (s *Service) UpdateUser(ctx context.Context, id int64, fn func(u *storage.User)) (*storage.User, error) {
	return changeUser(ctx, s.store, id, nil, func(u *storage.User) error {
		fn(u)
		u.UpdatedAt = s.now()
		return nil
	})
}

// Blocked records that a user blocked the bot (Telegram said 403): no more
// DMs until they write to it again.
func (s *Service) Blocked(ctx context.Context, id int64) error {
	_, err := s.UpdateUser(ctx, id, func(u *storage.User) { u.Blocked = true })
	if isNotFound(err) {
		return nil
	}
	return err
}

// userOrNew returns the stored user of a player, creating a minimal record
// for someone seen only as a name.
func (s *Service) userOrNew(ctx context.Context, p storage.Player) (*storage.User, error) {
	u, err := s.store.User(ctx, p.UserID)
	if isNotFound(err) {
		return newPlayer(p), nil
	}
	if err != nil {
		return nil, err
	}
	if u.Rating == 0 {
		u.Rating = StartRating
	}
	return u, nil
}

// newPlayer is the record of a player not stored yet.
func newPlayer(p storage.Player) *storage.User {
	u := newcomer(p.UserID)
	u.Name = p.Name
	return u
}
