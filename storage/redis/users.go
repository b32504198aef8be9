package redis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	goredis "github.com/redis/go-redis/v9"

	"github.com/bashni/bashni/storage"
)

// User reads a user.
func (s *Store) User(ctx context.Context, id int64) (*storage.User, error) {
	op := fmt.Sprintf("user %d", id)
	if err := start(ctx, op); err != nil {
		return nil, err
	}
	u, err := s.user(ctx, id)
	if err != nil {
		return nil, fail(op, err)
	}
	if u == nil {
		return nil, fmt.Errorf("storage: redis: %s: %w", op, storage.ErrNotFound)
	}
	return u, nil
}

// user reads a user; nil if absent.
func (s *Store) user(ctx context.Context, id int64) (*storage.User, error) {
	data, err := s.rdb.Get(ctx, s.userKey(id)).Bytes()
	if errors.Is(err, goredis.Nil) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var u storage.User
	if err := json.Unmarshal(data, &u); err != nil {
		return nil, fmt.Errorf("decode user %d: %w", id, err)
	}
	return &u, nil
}

// storedUser is a user as stored: its JSON with the token of the write
// that stored it, so that putUser knows its own write again when go-redis
// resends it after a lost reply (a toggled setting must not toggle back).
type storedUser struct {
	*storage.User
	Token string `json:"w,omitzero"`
}

// PutUser is a compare-and-set on the user's key by putUser's script, which
// also returns the name the stored user had, then points the username at
// the user. The user and the username entry are different keys (slots), so
// the entry is a hint that UserByUsername checks against the user; an old
// name's entry is dropped only if it still points at this user. The
// entries change only after the user is written: a refused write leaves
// them alone. Should that second step fail, the error is returned with the
// user written (u.Version moved on); its next write points the name again.
func (s *Store) PutUser(ctx context.Context, u *storage.User) error {
	op := fmt.Sprintf("put user %d at version %d", u.ID, u.Version)
	if err := start(ctx, op); err != nil {
		return err
	}
	rec := *u
	rec.Version = u.Version + 1
	token := newToken()
	data, err := json.Marshal(storedUser{User: &rec, Token: token})
	if err != nil {
		return fmt.Errorf("storage: redis: %s: %w", op, err)
	}
	res, err := putUser.Run(ctx, s.rdb, []string{s.userKey(u.ID)},
		strconv.FormatInt(u.Version, 10), strconv.FormatInt(rec.Version, 10), data, token).Slice()
	if err != nil {
		return fail(op, err)
	}
	if len(res) != 2 {
		return fail(op, fmt.Errorf("the put script answered %v", res))
	}
	if n, _ := res[0].(int64); n == 0 {
		return fmt.Errorf("storage: redis: %s: stored version differs: %w", op, storage.ErrConflict)
	}
	u.Version = rec.Version
	oldName, _ := res[1].(string)
	return fail(op, s.pointUsername(ctx, u.ID, storage.UsernameKey(oldName), storage.UsernameKey(u.Username)))
}

// pointUsername points name (folded; "" for none) at user id and drops
// oldName's entry if it still points there, in one round trip.
func (s *Store) pointUsername(ctx context.Context, id int64, oldName, name string) error {
	drop := oldName != "" && oldName != name
	if name == "" && !drop {
		return nil
	}
	idText := strconv.FormatInt(id, 10)
	_, err := s.rdb.Pipelined(ctx, func(p goredis.Pipeliner) error {
		if name != "" {
			p.Set(ctx, s.usernameKey(name), idText, 0)
		}
		if drop {
			// EVAL, not EVALSHA: in a pipeline Script.Run cannot fall
			// back to EVAL when the server lacks the script.
			deleteIfEquals.Eval(ctx, p, []string{s.usernameKey(oldName)}, idText)
		}
		return nil
	})
	return err
}

// UserByUsername follows the username entry and checks that the user still
// has that name.
func (s *Store) UserByUsername(ctx context.Context, username string) (*storage.User, error) {
	name := storage.UsernameKey(username)
	op := "user @" + name
	if err := start(ctx, op); err != nil {
		return nil, err
	}
	notFound := fmt.Errorf("storage: redis: %s: %w", op, storage.ErrNotFound)
	if name == "" {
		return nil, notFound
	}
	id, err := s.rdb.Get(ctx, s.usernameKey(name)).Int64()
	if errors.Is(err, goredis.Nil) {
		return nil, notFound
	}
	if err != nil {
		return nil, fail(op, err)
	}
	u, err := s.user(ctx, id)
	if err != nil {
		return nil, fail(op, err)
	}
	if u == nil || storage.UsernameKey(u.Username) != name {
		return nil, notFound
	}
	return u, nil
}
