package redis

import (
	"context"
	"errors"
	"fmt"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/bashni/bashni/storage"
)

// pollTTL bounds how long an entry the bot never deleted lives: a vote
// lasts at most an hour, so a day is ample.
const pollTTL = 24 * time.Hour

// PutPoll records the game of a team-vote poll.
func (s *Store) PutPoll(ctx context.Context, pollID, gameID string) error {
	op := "put poll " + pollID
	if pollID == "" || gameID == "" {
		return fmt.Errorf("storage: redis: %s of game %q: empty id", op, gameID)
	}
	if err := start(ctx, op); err != nil {
		return err
	}
	return fail(op, s.rdb.Set(ctx, s.pollKey(pollID), gameID, pollTTL).Err())
}

// PollGame returns the game of a team-vote poll.
func (s *Store) PollGame(ctx context.Context, pollID string) (string, error) {
	op := "poll " + pollID
	if err := start(ctx, op); err != nil {
		return "", err
	}
	id, err := s.rdb.Get(ctx, s.pollKey(pollID)).Result()
	if errors.Is(err, goredis.Nil) {
		return "", fmt.Errorf("storage: redis: %s: %w", op, storage.ErrNotFound)
	}
	return id, fail(op, err)
}

// DeletePoll forgets a team-vote poll.
func (s *Store) DeletePoll(ctx context.Context, pollID string) error {
	op := "delete poll " + pollID
	if err := start(ctx, op); err != nil {
		return err
	}
	return fail(op, s.rdb.Del(ctx, s.pollKey(pollID)).Err())
}
