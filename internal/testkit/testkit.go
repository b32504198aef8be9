// Package testkit holds the small helpers several packages' tests share:
// a clock the test moves by hand, a buffer that goroutines may write logs
// into while the test reads them, and a game with a planted blunder for
// analysis tests to find (PlantedBlunder).
package testkit

import (
	"bytes"
	"sync"
	"time"
)

// Clock is a clock the test moves by hand. Pass its Now where code takes a
// clock. Safe for concurrent use.
type Clock struct {
	mu  sync.Mutex
	now time.Time
}

// NewClock returns a clock stopped at t.
func NewClock(t time.Time) *Clock { return &Clock{now: t} }

// Now is the clock's time.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// Advance moves the clock on by d.
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// Buffer collects output, such as log lines, from many goroutines. Its
// zero value is ready to use.
type Buffer struct {
	mu      sync.Mutex
	buf     bytes.Buffer
	written chan struct{} // closed and replaced by every Write
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.written != nil {
		close(b.written)
		b.written = nil
	}
	return b.buf.Write(p)
}

// WaitFor waits until what was written contains substr, and reports
// whether it did within timeout. It wakes on every write, never polls.
func (b *Buffer) WaitFor(substr string, timeout time.Duration) bool {
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		b.mu.Lock()
		if bytes.Contains(b.buf.Bytes(), []byte(substr)) {
			b.mu.Unlock()
			return true
		}
		if b.written == nil {
			b.written = make(chan struct{})
		}
		written := b.written
		b.mu.Unlock()
		select {
		case <-written:
		case <-timer.C:
			return false
		}
	}
}

// String is everything written so far.
func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
