package play

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/rules"
)

// EnginePool is a Thinker over a fixed number of AI engines: at most that
// many searches run at once, so AI games never starve update handling of
// CPU. A search waits for a free engine (or its context). AI moves and
// hints come first: an engine given back goes to a waiting move before
// any waiting review position, so queued reviews never slow a game.
type EnginePool struct {
	mu      sync.Mutex
	free    []*ai.Engine
	waiting [2][]chan *ai.Engine // by class: moves, then review positions
	limits  ai.Limits            // when non-zero, replace the levels' limits (tests, load tests)
}

// Classes of searches, in the order the pool serves them.
const (
	forMove   = 0
	forReview = 1
)

var _ Thinker = (*EnginePool)(nil)

// NewEnginePool makes size engines with hashMB of transposition table each.
// Non-zero limits replace every level's own (used to keep tests fast).
func NewEnginePool(size, hashMB int, limits ai.Limits) *EnginePool {
	return NewEnginePoolOptions(size, ai.Options{HashMB: hashMB}, limits)
}

// NewEnginePoolOptions is NewEnginePool with every engine made with opts
// (table size, threads per search).
func NewEnginePoolOptions(size int, opts ai.Options, limits ai.Limits) *EnginePool {
	if size < 1 {
		size = 1
	}
	p := &EnginePool{limits: limits}
	for i := 0; i < size; i++ {
		p.free = append(p.free, ai.New(opts))
	}
	return p
}

// Think searches the game's position at level and returns the move.
func (p *EnginePool) Think(ctx context.Context, g *rules.Game, level int) (rules.Move, error) {
	e, err := p.borrow(ctx, forMove)
	if err != nil {
		return rules.Move{}, err
	}
	defer p.giveBack(e)
	req := ai.Request{
		Position:   g.Position(),
		History:    g.History(),
		QuietPlies: g.QuietPlies(),
		Level:      level,
		Limits:     p.limits,
		Seed:       rand.Int64(),
	}
	if p.limits != (ai.Limits{}) {
		req.Level = 0
	}
	res, err := e.Search(ctx, req)
	if err != nil && !(errors.Is(err, context.DeadlineExceeded) && res.Move.Len() > 0) {
		return rules.Move{}, err
	}
	return res.Move, nil
}

// borrow waits for a free engine (or ctx's end) for a search of class;
// giveBack returns it.
func (p *EnginePool) borrow(ctx context.Context, class int) (*ai.Engine, error) {
	p.mu.Lock()
	if n := len(p.free); n > 0 && (class == forMove || len(p.waiting[forMove]) == 0) {
		e := p.free[n-1]
		p.free = p.free[:n-1]
		p.mu.Unlock()
		return e, nil
	}
	ch := make(chan *ai.Engine, 1)
	p.waiting[class] = append(p.waiting[class], ch)
	p.mu.Unlock()
	select {
	case e := <-ch:
		return e, nil
	case <-ctx.Done():
		p.mu.Lock()
		i := slices.Index(p.waiting[class], ch)
		if i >= 0 {
			p.waiting[class] = slices.Delete(p.waiting[class], i, i+1)
		}
		p.mu.Unlock()
		if i < 0 {
			p.giveBack(<-ch) // handed over as ctx ended: pass it on
		}
		return nil, ctx.Err()
	}
}

// giveBack hands e to the first waiting search of the first class that has
// one, or keeps it free.
func (p *EnginePool) giveBack(e *ai.Engine) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for class := range p.waiting {
		if len(p.waiting[class]) > 0 {
			ch := p.waiting[class][0]
			p.waiting[class] = p.waiting[class][1:]
			ch <- e
			return
		}
	}
	p.free = append(p.free, e)
}
