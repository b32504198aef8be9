package ai

import (
	"context"
	"sync"
	"time"

	"github.com/bashni/bashni/rules"
)

// startHelpers sets the Engine's helper threads searching req's position
// alongside it (Lazy SMP): each runs its own iterative deepening, half of
// them a ply ahead, and what they learn reaches the main thread through the
// shared transposition table, mostly as better move ordering and cutoffs.
// Only the main thread's answer counts. The returned wait stops the helpers
// and returns the nodes they searched; it must be called before the Engine
// searches again.
func (e *Engine) startHelpers(ctx context.Context, req Request, lim Limits, start time.Time, legal []rules.Move) (wait func() uint64) {
	if len(e.helpers) == 0 {
		return func() uint64 { return 0 }
	}
	ctx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	for i, h := range e.helpers {
		h.root = h.root[:0]
		for _, m := range legal {
			h.root = append(h.root, rootMove{move: m})
		}
		h.skip = (i + 1) % 2
		wg.Add(1)
		go func() {
			defer wg.Done()
			h.prepare(ctx, req, lim, start)
			// A node limit is the main thread's: helpers stop with it.
			h.nodeLimit = 0
			p := req.Position
			h.iterate(&p, lim.Depth, false)
		}()
	}
	return func() uint64 {
		cancel()
		wg.Wait()
		var nodes uint64
		for _, h := range e.helpers {
			nodes += h.nodes
		}
		return nodes
	}
}
