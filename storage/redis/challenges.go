package redis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	goredis "github.com/redis/go-redis/v9"

	"github.com/bashni/bashni/storage"
)

// PutChallenge stores c with Redis's own expiry at c.ExpiresAt.
func (s *Store) PutChallenge(ctx context.Context, c *storage.Challenge) error {
	op := "put challenge " + c.ID
	if c.ID == "" {
		return fmt.Errorf("storage: redis: put challenge: empty id")
	}
	if err := start(ctx, op); err != nil {
		return err
	}
	if !c.ExpiresAt.IsZero() && !c.ExpiresAt.After(s.now()) {
		// Already over: what is stored is as good as deleted at once.
		return fail(op, s.rdb.Del(ctx, s.challengeKey(c.ID)).Err())
	}
	data, err := json.Marshal(c)
	if err != nil {
		return fmt.Errorf("storage: redis: %s: %w", op, err)
	}
	// ExpireAt goes out as PXAT when it has milliseconds; zero means never.
	return fail(op, s.rdb.SetArgs(ctx, s.challengeKey(c.ID), data, goredis.SetArgs{ExpireAt: c.ExpiresAt}).Err())
}

// Challenge reads a live challenge.
func (s *Store) Challenge(ctx context.Context, id string) (*storage.Challenge, error) {
	op := "challenge " + id
	if err := start(ctx, op); err != nil {
		return nil, err
	}
	data, err := s.rdb.Get(ctx, s.challengeKey(id)).Bytes()
	return decodeChallenge(op, data, err)
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
	return decodeChallenge(op, []byte(data), err)
}

// DeleteChallenge removes a challenge if it is there.
func (s *Store) DeleteChallenge(ctx context.Context, id string) error {
	op := "delete challenge " + id
	if err := start(ctx, op); err != nil {
		return err
	}
	return fail(op, s.rdb.Del(ctx, s.challengeKey(id)).Err())
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
