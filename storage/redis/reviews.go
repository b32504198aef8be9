package redis

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/bashni/bashni/storage"
)

var _ storage.ReviewQueue = (*Store)(nil)

// The review queue is a sorted set of game ids scored by a counter at
// admission (times may tie, or go back), a hash from game id to the user
// who asked, and one from game id to the admission time. All share the
// hash tag {reviews}, so the script that admits a ticket runs on a
// Cluster too.

func (s *Store) reviewsKey() string     { return s.prefix + "reviews:{reviews}" }
func (s *Store) reviewUsersKey() string { return s.prefix + "reviews:{reviews}:users" }
func (s *Store) reviewTimesKey() string { return s.prefix + "reviews:{reviews}:times" }
func (s *Store) reviewSeqKey() string   { return s.prefix + "reviews:{reviews}:seq" }

// enqueueReview: KEYS[1] queue, KEYS[2] users, KEYS[3] times, KEYS[4]
// counter; ARGV game, time (unix ms), user, max, per user. Returns the
// place (1 for the head), -1 queue full, -2 the user's share full. A game
// already queued returns its place, so a retried call is harmless.
var enqueueReview = goredis.NewScript(`
local r = redis.call('ZRANK', KEYS[1], ARGV[1])
if r then return r + 1 end
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[4]) then return -1 end
local mine = 0
for _, u in ipairs(redis.call('HVALS', KEYS[2])) do
  if u == ARGV[3] then mine = mine + 1 end
end
if mine >= tonumber(ARGV[5]) then return -2 end
redis.call('ZADD', KEYS[1], redis.call('INCR', KEYS[4]), ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3])
redis.call('HSET', KEYS[3], ARGV[1], ARGV[2])
return redis.call('ZRANK', KEYS[1], ARGV[1]) + 1
`)

// EnqueueReview implements storage.ReviewQueue.
func (s *Store) EnqueueReview(ctx context.Context, t storage.ReviewTicket, max, perUser int) (int, error) {
	const op = "enqueue review"
	if err := start(ctx, op); err != nil {
		return 0, err
	}
	if t.GameID == "" {
		return 0, fmt.Errorf("storage: redis: %s: no game id", op)
	}
	n, err := enqueueReview.Run(ctx, s.rdb, []string{s.reviewsKey(), s.reviewUsersKey(), s.reviewTimesKey(), s.reviewSeqKey()},
		t.GameID, t.Queued.UnixMilli(), strconv.FormatInt(t.UserID, 10), max, perUser).Int()
	switch {
	case err != nil:
		return 0, fail(op, err)
	case n == -1:
		return 0, fmt.Errorf("storage: redis: %s: %w", op, storage.ErrQueueFull)
	case n == -2:
		return 0, fmt.Errorf("storage: redis: %s: %w", op, storage.ErrUserQueueFull)
	}
	return n, nil
}

// ReviewPlace implements storage.ReviewQueue.
func (s *Store) ReviewPlace(ctx context.Context, id string) (int, error) {
	const op = "review place"
	if err := start(ctx, op); err != nil {
		return 0, err
	}
	r, err := s.rdb.ZRank(ctx, s.reviewsKey(), id).Result()
	if errors.Is(err, goredis.Nil) {
		return 0, nil
	}
	if err != nil {
		return 0, fail(op, err)
	}
	return int(r) + 1, nil
}

// ReviewQueue implements storage.ReviewQueue.
func (s *Store) ReviewQueue(ctx context.Context, n int) ([]storage.ReviewTicket, error) {
	const op = "review queue"
	if err := start(ctx, op); err != nil {
		return nil, err
	}
	out := []storage.ReviewTicket{}
	if n <= 0 {
		return out, nil
	}
	ids, err := s.rdb.ZRange(ctx, s.reviewsKey(), 0, int64(n-1)).Result()
	if err != nil {
		return nil, fail(op, err)
	}
	if len(ids) == 0 {
		return out, nil
	}
	users, err := s.rdb.HMGet(ctx, s.reviewUsersKey(), ids...).Result()
	if err != nil {
		return nil, fail(op, err)
	}
	times, err := s.rdb.HMGet(ctx, s.reviewTimesKey(), ids...).Result()
	if err != nil {
		return nil, fail(op, err)
	}
	for i, id := range ids {
		t := storage.ReviewTicket{GameID: id}
		if u, ok := users[i].(string); ok {
			t.UserID, _ = strconv.ParseInt(u, 10, 64)
		}
		if v, ok := times[i].(string); ok {
			if ms, err := strconv.ParseInt(v, 10, 64); err == nil {
				t.Queued = time.UnixMilli(ms).UTC()
			}
		}
		out = append(out, t)
	}
	return out, nil
}

// FinishReview implements storage.ReviewQueue.
func (s *Store) FinishReview(ctx context.Context, id string) error {
	const op = "finish review"
	if err := start(ctx, op); err != nil {
		return err
	}
	_, err := s.rdb.TxPipelined(ctx, func(p goredis.Pipeliner) error {
		p.ZRem(ctx, s.reviewsKey(), id)
		p.HDel(ctx, s.reviewUsersKey(), id)
		p.HDel(ctx, s.reviewTimesKey(), id)
		return nil
	})
	return fail(op, err)
}
