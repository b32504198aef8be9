package play

import (
	"context"
	"fmt"
	"time"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/rules"
)

// The engines' side of a game's review (package play/review keeps the
// reviews): a review searches every position of a finished game, and both
// the local pool and the remote workers search them one at a time, among
// the AI moves of the moment, never ahead of them.

// AnalysisTime bounds a whole review: each position searched gets its
// share of it, between the two per-position bounds. The engine spends the
// whole of a MoveTime, so these are what a player waits: 20 s at most,
// about 8 s for a game of 60 plies.
const AnalysisTime = 20 * time.Second

const (
	minPerPosition = 30 * time.Millisecond
	maxPerPosition = 250 * time.Millisecond
)

// reviewLimits bounds each position's search in the review of a game of
// plies moves: its share of AnalysisTime, within the per-position bounds.
func reviewLimits(plies int) ai.Limits {
	share := AnalysisTime / time.Duration(plies+1)
	return ai.Limits{MoveTime: min(max(share, minPerPosition), maxPerPosition)}
}

// Review reviews a game, borrowing one of the pool's engines for each
// position in turn, so a review never holds an engine an AI move waits
// for longer than one position's search.
func (p *EnginePool) Review(ctx context.Context, g *rules.Game) (ai.Review, error) {
	per := p.PositionLimits(g.Ply())
	search := p.SearchPosition
	return ai.ReviewGame(ctx, search, g.StartPosition(), g.Moves(), per)
}

// PositionLimits bounds each position's search in the review of a game of
// plies moves: the pool's own limits if it has any (tests), else the
// position's share of AnalysisTime.
func (p *EnginePool) PositionLimits(plies int) ai.Limits {
	if p.limits != (ai.Limits{}) {
		return p.limits
	}
	return reviewLimits(plies)
}

// SearchPosition searches one position of a review on an engine the pool
// lends after every AI move waiting for one.
func (p *EnginePool) SearchPosition(ctx context.Context, req ai.Request) (ai.Result, error) {
	e, err := p.borrow(ctx, forReview)
	if err != nil {
		return ai.Result{}, err
	}
	defer p.giveBack(e)
	return e.Search(ctx, req)
}

// Review analyses a finished game on the workers: one job per position
// that needs a search, each sent once the one before it is answered, with
// the limits the local engine pool would use. So an analysis holds at
// most one worker at a time and its jobs queue up among the AI moves of
// the moment instead of ahead of them; a position whose worker dies is
// taken up by another after the queue's visibility timeout. ctx bounds
// the whole (package review gives it AnalysisTime); each position is
// also given up on after its own search time plus MaxWait, as a move
// would be, so that a queue without workers fails an analysis in seconds.
func (r *RemoteThinker) Review(ctx context.Context, g *rules.Game) (ai.Review, error) {
	per := reviewLimits(g.Ply())
	search := r.SearchPosition
	rv, err := ai.ReviewGame(ctx, search, g.StartPosition(), g.Moves(), per)
	if err != nil {
		return ai.Review{}, fmt.Errorf("play: remote analysis: %w", err)
	}
	return rv, nil
}

// PositionLimits bounds each position's search in the review of a game of
// plies moves: its share of AnalysisTime.
func (r *RemoteThinker) PositionLimits(plies int) ai.Limits { return reviewLimits(plies) }

// SearchPosition has a worker search one position of a review, given up
// on after its search time and MaxWait, as a move would be.
func (r *RemoteThinker) SearchPosition(ctx context.Context, req ai.Request) (ai.Result, error) {
	ctx, cancel := context.WithTimeout(ctx, req.Limits.MoveTime+r.maxWait)
	defer cancel()
	m, reply, err := r.ask(ctx, AIJob{Position: req.Position, History: req.History, QuietPlies: req.QuietPlies, Limits: req.Limits})
	if err != nil {
		return ai.Result{}, err
	}
	return ai.Result{Move: m, Score: reply.Score, Depth: reply.Depth, Nodes: reply.Nodes}, nil
}
