package play

import (
	"context"
	"sync"

	lru "github.com/hashicorp/golang-lru/v2"
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
	// done holds the finished reviews by game id, least recently used
	// dropped first (hashicorp/golang-lru: safe for concurrent use).
	done *lru.Cache[string, ai.Review]

	mu      sync.Mutex
	running map[string]bool // game ids under review
}

func newAnalyses() *analyses {
	done, err := lru.New[string, ai.Review](keptAnalyses)
	if err != nil {
		panic(err) // only for a size below 1
	}
	return &analyses{done: done, running: map[string]bool{}}
}

// get returns the kept review of game id played to ply, if there is one.
func (a *analyses) get(id string, ply int) (ai.Review, bool) {
	rv, ok := a.done.Get(id)
	if !ok || len(rv.Moves) != ply { // another length: not this game's moves, never expected
		return ai.Review{}, false
	}
	return rv, true
}

func (a *analyses) put(id string, rv ai.Review) { a.done.Add(id, rv) }

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
