package review

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// The queue's runners. Each position's result is stored with the game
// under a lease the runner renews, so a review whose replica dies is taken
// up by another where it stopped, and an admitted review finishes (its
// positions have time limits of their own; there is no deadline on the
// whole). The engine pool serves AI moves before review positions.

// maxReviewFailures is how many runs of one review may fail (an engine
// error, a worker that never answers) before its ticket is dropped: an
// admitted review finishes unless the engines themselves are broken.
const maxReviewFailures = 5

// errReviewHeld: another runner holds the review's lease.
var errReviewHeld = errors.New("review: the review is held by another runner")

// Run works on the review queue until ctx ends, with Limits.Runners
// runners; it returns when they have stopped. Without a queue, or an
// engine, it returns at once.
func (s *Service) Run(ctx context.Context) {
	if s.queue == nil || s.engine == nil {
		return
	}
	var wg sync.WaitGroup
	for range s.queue.lim.Runners {
		wg.Go(func() { s.runLoop(ctx) })
	}
	wg.Wait()
}

func (s *Service) runLoop(ctx context.Context) {
	q := s.queue
	poll := time.NewTicker(q.lim.Poll)
	defer poll.Stop()
	for ctx.Err() == nil {
		if s.runNext(ctx) {
			continue
		}
		select {
		case <-ctx.Done():
		case <-q.wake:
		case <-poll.C:
		}
	}
}

// runNext takes the first review in the queue that nobody holds and works
// on it to the end; false when there was none (or the store failed).
func (s *Service) runNext(ctx context.Context) bool {
	tickets, err := s.store.ReviewQueue(ctx, s.queue.lim.Max)
	if err != nil {
		if ctx.Err() == nil {
			s.log.Warn("review: reading the review queue", "err", err)
		}
		return false
	}
	for _, t := range tickets {
		g, lease, err := s.claim(ctx, t.GameID)
		if err != nil || g == nil {
			continue
		}
		s.work(ctx, g, lease)
		return true
	}
	return false
}

// claim leases game id's review to this runner, unless another holds it.
// A game gone, or reviewed already, leaves the queue here.
func (s *Service) claim(ctx context.Context, id string) (*game, time.Time, error) {
	q := s.queue
	now := s.games.Now()
	until := now.Add(q.lim.Lease)
	finished := false
	g, err := s.change(ctx, id, func(g *game) error {
		finished = false
		if _, ok := keptReview(g); ok || g.Active() {
			finished = true
			return errUnchanged
		}
		w := g.rec.ReviewWork
		if w != nil && w.Until.After(now) {
			return errReviewHeld
		}
		if w == nil {
			w = &storage.ReviewWork{}
			g.rec.ReviewWork = w
		}
		w.Holder, w.Until = q.holder, until
		return nil
	})
	if errors.Is(err, storage.ErrNotFound) || (err == nil && finished) {
		_ = s.store.FinishReview(ctx, id)
		q.notify(id)
		return nil, time.Time{}, nil
	}
	if err != nil {
		return nil, time.Time{}, err
	}
	return g, until, nil
}

// work works on g's review under this runner's lease: positions stored
// already are not searched again, each new one is stored as it is found
// (renewing the lease), and the finished review is kept with the game and
// leaves the queue.
func (s *Service) work(ctx context.Context, g *game, until time.Time) {
	id := g.ID()
	var rv ai.Review
	var err error
	lease := until
	if pr, ok := s.engine.(PositionReviewer); ok {
		rv, err = s.searchStored(ctx, g, pr, &lease)
	} else {
		rv, err = s.engine.Review(ctx, g.Rules())
	}
	switch {
	case errors.Is(err, errReviewHeld):
		return // taken over after the lease lapsed: the other runner goes on
	case ctx.Err() != nil:
		// Shutting down: the lease goes at once, for another replica (or
		// this one restarted) to go on from the positions stored.
		s.letGo(context.WithoutCancel(ctx), id, lease, false)
		return
	case err != nil:
		s.log.Warn("review: a review failed", "game", id, "err", err)
		s.letGo(ctx, id, lease, true)
		return
	}
	s.keepReview(ctx, id, rv)
	if err := s.store.FinishReview(ctx, id); err != nil {
		s.log.Warn("review: taking a review out of the queue", "game", id, "err", err)
	}
	s.queue.notify(id)
}

// searchStored reviews g position by position with pr, taking the
// positions stored already from the record and storing each new one as it
// is found, under *lease (renewed with each).
func (s *Service) searchStored(ctx context.Context, g *game, pr PositionReviewer, lease *time.Time) (ai.Review, error) {
	id := g.ID()
	done := map[int]storage.ReviewPoint{}
	for _, p := range g.rec.ReviewWork.Points {
		done[p.At] = p
	}
	search := func(ctx context.Context, req ai.Request) (ai.Result, error) {
		at := len(req.History) // the position's index: one hash per position before it
		if p, ok := done[at]; ok {
			pos := req.Position
			if m, err := rules.ParseMove(&pos, p.Best); err == nil {
				return ai.Result{Move: m, Score: p.Score}, nil
			}
		}
		res, err := pr.SearchPosition(ctx, req)
		if err != nil {
			return res, err
		}
		point := storage.ReviewPoint{At: at, Score: res.Score, Best: res.Move.String()}
		done[at] = point
		var held bool
		*lease, held = s.storePoint(ctx, id, *lease, point)
		if !held {
			return ai.Result{}, errReviewHeld // lapsed: another runner has it now
		}
		return res, nil
	}
	return ai.ReviewGame(ctx, search, g.Rules().StartPosition(), g.Rules().Moves(), pr.PositionLimits(g.Ply()))
}

// storePoint stores a searched position with game id's review and renews
// the lease, if this runner still holds it (lease is the one it holds).
func (s *Service) storePoint(ctx context.Context, id string, lease time.Time, p storage.ReviewPoint) (time.Time, bool) {
	q := s.queue
	next := s.games.Now().Add(q.lim.Lease)
	_, err := s.change(ctx, id, func(g *game) error {
		w := g.rec.ReviewWork
		if w == nil || w.Holder != q.holder || !w.Until.Equal(lease) {
			return errReviewHeld
		}
		w.Points = append(w.Points, p)
		w.Until = next
		return nil
	})
	if err != nil {
		return lease, false
	}
	return next, true
}

// letGo gives up this runner's lease on game id's review, so that a runner
// takes it up again; failed counts the run as failed, and after
// maxReviewFailures the ticket is dropped.
func (s *Service) letGo(ctx context.Context, id string, lease time.Time, failed bool) {
	q := s.queue
	drop := false
	_, err := s.change(ctx, id, func(g *game) error {
		w := g.rec.ReviewWork
		if w == nil || w.Holder != q.holder || !w.Until.Equal(lease) {
			return errReviewHeld
		}
		if failed {
			w.Failures++
		}
		w.Until = time.Time{}
		drop = w.Failures >= maxReviewFailures
		return nil
	})
	if err == nil && drop {
		s.log.Error("review: a review failed again and again: dropped from the queue", "game", id)
		_ = s.store.FinishReview(ctx, id)
		q.notify(id)
	}
}
