package telegram

import (
	"context"
	"math/rand/v2"
	"time"
)

// Sleep waits for d or until ctx ends; it reports whether d passed.
func Sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// Backoff returns the wait after n failures in a row: doubling from
// minWait up to maxWait, less up to a fifth at random so that replicas do
// not retry in step.
func Backoff(minWait, maxWait time.Duration, n int) time.Duration {
	d := minWait
	for i := 0; i < n && d < maxWait; i++ {
		d *= 2
	}
	d = min(d, maxWait)
	return d - time.Duration(rand.Int64N(int64(d)/5+1))
}
