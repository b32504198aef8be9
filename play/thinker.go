package play

import (
	"context"
	"errors"
	"math/rand/v2"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/rules"
)

// EnginePool is a Thinker over a fixed number of AI engines: at most that
// many searches run at once, so AI games never starve update handling of
// CPU. A search waits for a free engine (or its context).
type EnginePool struct {
	engines chan *ai.Engine
	limits  ai.Limits // when non-zero, replace the levels' limits (tests, load tests)
}

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
	p := &EnginePool{engines: make(chan *ai.Engine, size), limits: limits}
	for i := 0; i < size; i++ {
		p.engines <- ai.New(opts)
	}
	return p
}

// Think searches the game's position at level and returns the move.
func (p *EnginePool) Think(ctx context.Context, g *rules.Game, level int) (rules.Move, error) {
	e, err := p.borrow(ctx)
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

// borrow waits for a free engine (or ctx's end); giveBack returns it.
func (p *EnginePool) borrow(ctx context.Context) (*ai.Engine, error) {
	select {
	case e := <-p.engines:
		return e, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (p *EnginePool) giveBack(e *ai.Engine) { p.engines <- e }
