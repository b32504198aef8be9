package review

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// Store is what reviews need of storage (storage/bolt and storage/redis
// provide it): the game's record, where a review is kept, and the queue.
type Store interface {
	// Game and UpdateGame read and compare-and-set a game's record
	// (storage.Store's contract).
	Game(ctx context.Context, id string) (*storage.GameRecord, error)
	UpdateGame(ctx context.Context, g *storage.GameRecord) error
	storage.ReviewQueue
}

// Reviewer reviews whole games with the engine: play.EnginePool and
// play.RemoteThinker are ones (the latter's workers search the positions).
type Reviewer interface {
	Review(ctx context.Context, g *rules.Game) (ai.Review, error)
}

// PositionReviewer searches single positions of a review, so the queue's
// runners can store each as it is found: the local pool (after AI moves)
// and the remote workers are ones. A Reviewer that is not one reviews a
// game whole, and a runner that dies starts it over.
type PositionReviewer interface {
	// PositionLimits bounds each position's search in a game of plies
	// moves.
	PositionLimits(plies int) ai.Limits
	// SearchPosition searches one position of a review.
	SearchPosition(ctx context.Context, req ai.Request) (ai.Result, error)
}

var (
	_ Reviewer         = (*play.EnginePool)(nil)
	_ Reviewer         = (*play.RemoteThinker)(nil)
	_ PositionReviewer = (*play.EnginePool)(nil)
	_ PositionReviewer = (*play.RemoteThinker)(nil)
)

const (
	// MistakeThreshold is the loss (hundredths of a man) that makes a
	// move a mistake worth showing: half a man.
	MistakeThreshold = 50
	// MaxMistakes is how many mistakes an analysis lists.
	MaxMistakes = 3
)

// Analysis is a finished game reviewed by the engine.
type Analysis struct {
	Game   *play.Game
	Review ai.Review
	// Mistakes are the worst moves of the game's people (both sides in
	// a game between people, the human's in a game against the AI),
	// worst first.
	Mistakes []ai.MoveReview
}

// Service reviews finished games. It is safe for concurrent use.
type Service struct {
	games  *play.Service // the clock and the AI's time bound
	store  Store
	engine Reviewer // nil: ErrNoAnalysis
	log    *slog.Logger
	// flights joins the reviews asked for at once here (flights.go).
	flights *flights
	// queue is the stored review queue, if configured (queue.go).
	queue *queue
}

// Option configures a Service.
type Option func(*Service)

// WithLogger injects the logger.
func WithLogger(l *slog.Logger) Option { return func(s *Service) { s.log = l } }

// New returns the reviews of games's finished games, kept in store and
// searched by engine (nil: none here, every analysis is ErrNoAnalysis).
// The clock is games's (play.Service.Now).
func New(games *play.Service, store Store, engine Reviewer, opts ...Option) *Service {
	s := &Service{games: games, store: store, engine: engine, log: slog.New(slog.DiscardHandler), flights: newFlights()}
	for _, o := range opts {
		o(s)
	}
	return s
}

// Analyse reviews a finished game with the engine: every position
// searched within a bounded time by the AI (the local pool, or the
// workers behind a RemoteThinker), one position at a time, so AI moves
// and update handling go on meanwhile (the pool lends an engine per
// position; the queue takes one job per position, in a lane its
// workers serve only when no move waits).
// Asked again for a game under review, it waits for that review; asked for
// a game reviewed lately, it answers at once (see flights). A caller whose
// ctx ends stops waiting, with ctx's error; the review goes on.
//
// With the review queue (WithQueue), the review is admitted for userID
// within the queue's bounds (ErrReviewsFull, ErrTooManyReviews) and done
// by the queue's runners; a caller whose ctx ends gets a *QueuedError with
// the review's place (it wraps ctx's error).
func (s *Service) Analyse(ctx context.Context, id string, userID int64) (*Analysis, error) {
	if s.queue != nil {
		return s.analyseQueued(ctx, id, userID)
	}
	g, err := s.finished(ctx, id)
	if err != nil {
		return nil, err
	}
	rv, err := s.review(ctx, g)
	if err != nil {
		return nil, fmt.Errorf("review: analysis: %w", err)
	}
	return analysisOf(g, rv), nil
}

// Analysed returns a finished game's analysis if one was made (here or by
// another replica), without starting one; if not, running says whether one
// is under way (in this process, or in the queue).
func (s *Service) Analysed(ctx context.Context, id string) (a *Analysis, running bool, err error) {
	g, err := s.read(ctx, id)
	if err != nil {
		return nil, false, err
	}
	if g.Active() {
		return nil, false, play.ErrGameNotOver
	}
	if rv, ok := keptReview(g); ok {
		return analysisOf(g, rv), false, nil
	}
	if s.queue != nil {
		place, err := s.store.ReviewPlace(ctx, id)
		return nil, place > 0, err
	}
	return nil, s.flights.isRunning(id), nil
}

// Place is game id's place in the review queue, 0 when it is not queued
// (or there is no queue).
func (s *Service) Place(ctx context.Context, id string) (int, error) {
	if s.queue == nil {
		return 0, nil
	}
	return s.store.ReviewPlace(ctx, id)
}

// analysisOf is g's analysis from its review.
func analysisOf(g *game, rv ai.Review) *Analysis {
	var people []rules.Color
	for _, c := range []rules.Color{rules.White, rules.Black} {
		if g.Player(c).Human() {
			people = append(people, c)
		}
	}
	return &Analysis{Game: g.Game, Review: rv, Mistakes: rv.Mistakes(MistakeThreshold, MaxMistakes, people...)}
}

// game is a game as reviews read it: its stored record (for the review
// kept in it) and its rules state.
type game struct {
	*play.Game
	rec *storage.GameRecord
}

// read reads game id from the store.
func (s *Service) read(ctx context.Context, id string) (*game, error) {
	rec, err := s.store.Game(ctx, id)
	if err != nil {
		return nil, err
	}
	g, err := play.LoadGame(rec.Clone())
	if err != nil {
		return nil, err
	}
	return &game{Game: g, rec: rec}, nil
}

// finished reads game id, which must be over, for an engine to review:
// ErrGameNotOver, ErrNoAnalysis.
func (s *Service) finished(ctx context.Context, id string) (*game, error) {
	g, err := s.read(ctx, id)
	if err != nil {
		return nil, err
	}
	if g.Active() {
		return nil, play.ErrGameNotOver
	}
	if s.engine == nil {
		return nil, ErrNoAnalysis
	}
	return g, nil
}

// maxAttempts bounds the compare-and-set retries of one change, as play's.
const maxAttempts = 8

// errUnchanged lets a change say "nothing to write" without error.
var errUnchanged = errors.New("review: unchanged")

// change reads game id, lets decide change the review kept in its record,
// and writes the record back with a compare-and-set, deciding again from a
// fresh read whenever another writer (a move's bookkeeping, another
// replica's runner) won the race. decide changes only the record's Review
// and ReviewWork.
func (s *Service) change(ctx context.Context, id string, decide func(g *game) error) (*game, error) {
	for range maxAttempts {
		g, err := s.read(ctx, id)
		if err != nil {
			return nil, err
		}
		if err := decide(g); err != nil {
			if errors.Is(err, errUnchanged) {
				return g, nil
			}
			return nil, err
		}
		g.rec.UpdatedAt = s.games.Now()
		err = s.store.UpdateGame(ctx, g.rec)
		if errors.Is(err, storage.ErrConflict) {
			continue
		}
		if err != nil {
			return nil, err
		}
		return g, nil
	}
	return nil, play.ErrBusy
}
