package redis

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	goredis "github.com/redis/go-redis/v9"
)

// MarkUpdate is a SET NX with an expiry that also recognises its own retry:
// the first caller within ttl creates the key, every later one finds it, and
// a call whose reply was lost and was resent still hears "first", so the
// update is handled rather than dropped as a duplicate of itself.
func (s *Store) MarkUpdate(ctx context.Context, updateID int64, ttl time.Duration) (bool, error) {
	op := fmt.Sprintf("mark update %d", updateID)
	if ttl <= 0 {
		return false, fmt.Errorf("storage: redis: %s: ttl %v is not positive", op, ttl)
	}
	if err := start(ctx, op); err != nil {
		return false, err
	}
	// PX takes whole milliseconds and refuses 0.
	px := max(ttl, time.Millisecond).Milliseconds()
	n, err := markUpdate.Run(ctx, s.rdb, []string{s.updateKey(updateID)}, newToken(), px, s.now().UnixMilli()).Int()
	if err != nil {
		return false, fail(op, err)
	}
	return n == 1, nil
}

// UpdateSeen reports whether updateID is marked and the mark lives on by
// the store's clock (the end MarkUpdate wrote after the token).
func (s *Store) UpdateSeen(ctx context.Context, updateID int64) (bool, error) {
	op := fmt.Sprintf("update seen %d", updateID)
	if err := start(ctx, op); err != nil {
		return false, err
	}
	v, err := s.rdb.Get(ctx, s.updateKey(updateID)).Result()
	if errors.Is(err, goredis.Nil) {
		return false, nil
	}
	if err != nil {
		return false, fail(op, err)
	}
	_, end, found := strings.Cut(v, " ")
	if !found {
		return true, nil // a mark without its end lives until Redis drops it
	}
	untilMs, err := strconv.ParseInt(end, 10, 64)
	if err != nil {
		return true, nil
	}
	return untilMs > s.now().UnixMilli(), nil
}
