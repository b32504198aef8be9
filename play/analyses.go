package play

import (
	"context"
	"sync"

	"golang.org/x/sync/singleflight"

	"github.com/bashni/bashni/ai"
)

// analyses joins the requests for one game's review that reach this
// process while the review runs, and knows which games are under review
// here. Finished reviews are kept with the games in the store (see
// keepReview), where every replica finds them.
type analyses struct {
	flights singleflight.Group

	mu      sync.Mutex
	running map[string]bool // game ids under review
}

func newAnalyses() *analyses { return &analyses{running: map[string]bool{}} }

func (a *analyses) isRunning(id string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.running[id]
}

func (a *analyses) setRunning(id string, on bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if on {
		a.running[id] = true
	} else {
		delete(a.running, id)
	}
}

// review returns g's review: the kept one, the one under way (joined), or
// a new one. The review itself is not cancelled with ctx, since others may
// be waiting for it, and a caller that stops waiting (a page that asks
// again shortly) finds it done later; it is bounded by its own deadline
// (analysisTime and one AI move's time). A caller whose ctx ends gets
// ctx's error at once.
func (s *Service) review(ctx context.Context, g *Game, r Reviewer) (ai.Review, error) {
	id := g.ID()
	if rv, ok := keptReview(g); ok {
		return rv, nil
	}
	run := context.WithoutCancel(ctx)
	ch := s.analyses.flights.DoChan(id, func() (any, error) {
		s.analyses.setRunning(id, true)
		defer s.analyses.setRunning(id, false)
		// Finished just before this flight began: no second review.
		if fresh, err := s.Game(run, id); err == nil {
			if rv, ok := keptReview(fresh); ok {
				return rv, nil
			}
		}
		rctx, cancel := context.WithTimeout(run, analysisTime+s.cfg.AITimeout)
		defer cancel()
		rv, err := r.Review(rctx, g.rules)
		if err != nil {
			return nil, err
		}
		return s.keepReview(run, id, rv), nil
	})
	select {
	case res := <-ch:
		if res.Err != nil {
			return ai.Review{}, res.Err
		}
		return res.Val.(ai.Review), nil
	case <-ctx.Done():
		return ai.Review{}, ctx.Err()
	}
}
