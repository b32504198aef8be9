package review

import (
	"context"
	"sync"

	"golang.org/x/sync/singleflight"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/play"
)

// flights joins the requests for one game's review that reach this
// process while the review runs, and knows which games are under review
// here. Finished reviews are kept with the games in the store (see
// keepReview), where every replica finds them.
type flights struct {
	group singleflight.Group

	mu      sync.Mutex
	running map[string]bool // game ids under review
}

func newFlights() *flights { return &flights{running: map[string]bool{}} }

func (f *flights) isRunning(id string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.running[id]
}

func (f *flights) setRunning(id string, on bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if on {
		f.running[id] = true
	} else {
		delete(f.running, id)
	}
}

// review returns g's review: the kept one, the one under way (joined), or
// a new one. The review itself is not cancelled with ctx, since others may
// be waiting for it, and a caller that stops waiting (a page that asks
// again shortly) finds it done later; it is bounded by its own deadline
// (play.AnalysisTime and one AI move's time). A caller whose ctx ends gets
// ctx's error at once.
func (s *Service) review(ctx context.Context, g *game) (ai.Review, error) {
	id := g.ID()
	if rv, ok := keptReview(g); ok {
		return rv, nil
	}
	run := context.WithoutCancel(ctx)
	ch := s.flights.group.DoChan(id, func() (any, error) {
		s.flights.setRunning(id, true)
		defer s.flights.setRunning(id, false)
		// Finished just before this flight began: no second review.
		if fresh, err := s.read(run, id); err == nil {
			if rv, ok := keptReview(fresh); ok {
				return rv, nil
			}
		}
		rctx, cancel := context.WithTimeout(run, play.AnalysisTime+s.games.Config().AITimeout)
		defer cancel()
		rv, err := s.engine.Review(rctx, g.Rules())
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
