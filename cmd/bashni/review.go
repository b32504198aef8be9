package main

import (
	"context"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/play/review"
	"github.com/bashni/bashni/rules"
)

var _ review.Reviewer = timedThinker{}

// Review lets package play/review analyse games through the measured
// thinker when the thinker underneath can: the engine pool and the remote
// thinker both can (the latter has `bashni worker` search the positions).
// Analyses are not counted in the think-time metric, which is about AI
// moves.
func (t timedThinker) Review(ctx context.Context, g *rules.Game) (ai.Review, error) {
	r, ok := t.Thinker.(review.Reviewer)
	if !ok {
		return ai.Review{}, review.ErrNoAnalysis
	}
	return r.Review(ctx, g)
}

var _ review.PositionReviewer = timedThinker{}

// PositionLimits and SearchPosition let the review queue's runners store
// each position as it is searched, through the thinker underneath (both
// the engine pool and the remote thinker search single positions).
func (t timedThinker) PositionLimits(plies int) ai.Limits {
	if r, ok := t.Thinker.(review.PositionReviewer); ok {
		return r.PositionLimits(plies)
	}
	return ai.Limits{} // a review then fails: no limit per position
}

// SearchPosition: see PositionLimits.
func (t timedThinker) SearchPosition(ctx context.Context, req ai.Request) (ai.Result, error) {
	if r, ok := t.Thinker.(review.PositionReviewer); ok {
		return r.SearchPosition(ctx, req)
	}
	return ai.Result{}, review.ErrNoAnalysis
}
