package redis

import (
	"context"
	"fmt"
	"time"
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
