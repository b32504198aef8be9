package play

import (
	"context"
	"errors"
	"fmt"

	"github.com/bashni/bashni/rating"
	"github.com/bashni/bashni/storage"
)

// UserStore is what a change to a user's record needs of the store: the
// service's user writes all go through changeUser, and a feature's
// through ChangeUser.
type UserStore interface {
	User(ctx context.Context, id int64) (*storage.User, error)
	PutUser(ctx context.Context, u *storage.User) error
}

// changeUser reads user id, lets change change the record and writes it
// back by compare-and-set (PutUser), reading again and changing anew
// whenever another writer came first: another replica, or this one's
// handler of another update, counting a game or saving a setting of the
// same person at the same instant, or a feature's change (ChangeUser).
// change sees the record as stored every time, so it decides again on
// each attempt (a game already counted, a setting already saved); it
// returns errUnchanged when there is nothing to write, and the record is
// returned as read.
//
// newUser makes the record of someone not stored yet (newcomer, or one the
// caller knows more of); nil: such a user is storage.ErrNotFound.
func changeUser(ctx context.Context, st UserStore, id int64, newUser func(id int64) *storage.User, change func(u *storage.User) error) (*storage.User, error) {
	for range maxAttempts {
		u, err := st.User(ctx, id)
		if isNotFound(err) && newUser != nil {
			u, err = newUser(id), nil
		}
		if err != nil {
			return nil, err
		}
		if err := change(u); errors.Is(err, errUnchanged) {
			return u, nil
		} else if err != nil {
			return nil, err
		}
		err = st.PutUser(ctx, u)
		if errors.Is(err, storage.ErrConflict) {
			continue
		}
		if err != nil {
			return nil, err
		}
		return u, nil
	}
	return nil, fmt.Errorf("play: user %d: %w", id, ErrBusy)
}

// newcomer is the record of someone the bot has not stored yet.
func newcomer(id int64) *storage.User {
	return &storage.User{ID: id, Rating: StartRating, RD: rating.MaxRD, Vol: rating.StartVol, Notify: true}
}

// ChangeUser is the seam through which a feature outside play (its
// progress kept in the user's record, as training's is) changes user id:
// changeUser's compare-and-set, on st, so that the change and the
// service's own (a game counted, a setting saved) at the same instant
// keep each other. Someone not stored yet starts as a Newcomer. change
// may run more than once, on the record as read anew each time; an error
// from it is returned as it is, and nothing is written.
func ChangeUser(ctx context.Context, st UserStore, id int64, change func(u *User) error) (*User, error) {
	return changeUser(ctx, st, id, newcomer, change)
}

// Newcomer is the record of someone the bot has not stored yet, as a
// feature reading a user who never wrote sees them.
func Newcomer(id int64) *User { return newcomer(id) }
