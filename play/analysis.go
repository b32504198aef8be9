package play

import (
	"context"
	"fmt"
	"time"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/rules"
)

// Reviewer reviews whole games with the engine. EnginePool is one, and
// so is RemoteThinker (its workers search the positions); with a Thinker
// that is neither, Analyse says ErrNoAnalysis.
type Reviewer interface {
	Review(ctx context.Context, g *rules.Game) (ai.Review, error)
}

var _ Reviewer = (*EnginePool)(nil)

// Analysis bounds: the whole review takes at most analysisTime (a search
// per position, each its share of it, between the two per-position bounds).
// The engine spends the whole of a MoveTime, so these are what a player
// waits: 20 s at most, about 8 s for a game of 60 plies.
const (
	analysisTime   = 20 * time.Second
	minPerPosition = 30 * time.Millisecond
	maxPerPosition = 250 * time.Millisecond
	// MistakeThreshold is the loss (hundredths of a man) that makes a
	// move a mistake worth showing: half a man.
	MistakeThreshold = 50
	// MaxMistakes is how many mistakes an analysis lists.
	MaxMistakes = 3
)

// Analysis is a finished game reviewed by the engine.
type Analysis struct {
	Game   *Game
	Review ai.Review
	// Mistakes are the worst moves of the game's people (both sides in
	// a game between people, the human's in a game against the AI),
	// worst first.
	Mistakes []ai.MoveReview
}

// Analyse reviews a finished game with the engine: every position
// searched within a bounded time by the AI (the local pool, or the
// workers behind a RemoteThinker), one position at a time, so AI moves
// and update handling go on meanwhile (the pool lends an engine per
// position; the queue takes one job per position, in a lane its
// workers serve only when no move waits).
// Asked again for a game under review, it waits for that review; asked for
// a game reviewed lately, it answers at once (see analyses). A caller whose
// ctx ends stops waiting, with ctx's error; the review goes on.
//
// With the review queue (WithReviewQueue), the review is admitted for
// userID within the queue's bounds (ErrReviewsFull, ErrTooManyReviews) and
// done by the queue's runners; a caller whose ctx ends gets a
// *QueuedError with the review's place (it wraps ctx's error).
func (s *Service) Analyse(ctx context.Context, id string, userID int64) (*Analysis, error) {
	if s.reviews != nil {
		return s.analyseQueued(ctx, id, userID)
	}
	g, err := s.Game(ctx, id)
	if err != nil {
		return nil, err
	}
	if g.rec.Active() {
		return nil, ErrGameNotOver
	}
	r, ok := s.ai.(Reviewer)
	if !ok {
		return nil, ErrNoAnalysis
	}
	rv, err := s.review(ctx, g, r)
	if err != nil {
		return nil, fmt.Errorf("play: analysis: %w", err)
	}
	return analysisOf(g, rv), nil
}

// Analysed returns a finished game's analysis if one was made (here or by
// another replica), without starting one; if not, running says whether one
// is under way in this process.
func (s *Service) Analysed(ctx context.Context, id string) (a *Analysis, running bool, err error) {
	g, err := s.Game(ctx, id)
	if err != nil {
		return nil, false, err
	}
	if g.rec.Active() {
		return nil, false, ErrGameNotOver
	}
	if rv, ok := keptReview(g); ok {
		return analysisOf(g, rv), false, nil
	}
	if s.reviews != nil {
		place, err := s.reviews.q.ReviewPlace(ctx, id)
		return nil, place > 0, err
	}
	return nil, s.analyses.isRunning(id), nil
}

// analysisOf is g's analysis from its review.
func analysisOf(g *Game, rv ai.Review) *Analysis {
	var people []rules.Color
	for _, c := range []rules.Color{rules.White, rules.Black} {
		if g.Player(c).Human() {
			people = append(people, c)
		}
	}
	return &Analysis{Game: g, Review: rv, Mistakes: rv.Mistakes(MistakeThreshold, MaxMistakes, people...)}
}

// reviewLimits bounds each position's search in the analysis of a game of
// plies moves: its share of analysisTime, within the per-position bounds.
func reviewLimits(plies int) ai.Limits {
	share := analysisTime / time.Duration(plies+1)
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
