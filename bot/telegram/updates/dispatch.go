package updates

import (
	"context"
	"errors"
	"log/slog"
	"runtime/debug"
	"sync"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// HandleFunc handles one update. Its context ends only when shutdown has
// waited too long for it (the drain deadline), not when shutdown starts.
type HandleFunc func(ctx context.Context, u tgbotapi.Update)

// ErrClosed is returned for an update offered after shutdown began; the
// webhook answers it with 503, so Telegram delivers it again later.
var ErrClosed = errors.New("updates: shutting down")

// dispatcher runs a handler on a fixed pool of workers, one update of a
// key (chat) at a time, in the order the updates were dispatched.
type dispatcher struct {
	handle HandleFunc
	log    *slog.Logger
	ctx    context.Context // the handlers'
	cancel context.CancelFunc
	slots  chan struct{} // one per update dispatched and not yet done
	wg     sync.WaitGroup

	mu   sync.Mutex
	cond *sync.Cond
	// A key is in queues exactly while one of its updates is either in
	// ready or being handled; so no two workers ever hold the same key.
	queues   map[int64][]job
	ready    []int64 // keys whose next update may start, oldest first
	closed   bool    // no more dispatches; workers leave when ready is empty
	dropping bool    // drain deadline passed: discard what has not started
	dropped  int
}

// newDispatcher starts the workers. The handlers' context carries parent's
// values but not its cancellation: shutdown lets handlers finish.
func newDispatcher(parent context.Context, workers, maxPending int, handle HandleFunc, log *slog.Logger) *dispatcher {
	ctx, cancel := context.WithCancel(context.WithoutCancel(parent))
	d := &dispatcher{
		handle: handle,
		log:    log,
		ctx:    ctx,
		cancel: cancel,
		slots:  make(chan struct{}, maxPending),
		queues: make(map[int64][]job),
	}
	d.cond = sync.NewCond(&d.mu)
	for range workers {
		d.wg.Go(d.work)
	}
	return d
}

// job is an update queued, and what to call once it is handled (handled
// true) or dropped at shutdown (false); done may be nil.
type job struct {
	u    tgbotapi.Update
	done func(handled bool)
}

// dispatchThen queues u for its key's worker, and calls done (if not nil)
// when u's handler has returned (or u was dropped): only then may u be
// acknowledged to Telegram. It blocks while maxPending updates are waiting
// (backpressure for the poll loop), until ctx ends. done is not called
// when dispatchThen returns an error.
func (d *dispatcher) dispatchThen(ctx context.Context, u tgbotapi.Update, done func(handled bool)) error {
	select {
	case d.slots <- struct{}{}:
	case <-ctx.Done():
		return ctx.Err()
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.closed {
		<-d.slots
		return ErrClosed
	}
	k := orderKey(u)
	if q, busy := d.queues[k]; busy {
		d.queues[k] = append(q, job{u, done})
		return nil
	}
	d.queues[k] = []job{{u, done}}
	d.ready = append(d.ready, k)
	d.cond.Signal()
	return nil
}

func (d *dispatcher) work() {
	d.mu.Lock()
	defer d.mu.Unlock()
	for {
		for len(d.ready) == 0 && !d.closed {
			d.cond.Wait()
		}
		if len(d.ready) == 0 {
			return
		}
		k := d.ready[0]
		d.ready = d.ready[1:]
		j := d.queues[k][0]
		drop := d.dropping

		d.mu.Unlock()
		if drop {
			d.log.Warn("updates: shutdown deadline passed, update not handled", "update_id", j.u.UpdateID)
		} else {
			d.run(j.u)
		}
		if j.done != nil {
			j.done(!drop)
		}
		<-d.slots
		d.mu.Lock()

		if drop {
			d.dropped++
		}
		if q := d.queues[k][1:]; len(q) > 0 {
			d.queues[k] = q
			// To the back of the line: a busy chat does not starve others.
			d.ready = append(d.ready, k)
		} else {
			delete(d.queues, k)
		}
	}
}

func (d *dispatcher) run(u tgbotapi.Update) {
	defer func() {
		if p := recover(); p != nil {
			d.log.Error("updates: handler panicked", "update_id", u.UpdateID, "panic", p, "stack", string(debug.Stack()))
		}
	}()
	d.handle(d.ctx, u)
}

// drain stops dispatching and waits for the workers to handle everything
// dispatched. When ctx ends first, the handlers' context is cancelled,
// updates not yet started are dropped, and drain still waits for the
// handlers running; it then returns how many updates were dropped.
func (d *dispatcher) drain(ctx context.Context) int {
	d.mu.Lock()
	d.closed = true
	d.cond.Broadcast()
	d.mu.Unlock()

	done := make(chan struct{})
	go func() {
		d.wg.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-ctx.Done():
		d.mu.Lock()
		d.dropping = true
		d.mu.Unlock()
		d.cancel()
		<-done
	}
	d.cancel()
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.dropped
}
