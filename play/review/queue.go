package review

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/bashni/bashni/storage"
)

// The review queue. Reviews are the engine's heaviest work (a search for
// every position of a game), and anyone may ask for one of any finished
// game; run as they came, a few at once starved AI moves and failed all
// together at their deadline. So a review is first admitted to a bounded,
// ordered queue kept in the store, within a per-user share, and then
// worked on by runners (Run, in every replica) from the head, one
// position at a time (runner.go).

// Limits bound the review queue; zero fields take the defaults.
type Limits struct {
	Max     int // reviews queued at once, all users (32)
	PerUser int // reviews one user may have queued (2)
	Runners int // reviews this process works on at once (1)
	// Lease is how long a runner holds a review without storing a
	// position before another may take it up (30 s).
	Lease time.Duration
	// Poll is how often an idle runner looks at the queue for work
	// admitted by another replica or a lease that lapsed (2 s).
	Poll time.Duration
}

func (l Limits) withDefaults() Limits {
	if l.Max <= 0 {
		l.Max = 32
	}
	if l.PerUser <= 0 {
		l.PerUser = 2
	}
	if l.Runners <= 0 {
		l.Runners = 1
	}
	if l.Lease <= 0 {
		l.Lease = 30 * time.Second
	}
	if l.Poll <= 0 {
		l.Poll = 2 * time.Second
	}
	return l
}

// QueuedError says a review is admitted and waiting (or under way): the
// caller stopped waiting for it at Place in the queue (1: being worked
// on, or next). It wraps the waiting context's error.
type QueuedError struct {
	Place int
	err   error
}

func (e *QueuedError) Error() string {
	return fmt.Sprintf("review: the analysis is queued at place %d: %v", e.Place, e.err)
}

func (e *QueuedError) Unwrap() error { return e.err }

// queue is the service's side of the stored queue: its limits, and the
// callers in this process waiting for a review.
type queue struct {
	lim    Limits
	holder string        // this process's name in leases
	wake   chan struct{} // a ticket was admitted here

	mu      sync.Mutex
	waiters map[string][]chan struct{} // game id: closed when its review is kept here
}

// WithQueue makes reviews go through the store's queue, within lim.
// Without it a review runs at once in the caller's process (tests, tools).
func WithQueue(lim Limits) Option {
	return func(s *Service) {
		s.queue = &queue{lim: lim.withDefaults(), holder: rand.Text(),
			wake: make(chan struct{}, 1), waiters: map[string][]chan struct{}{}}
	}
}

// notify wakes the callers here waiting for game id's review.
func (q *queue) notify(id string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, ch := range q.waiters[id] {
		close(ch)
	}
	delete(q.waiters, id)
}

// waiter returns a channel closed when game id's review is kept here, and
// a function to stop waiting.
func (q *queue) waiter(id string) (<-chan struct{}, func()) {
	ch := make(chan struct{})
	q.mu.Lock()
	q.waiters[id] = append(q.waiters[id], ch)
	q.mu.Unlock()
	return ch, func() {
		q.mu.Lock()
		defer q.mu.Unlock()
		list := q.waiters[id]
		for i, c := range list {
			if c == ch {
				q.waiters[id] = append(list[:i:i], list[i+1:]...)
				break
			}
		}
		if len(q.waiters[id]) == 0 {
			delete(q.waiters, id)
		}
	}
}

// Request admits finished game id's review for userID to the queue and
// returns its place (1: next or under way), or 0 with the analysis when
// the game is reviewed already. Asked again, it returns the same ticket's
// place: a game is queued once, whoever asks. Without a queue it admits
// nothing and says 1: Analyse reviews at once.
func (s *Service) Request(ctx context.Context, id string, userID int64) (place int, a *Analysis, err error) {
	g, err := s.finished(ctx, id)
	if err != nil {
		return 0, nil, err
	}
	if rv, ok := keptReview(g); ok {
		return 0, analysisOf(g, rv), nil
	}
	if s.queue == nil {
		return 1, nil, nil // no queue: Analyse reviews it at once
	}
	q := s.queue
	place, err = s.store.EnqueueReview(ctx, storage.ReviewTicket{GameID: id, UserID: userID, Queued: s.games.Now()}, q.lim.Max, q.lim.PerUser)
	switch {
	case errors.Is(err, storage.ErrQueueFull):
		return 0, nil, ErrReviewsFull
	case errors.Is(err, storage.ErrUserQueueFull):
		return 0, nil, ErrTooManyReviews
	case err != nil:
		return 0, nil, err
	}
	select {
	case q.wake <- struct{}{}:
	default:
	}
	return place, nil, nil
}

// analyseQueued is Analyse with the queue: admit, then wait for the review
// to be kept (here, or by another replica: the store is read again each
// Poll) until ctx ends, with a *QueuedError saying the place then.
func (s *Service) analyseQueued(ctx context.Context, id string, userID int64) (*Analysis, error) {
	place, a, err := s.Request(ctx, id, userID)
	if err != nil || a != nil {
		return a, err
	}
	q := s.queue
	done, stop := q.waiter(id)
	defer stop()
	poll := time.NewTicker(q.lim.Poll)
	defer poll.Stop()
	for {
		select {
		case <-done:
			done = nil // closed: heard once
		case <-poll.C:
		case <-ctx.Done():
			if p, err := s.store.ReviewPlace(context.WithoutCancel(ctx), id); err == nil && p > 0 {
				place = p
			}
			return nil, &QueuedError{Place: place, err: ctx.Err()}
		}
		g, err := s.read(ctx, id)
		if err != nil {
			return nil, err
		}
		if rv, ok := keptReview(g); ok {
			return analysisOf(g, rv), nil
		}
		if p, err := s.store.ReviewPlace(ctx, id); err == nil && p == 0 {
			return nil, fmt.Errorf("review: analysis: %w", ErrNoAnalysis) // dropped after failing again and again
		}
	}
}
