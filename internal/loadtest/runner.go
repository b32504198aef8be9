package loadtest

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"sync/atomic"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/internal/telegramtest"
)

func newRunner(fake *telegramtest.Server, o Options) *runner {
	r := &runner{fake: fake, opts: o, sems: make([]chan struct{}, len(o.Hooks))}
	for i := range r.sems {
		r.sems[i] = make(chan struct{}, o.Connections)
	}
	return r
}

// runner delivers updates for all games of a run.
type runner struct {
	fake *telegramtest.Server
	opts Options
	sems []chan struct{} // per replica: webhook requests in flight

	next        atomic.Uint64 // round-robin position
	updateID    atomic.Int64
	updates     atomic.Int64
	redelivered atomic.Int64
	retried     atomic.Int64
}

// deliver posts an update to the next replica, and with probability
// Options.Redeliver once more to the one after.
func (r *runner) deliver(ctx context.Context, rng *rand.Rand, u tgbotapi.Update) error {
	u.UpdateID = int(r.updateID.Add(1))
	i := int(r.next.Add(1) % uint64(len(r.opts.Hooks)))
	if err := r.post(ctx, i, u); err != nil {
		return err
	}
	r.updates.Add(1)
	if r.opts.Redeliver > 0 && rng.Float64() < r.opts.Redeliver {
		if err := r.post(ctx, (i+1)%len(r.opts.Hooks), u); err != nil {
			return err
		}
		r.redelivered.Add(1)
	}
	return nil
}

// post delivers an update to replica i, again after a 503 (the replica's
// queue is full or it is shutting down), as Telegram would.
func (r *runner) post(ctx context.Context, i int, u tgbotapi.Update) error {
	select {
	case r.sems[i] <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	defer func() { <-r.sems[i] }()
	backoff := 50 * time.Millisecond
	for attempt := 0; ; attempt++ {
		resp, err := r.fake.DeliverWebhook(ctx, r.opts.Hooks[i], r.opts.Secret, u)
		if err != nil {
			return fmt.Errorf("loadtest: delivering update %d: %w", u.UpdateID, err)
		}
		_, _ = io.Copy(io.Discard, resp.Body) // so the connection is reused
		resp.Body.Close()
		switch {
		case resp.StatusCode == http.StatusOK:
			return nil
		case resp.StatusCode == http.StatusServiceUnavailable && attempt < 5:
			r.retried.Add(1)
			select {
			case <-time.After(backoff):
			case <-ctx.Done():
				return ctx.Err()
			}
			backoff *= 2
		default:
			return fmt.Errorf("loadtest: webhook %s answered update %d with %s", r.opts.Hooks[i], u.UpdateID, resp.Status)
		}
	}
}
