package redis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/bashni/bashni/storage"
)

// PutChallenge stores c until c.ExpiresAt by the store's clock. Redis's
// own expiry is set as the time left by that clock (a relative TTL), so it
// frees the memory when the challenge is over whatever Redis's own clock
// says; reads check ExpiresAt against the store's clock all the same.
func (s *Store) PutChallenge(ctx context.Context, c *storage.Challenge) error {
	op := "put challenge " + c.ID
	if c.ID == "" {
		return fmt.Errorf("storage: redis: put challenge: empty id")
	}
	if err := start(ctx, op); err != nil {
		return err
	}
	now := s.now()
	if !c.ExpiresAt.IsZero() && !c.ExpiresAt.After(now) {
		// Already over: what is stored is as good as deleted at once.
		return fail(op, s.rdb.Del(ctx, s.challengeKey(c.ID)).Err())
	}
	data, err := json.Marshal(c)
	if err != nil {
		return fmt.Errorf("storage: redis: %s: %w", op, err)
	}
	var left time.Duration // zero: never
	if !c.ExpiresAt.IsZero() {
		left = max(c.ExpiresAt.Sub(now), time.Millisecond) // PX takes whole milliseconds
	}
	return fail(op, s.rdb.Set(ctx, s.challengeKey(c.ID), data, left).Err())
}

// Challenge reads a live challenge.
func (s *Store) Challenge(ctx context.Context, id string) (*storage.Challenge, error) {
	op := "challenge " + id
	if err := start(ctx, op); err != nil {
		return nil, err
	}
	data, err := s.rdb.Get(ctx, s.challengeKey(id)).Bytes()
	return s.liveChallenge(op, data, err)
}

// TakeChallenge gets and deletes in one script: Redis runs scripts one at a
// time, so exactly one of many concurrent takers gets the value.
func (s *Store) TakeChallenge(ctx context.Context, id string) (*storage.Challenge, error) {
	op := "take challenge " + id
	if err := start(ctx, op); err != nil {
		return nil, err
	}
	key := s.challengeKey(id)
	cmd := takeChallenge.Run(ctx, s.rdb, []string{key, key + ":taken"}, newToken())
	data, err := cmd.Text()
	return s.liveChallenge(op, []byte(data), err)
}

// DeleteChallenge removes a challenge if it is there.
func (s *Store) DeleteChallenge(ctx context.Context, id string) error {
	op := "delete challenge " + id
	if err := start(ctx, op); err != nil {
		return err
	}
	return fail(op, s.rdb.Del(ctx, s.challengeKey(id)).Err())
}

// liveChallenge decodes a stored challenge and treats one that is over by
// the store's clock as gone (Redis may not have dropped it yet).
func (s *Store) liveChallenge(op string, data []byte, err error) (*storage.Challenge, error) {
	c, err := decodeChallenge(op, data, err)
	if err == nil && !c.ExpiresAt.IsZero() && !c.ExpiresAt.After(s.now()) {
		return nil, fmt.Errorf("storage: redis: %s: expired: %w", op, storage.ErrNotFound)
	}
	return c, err
}

func decodeChallenge(op string, data []byte, err error) (*storage.Challenge, error) {
	if errors.Is(err, goredis.Nil) {
		return nil, fmt.Errorf("storage: redis: %s: %w", op, storage.ErrNotFound)
	}
	if err != nil {
		return nil, fail(op, err)
	}
	var c storage.Challenge
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fail(op, fmt.Errorf("decode: %w", err))
	}
	return &c, nil
}
