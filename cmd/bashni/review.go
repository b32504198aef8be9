package main

import (
	"context"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
)

var _ play.Reviewer = timedThinker{}

// Review lets the service analyse games through the measured thinker when
// the thinker underneath can: the engine pool and the remote thinker both
// can (the latter has `bashni worker` search the positions). Analyses are
// not counted in the think-time metric, which is about AI moves.
func (t timedThinker) Review(ctx context.Context, g *rules.Game) (ai.Review, error) {
	r, ok := t.Thinker.(play.Reviewer)
	if !ok {
		return ai.Review{}, play.ErrNoAnalysis
	}
	return r.Review(ctx, g)
}
