package main

import (
	"context"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
)

var _ play.Reviewer = timedThinker{}

// Review lets the service analyse games through the measured thinker when
// the thinker underneath can (the engine pool can, the remote one cannot).
func (t timedThinker) Review(ctx context.Context, g *rules.Game) (ai.Review, error) {
	r, ok := t.Thinker.(play.Reviewer)
	if !ok {
		return ai.Review{}, play.ErrNoAnalysis
	}
	return r.Review(ctx, g)
}
