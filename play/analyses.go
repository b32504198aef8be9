package play

import (
	"container/list"
	"context"
	"sync"

	"golang.org/x/sync/singleflight"

	"github.com/bashni/bashni/ai"
)

// keptAnalyses is how many finished reviews a process keeps: a review is a
// few kilobytes, and the games people analyse are the ones just finished.
const keptAnalyses = 64

// analyses coalesces the reviews of one game asked for at once and keeps
// the latest finished ones. A finished game never changes, so its review
// never goes stale; the chat's Analyse button and the Mini App share them.
// Reviews are kept per process: another replica asked for the same game
// reviews it again.
type analyses struct {
	flights singleflight.Group

	mu      sync.Mutex
	done    map[string]*list.Element // game id → element of order, holding a keptReview
	order   *list.List               // most recently used first
	running map[string]bool          // game ids under review
}

type keptReview struct {
	id     string
	review ai.Review
}

func newAnalyses() *analyses {
	return &analyses{done: map[string]*list.Element{}, order: list.New(), running: map[string]bool{}}
}

// get returns the kept review of game id played to ply, if there is one.
func (a *analyses) get(id string, ply int) (ai.Review, bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	e, ok := a.done[id]
	if !ok {
		return ai.Review{}, false
	}
	rv := e.Value.(keptReview).review
	if len(rv.Moves) != ply { // not this game's moves: never expected
		return ai.Review{}, false
	}
	a.order.MoveToFront(e)
	return rv, true
}

func (a *analyses) put(id string, rv ai.Review) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if e, ok := a.done[id]; ok {
		e.Value = keptReview{id, rv}
		a.order.MoveToFront(e)
		return
	}
	a.done[id] = a.order.PushFront(keptReview{id, rv})
	for a.order.Len() > keptAnalyses {
		last := a.order.Back()
		a.order.Remove(last)
		delete(a.done, last.Value.(keptReview).id)
	}
}

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
	if rv, ok := s.analyses.get(id, g.Ply()); ok {
		return rv, nil
	}
	run := context.WithoutCancel(ctx)
	ch := s.analyses.flights.DoChan(id, func() (any, error) {
		s.analyses.setRunning(id, true)
		defer s.analyses.setRunning(id, false)
		// Finished just before this flight began: no second review.
		if rv, ok := s.analyses.get(id, g.Ply()); ok {
			return rv, nil
		}
		rctx, cancel := context.WithTimeout(run, analysisTime+s.cfg.AITimeout)
		defer cancel()
		rv, err := r.Review(rctx, g.rules)
		if err != nil {
			return nil, err
		}
		s.analyses.put(id, rv)
		return rv, nil
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
