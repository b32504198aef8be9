package outbox

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// Run owns the outbox's goroutines: the lanes' senders, the query
// answers' workers and, with a journal, the acker and the claims; and it
// drains what is queued when its context ends.

// Run sends queued replies until ctx ends, then drains: it keeps sending
// for up to Options.DrainTimeout, until nothing is queued. It returns nil
// when every reply was sent, or an error wrapping ErrShutdown that counts
// the replies given up. Run may be called once.
//
// Run stops accepting replies once nothing is left to send, so end the
// producers first: cancel Run's context after the update loop has returned
// and its handlers have finished, or a reply they enqueue late may be
// refused with ErrClosed.
func (o *Outbox) Run(ctx context.Context) error {
	o.mu.Lock()
	if o.started {
		o.mu.Unlock()
		return errors.New("outbox: Run called twice")
	}
	o.started = true
	o.mu.Unlock()

	// Sending outlives ctx by the drain; sendCtx ends it.
	sendCtx, stop := context.WithCancel(context.WithoutCancel(ctx))
	defer stop()
	var wg sync.WaitGroup
	var lost countLost
	for range o.opts.PriorityWorkers {
		wg.Go(func() { o.priorityWorker(sendCtx, &lost) })
	}

	stopAcks := make(chan struct{})
	var side sync.WaitGroup
	if o.opts.Journal != nil {
		side.Go(func() { o.runAcker(stopAcks) })
		side.Go(func() { o.runClaims(ctx) })
	}

	sweep := time.NewTicker(time.Minute)
	defer sweep.Stop()
	for running := true; running; {
		select {
		case <-ctx.Done():
			running = false
		case <-o.kick:
			o.startLanes(sendCtx, &wg, &lost)
		case now := <-sweep.C:
			o.sweep(now)
		}
	}

	// Drain. Closing happens under the lock that counts pending replies,
	// so a reply enqueued before it is sent and one after it is refused.
	deadline := time.NewTimer(o.opts.DrainTimeout)
	defer deadline.Stop()
	for draining := true; draining; {
		o.startLanes(sendCtx, &wg, &lost)
		o.mu.Lock()
		idle := o.idle
		if o.pending == 0 {
			o.closed, draining = true, false
		}
		o.mu.Unlock()
		if !draining {
			break
		}
		select {
		case <-o.kick:
		case <-idle:
		case <-deadline.C:
			o.mu.Lock()
			o.closed, draining = true, false
			o.mu.Unlock()
		}
	}

	// Whatever is left fails fast.
	stop()
	o.startLanes(sendCtx, &wg, &lost)
	wg.Wait()
	for {
		select {
		case it := <-o.prio:
			o.finish(it, nil, ErrShutdown)
			lost.add()
			continue
		default:
		}
		break
	}
	close(stopAcks)
	side.Wait()
	if o.opts.Journal != nil {
		// What is left is kept: let the next process have it now.
		rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), journalTimeout)
		if err := o.opts.Journal.Release(rctx); err != nil {
			o.log.Warn("outbox: lease not released", "err", err)
		}
		cancel()
	}
	if n := lost.get(); n > 0 {
		o.log.Error("outbox: replies not sent before shutdown", "count", n)
		return fmt.Errorf("%w: %d replies", ErrShutdown, n)
	}
	return nil
}

type countLost struct {
	mu sync.Mutex
	n  int
}

func (c *countLost) add() {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
}

func (c *countLost) get() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n
}

func (o *Outbox) priorityWorker(ctx context.Context, lost *countLost) {
	for {
		select {
		case <-ctx.Done():
			return
		case it := <-o.prio:
			if ctx.Err() != nil {
				o.finish(it, nil, ErrShutdown)
				lost.add()
				continue
			}
			o.deliver(ctx, it, lost)
		}
	}
}
