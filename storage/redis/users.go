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

// PutUser writes the user and points its username at it. The user and the
// username entry are different keys (slots), so the entry is a hint that
// UserByUsername checks against the user; an old name's entry is dropped
// only if it still points at this user.
func (s *Store) PutUser(ctx context.Context, u *storage.User) error {
	op := fmt.Sprintf("put user %d", u.ID)
	if err := start(ctx, op); err != nil {
		return err
	}
	old, err := s.user(ctx, u.ID)
	if err != nil {
		return fail(op, err)
	}
	data, err := json.Marshal(u)
	if err != nil {
		return fmt.Errorf("storage: redis: %s: %w", op, err)
	}
	id := strconv.FormatInt(u.ID, 10)
	name := storage.UsernameKey(u.Username)
	_, err = s.rdb.Pipelined(ctx, func(p goredis.Pipeliner) error {
		p.Set(ctx, s.userKey(u.ID), data, 0)
		if name != "" {
			p.Set(ctx, s.usernameKey(name), id, 0)
		}
		return nil
	})
	if err != nil {
		return fail(op, err)
	}
	if old != nil {
		if oldName := storage.UsernameKey(old.Username); oldName != "" && oldName != name {
			err := deleteIfEquals.Run(ctx, s.rdb, []string{s.usernameKey(oldName)}, id).Err()
			if err != nil {
				return fail(op, err)
			}
		}
	}
	return nil
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
