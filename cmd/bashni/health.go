package main

import (
	"errors"
	"fmt"
	"sync"
	"time"
)

// loopHealth is what /healthz reports: whether the update loop runs and,
// when polling, whether getUpdates still answers. A process whose loop
// died exits, but a supervisor that only probes /healthz learns it here
// first; a poll stuck for minutes is reported before anyone complains.
type loopHealth struct {
	now   func() time.Time
	stale time.Duration // polling: no answer for longer is unhealthy (0: not polling)

	mu      sync.Mutex
	started bool
	err     error // why the loop stopped; nil while it runs
	lastOK  time.Time
}

func newLoopHealth(now func() time.Time, stale time.Duration) *loopHealth {
	return &loopHealth{now: now, stale: stale}
}

// running marks the loop as started.
func (h *loopHealth) running() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.started, h.lastOK = true, h.now()
}

// polled hears the outcome of each getUpdates call.
func (h *loopHealth) polled(err error) {
	if err != nil {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.lastOK = h.now()
}

// stopped marks the loop as ended, with why.
func (h *loopHealth) stopped(err error) {
	if err == nil {
		err = errors.New("stopped")
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.err = err
}

// check returns nil while the loop is healthy, else what is wrong.
func (h *loopHealth) check() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	switch {
	case h.err != nil:
		return fmt.Errorf("update loop stopped: %w", h.err)
	case !h.started:
		return nil // starting up: connecting to Telegram
	case h.stale > 0:
		if since := h.now().Sub(h.lastOK); since > h.stale {
			return fmt.Errorf("update loop: no answer from getUpdates for %v", since.Round(time.Second))
		}
	}
	return nil
}
