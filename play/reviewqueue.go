package play

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// The review queue. Reviews are the engine's heaviest work (a search for
// every position of a game), and anyone may ask for one of any finished
// game; run as they came, a few at once starved AI moves and failed all
// together at their deadline. So a review is first admitted to a bounded,
// ordered queue kept in the store, within a per-user share, and then
// worked on by runners (RunReviews, in every replica) from the head, one
// position at a time: each position's result is stored with the game
// under a lease the runner renews, so a review whose replica dies is
// taken up by another where it stopped, and an admitted review finishes
// (its positions have time limits of their own; there is no deadline on
// the whole). The engine pool serves AI moves before review positions.

// ReviewQueue is the stored queue the service admits reviews to
// (storage.ReviewQueue: storage/bolt and storage/redis provide it).
type ReviewQueue interface {
	EnqueueReview(ctx context.Context, t storage.ReviewTicket, max, perUser int) (place int, err error)
	ReviewPlace(ctx context.Context, id string) (int, error)
	ReviewQueue(ctx context.Context, n int) ([]storage.ReviewTicket, error)
	FinishReview(ctx context.Context, id string) error
}

// ReviewLimits bound the review queue; zero fields take the defaults.
type ReviewLimits struct {
	Max     int // reviews queued at once, all users (32)
	PerUser int // reviews one user may have queued (2)
	Runners int // reviews this process works on at once (1)
	// Lease is how long a runner holds a review without storing a
	// position before another may take it up (30 s).
	Lease time.Duration
	// Poll is how often an idle runner looks at the queue for work
	// admitted by another replica or a lease that lapsed (2 s).
	Poll time.Duration
}

func (l ReviewLimits) withDefaults() ReviewLimits {
	if l.Max <= 0 {
		l.Max = 32
	}
	if l.PerUser <= 0 {
		l.PerUser = 2
	}
	if l.Runners <= 0 {
		l.Runners = 1
	}
	if l.Lease <= 0 {
		l.Lease = 30 * time.Second
	}
	if l.Poll <= 0 {
		l.Poll = 2 * time.Second
	}
	return l
}

// maxReviewFailures is how many runs of one review may fail (an engine
// error, a worker that never answers) before its ticket is dropped: an
// admitted review finishes unless the engines themselves are broken.
const maxReviewFailures = 5

// QueuedError says a review is admitted and waiting (or under way): the
// caller stopped waiting for it at Place in the queue (1: being worked
// on, or next). It wraps the waiting context's error.
type QueuedError struct {
	Place int
	err   error
}

func (e *QueuedError) Error() string {
	return fmt.Sprintf("play: the analysis is queued at place %d: %v", e.Place, e.err)
}

func (e *QueuedError) Unwrap() error { return e.err }

// reviewQueue is the service's side of the queue: the store's queue, its
// limits, and the callers in this process waiting for a review.
type reviewQueue struct {
	q      ReviewQueue
	lim    ReviewLimits
	holder string        // this process's name in leases
	wake   chan struct{} // a ticket was admitted here

	mu      sync.Mutex
	waiters map[string][]chan struct{} // game id: closed when its review is kept here
}

// WithReviewQueue makes reviews go through the stored queue q. Without it
// a review runs at once in the caller's process (tests, tools).
func WithReviewQueue(q ReviewQueue, lim ReviewLimits) Option {
	return func(s *Service) {
		s.reviews = &reviewQueue{q: q, lim: lim.withDefaults(), holder: rand.Text(),
			wake: make(chan struct{}, 1), waiters: map[string][]chan struct{}{}}
	}
}

// notify wakes the callers here waiting for game id's review.
func (rq *reviewQueue) notify(id string) {
	rq.mu.Lock()
	defer rq.mu.Unlock()
	for _, ch := range rq.waiters[id] {
		close(ch)
	}
	delete(rq.waiters, id)
}

// waiter returns a channel closed when game id's review is kept here, and
// a function to stop waiting.
func (rq *reviewQueue) waiter(id string) (<-chan struct{}, func()) {
	ch := make(chan struct{})
	rq.mu.Lock()
	rq.waiters[id] = append(rq.waiters[id], ch)
	rq.mu.Unlock()
	return ch, func() {
		rq.mu.Lock()
		defer rq.mu.Unlock()
		list := rq.waiters[id]
		for i, c := range list {
			if c == ch {
				rq.waiters[id] = append(list[:i:i], list[i+1:]...)
				break
			}
		}
		if len(rq.waiters[id]) == 0 {
			delete(rq.waiters, id)
		}
	}
}

// RequestReview admits finished game id's review for userID to the queue
// and returns its place (1: next or under way), or 0 with the analysis
// when the game is reviewed already. Asked again, it returns the same
// ticket's place: a game is queued once, whoever asks. Without a queue
// it admits nothing and says 1: Analyse reviews at once.
func (s *Service) RequestReview(ctx context.Context, id string, userID int64) (place int, a *Analysis, err error) {
	g, err := s.Game(ctx, id)
	if err != nil {
		return 0, nil, err
	}
	if g.rec.Active() {
		return 0, nil, ErrGameNotOver
	}
	if _, ok := s.ai.(Reviewer); !ok {
		return 0, nil, ErrNoAnalysis
	}
	if rv, ok := keptReview(g); ok {
		return 0, analysisOf(g, rv), nil
	}
	if s.reviews == nil {
		return 1, nil, nil // no queue: Analyse reviews it at once
	}
	rq := s.reviews
	place, err = rq.q.EnqueueReview(ctx, storage.ReviewTicket{GameID: id, UserID: userID, Queued: s.now()}, rq.lim.Max, rq.lim.PerUser)
	switch {
	case errors.Is(err, storage.ErrQueueFull):
		return 0, nil, ErrReviewsFull
	case errors.Is(err, storage.ErrUserQueueFull):
		return 0, nil, ErrTooManyReviews
	case err != nil:
		return 0, nil, err
	}
	select {
	case rq.wake <- struct{}{}:
	default:
	}
	return place, nil, nil
}

// analyseQueued is Analyse with the queue: admit, then wait for the review
// to be kept (here, or by another replica: the store is read again each
// Poll) until ctx ends, with a *QueuedError saying the place then.
func (s *Service) analyseQueued(ctx context.Context, id string, userID int64) (*Analysis, error) {
	place, a, err := s.RequestReview(ctx, id, userID)
	if err != nil || a != nil {
		return a, err
	}
	rq := s.reviews
	done, stop := rq.waiter(id)
	defer stop()
	poll := time.NewTicker(rq.lim.Poll)
	defer poll.Stop()
	for {
		select {
		case <-done:
			done = nil // closed: heard once
		case <-poll.C:
		case <-ctx.Done():
			if p, err := rq.q.ReviewPlace(context.WithoutCancel(ctx), id); err == nil && p > 0 {
				place = p
			}
			return nil, &QueuedError{Place: place, err: ctx.Err()}
		}
		g, err := s.Game(ctx, id)
		if err != nil {
			return nil, err
		}
		if rv, ok := keptReview(g); ok {
			return analysisOf(g, rv), nil
		}
		if p, err := rq.q.ReviewPlace(ctx, id); err == nil && p == 0 {
			return nil, fmt.Errorf("play: analysis: %w", ErrNoAnalysis) // dropped after failing again and again
		}
	}
}

// ReviewPlace is game id's place in the review queue, 0 when it is not
// queued (or there is no queue).
func (s *Service) ReviewPlace(ctx context.Context, id string) (int, error) {
	if s.reviews == nil {
		return 0, nil
	}
	return s.reviews.q.ReviewPlace(ctx, id)
}

// RunReviews works on the review queue until ctx ends, with
// ReviewLimits.Runners runners; it returns when they have stopped. Without
// a queue it returns at once.
func (s *Service) RunReviews(ctx context.Context) {
	if s.reviews == nil {
		return
	}
	var wg sync.WaitGroup
	for range s.reviews.lim.Runners {
		wg.Go(func() { s.reviewLoop(ctx) })
	}
	wg.Wait()
}

func (s *Service) reviewLoop(ctx context.Context) {
	rq := s.reviews
	poll := time.NewTicker(rq.lim.Poll)
	defer poll.Stop()
	for ctx.Err() == nil {
		if s.reviewNext(ctx) {
			continue
		}
		select {
		case <-ctx.Done():
		case <-rq.wake:
		case <-poll.C:
		}
	}
}

// reviewNext takes the first review in the queue that nobody holds and
// works on it to the end; false when there was none (or the store failed).
func (s *Service) reviewNext(ctx context.Context) bool {
	rq := s.reviews
	tickets, err := rq.q.ReviewQueue(ctx, rq.lim.Max)
	if err != nil {
		if ctx.Err() == nil {
			s.log.Warn("play: reading the review queue", "err", err)
		}
		return false
	}
	for _, t := range tickets {
		g, lease, err := s.claimReview(ctx, t.GameID)
		if err != nil || g == nil {
			continue
		}
		s.runReview(ctx, g, lease)
		return true
	}
	return false
}

// claimReview leases game id's review to this runner, unless another holds
// it. A game gone, or reviewed already, leaves the queue here.
func (s *Service) claimReview(ctx context.Context, id string) (*Game, time.Time, error) {
	rq := s.reviews
	now := s.now()
	until := now.Add(rq.lim.Lease)
	finished := false
	g, err := s.update(ctx, id, func(g *Game) error {
		finished = false
		if _, ok := keptReview(g); ok || g.rec.Active() {
			finished = true
			return errUnchanged
		}
		w := g.rec.ReviewWork
		if w != nil && w.Until.After(now) {
			return errReviewHeld
		}
		if w == nil {
			w = &storage.ReviewWork{}
			g.rec.ReviewWork = w
		}
		w.Holder, w.Until = rq.holder, until
		return nil
	})
	if isNotFound(err) || (err == nil && finished) {
		_ = rq.q.FinishReview(ctx, id)
		rq.notify(id)
		return nil, time.Time{}, nil
	}
	if err != nil {
		return nil, time.Time{}, err
	}
	return g, until, nil
}

// errReviewHeld: another runner holds the review's lease.
var errReviewHeld = errors.New("play: the review is held by another runner")

// runReview works on g's review under this runner's lease: positions
// stored already are not searched again, each new one is stored as it is
// found (renewing the lease), and the finished review is kept with the
// game and leaves the queue.
func (s *Service) runReview(ctx context.Context, g *Game, until time.Time) {
	rq := s.reviews
	id := g.ID()
	lease := until
	held := true
	done := map[int]storage.ReviewPoint{}
	for _, p := range g.rec.ReviewWork.Points {
		done[p.At] = p
	}
	var rv ai.Review
	var err error
	if pr, ok := s.ai.(PositionReviewer); ok {
		search := func(ctx context.Context, req ai.Request) (ai.Result, error) {
			at := len(req.History) // the position's index: one hash per position before it
			if p, ok := done[at]; ok {
				pos := req.Position
				if m, err := rules.ParseMove(&pos, p.Best); err == nil {
					return ai.Result{Move: m, Score: p.Score}, nil
				}
			}
			res, err := pr.SearchPosition(ctx, req)
			if err != nil {
				return res, err
			}
			point := storage.ReviewPoint{At: at, Score: res.Score, Best: res.Move.String()}
			done[at] = point
			lease, held = s.storePoint(ctx, id, lease, point)
			if !held {
				return ai.Result{}, errReviewHeld // lapsed: another runner has it now
			}
			return res, nil
		}
		rv, err = ai.ReviewGame(ctx, search, g.rules.StartPosition(), g.rules.Moves(), pr.PositionLimits(g.Ply()))
	} else {
		rv, err = s.ai.(Reviewer).Review(ctx, g.rules)
	}
	switch {
	case errors.Is(err, errReviewHeld):
		return // taken over after the lease lapsed: the other runner goes on
	case ctx.Err() != nil:
		// Shutting down: the lease goes at once, for another replica (or
		// this one restarted) to go on from the positions stored.
		s.letReviewGo(context.WithoutCancel(ctx), id, lease, false)
		return
	case err != nil:
		s.log.Warn("play: a review failed", "game", id, "err", err)
		s.letReviewGo(ctx, id, lease, true)
		return
	}
	s.keepReview(ctx, id, rv)
	if err := rq.q.FinishReview(ctx, id); err != nil {
		s.log.Warn("play: taking a review out of the queue", "game", id, "err", err)
	}
	rq.notify(id)
}

// storePoint stores a searched position with game id's review and renews
// the lease, if this runner still holds it (lease is the one it holds).
func (s *Service) storePoint(ctx context.Context, id string, lease time.Time, p storage.ReviewPoint) (time.Time, bool) {
	rq := s.reviews
	next := s.now().Add(rq.lim.Lease)
	_, err := s.update(ctx, id, func(g *Game) error {
		w := g.rec.ReviewWork
		if w == nil || w.Holder != rq.holder || !w.Until.Equal(lease) {
			return errReviewHeld
		}
		w.Points = append(w.Points, p)
		w.Until = next
		return nil
	})
	if err != nil {
		return lease, false
	}
	return next, true
}

// letReviewGo gives up this runner's lease on game id's review, so that a
// runner takes it up again; failed counts the run as failed, and after
// maxReviewFailures the ticket is dropped.
func (s *Service) letReviewGo(ctx context.Context, id string, lease time.Time, failed bool) {
	rq := s.reviews
	drop := false
	_, err := s.update(ctx, id, func(g *Game) error {
		w := g.rec.ReviewWork
		if w == nil || w.Holder != rq.holder || !w.Until.Equal(lease) {
			return errReviewHeld
		}
		if failed {
			w.Failures++
		}
		w.Until = timeZero
		drop = w.Failures >= maxReviewFailures
		return nil
	})
	if err == nil && drop {
		s.log.Error("play: a review failed again and again: dropped from the queue", "game", id)
		_ = rq.q.FinishReview(ctx, id)
		rq.notify(id)
	}
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
	_ PositionReviewer = (*EnginePool)(nil)
	_ PositionReviewer = (*RemoteThinker)(nil)
)

func (p *EnginePool) PositionLimits(plies int) ai.Limits {
	if p.limits != (ai.Limits{}) {
		return p.limits
	}
	return reviewLimits(plies)
}

func (p *EnginePool) SearchPosition(ctx context.Context, req ai.Request) (ai.Result, error) {
	e, err := p.borrow(ctx, forReview)
	if err != nil {
		return ai.Result{}, err
	}
	defer p.giveBack(e)
	return e.Search(ctx, req)
}

func (r *RemoteThinker) PositionLimits(plies int) ai.Limits { return reviewLimits(plies) }

func (r *RemoteThinker) SearchPosition(ctx context.Context, req ai.Request) (ai.Result, error) {
	ctx, cancel := context.WithTimeout(ctx, req.Limits.MoveTime+r.maxWait)
	defer cancel()
	m, reply, err := r.ask(ctx, AIJob{Position: req.Position, History: req.History, QuietPlies: req.QuietPlies, Limits: req.Limits})
	if err != nil {
		return ai.Result{}, err
	}
	return ai.Result{Move: m, Score: reply.Score, Depth: reply.Depth, Nodes: reply.Nodes}, nil
}
