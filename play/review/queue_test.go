package review

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
)

// steppedReviewer searches review positions one at a time as the test
// lets it (a value on step each), recording which position (its index in
// the game) each search was for, in order.
type steppedReviewer struct {
	step    chan struct{}
	entered chan struct{} // a value as each search begins, if not nil
	mu      sync.Mutex
	seen    []int
}

func (r *steppedReviewer) Think(_ context.Context, g *rules.Game, _ int) (rules.Move, error) {
	return g.Legal()[0], nil
}

func (r *steppedReviewer) Review(context.Context, *rules.Game) (ai.Review, error) {
	return ai.Review{}, errors.New("reviews go position by position here")
}

func (r *steppedReviewer) PositionLimits(int) ai.Limits { return ai.Limits{Nodes: 100} }

func (r *steppedReviewer) SearchPosition(ctx context.Context, req ai.Request) (ai.Result, error) {
	if r.entered != nil {
		r.entered <- struct{}{}
	}
	select {
	case <-r.step:
	case <-ctx.Done():
		return ai.Result{}, ctx.Err()
	}
	r.mu.Lock()
	r.seen = append(r.seen, len(req.History))
	r.mu.Unlock()
	legal := req.Position.Legal()
	return ai.Result{Move: legal[0], Score: len(req.History)}, nil
}

func (r *steppedReviewer) searched() []int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]int(nil), r.seen...)
}

// finishedGames plays n games to their end (Alice resigns after two moves
// each way) on s.
func finishedGames(t *testing.T, s *play.Service, n int) []string {
	t.Helper()
	ids := make([]string, n)
	for i := range ids {
		ids[i] = playedAndResigned(t, s).ID()
	}
	return ids
}

// Reviews are admitted to the stored queue within its bounds, a game
// once; a runner that dies mid-review (its replica stopped) leaves the
// positions it searched stored, and another replica's runner takes the
// review up where it stopped; the queue's reviews finish in order, and a
// caller waiting for the last one gets it.
func TestReviewQueue(t *testing.T) {
	svc, _, st := newTestGames(t)
	lim := Limits{Max: 3, PerUser: 1, Runners: 1, Lease: time.Minute, Poll: time.Hour}
	first := &steppedReviewer{step: make(chan struct{}), entered: make(chan struct{})}
	a := New(svc, st, first, WithQueue(lim))
	ctx := context.Background()
	games := finishedGames(t, svc, 4)
	users := []int64{alice.UserID, bob.UserID, carol.UserID, 4}
	for i, tc := range []struct {
		game  int
		user  int64
		place int
		err   error
	}{
		{0, users[0], 1, nil},
		{1, users[0], 0, ErrTooManyReviews},
		{1, users[1], 2, nil},
		{0, users[2], 1, nil}, // queued already: its place, no share used
		{2, users[2], 3, nil},
		{3, users[3], 0, ErrReviewsFull},
	} {
		place, _, err := a.Request(ctx, games[tc.game], tc.user)
		if place != tc.place || !errors.Is(err, tc.err) {
			t.Errorf("%d: game %d for user %d: place %d, %v; want %d, %v", i, tc.game, tc.user, place, err, tc.place, tc.err)
		}
	}

	// Replica A's runner searches two positions of the first game, and
	// stops (its process shuts down) during the third.
	runA, stopA := context.WithCancel(ctx)
	doneA := make(chan struct{})
	go func() { defer close(doneA); a.Run(runA) }()
	// A search begins after the one before it is stored: the third
	// beginning says two positions are stored.
	for range 2 {
		<-first.entered
		first.step <- struct{}{}
	}
	<-first.entered
	stopA()
	<-doneA
	g, err := a.read(ctx, games[0])
	if err != nil {
		t.Fatal(err)
	}
	if w := g.rec.ReviewWork; w == nil || len(w.Points) != 2 || !w.Until.IsZero() {
		t.Fatalf("after replica A stopped: %+v; want 2 positions stored and the lease let go", w)
	}
	stored := first.searched()

	// Replica B takes it up: no position searched twice; then the rest of
	// the queue, in order.
	second := &steppedReviewer{step: make(chan struct{})}
	close(second.step)
	b := New(svc, st, second, WithQueue(lim))
	runB, stopB := context.WithCancel(ctx)
	doneB := make(chan struct{})
	go func() { defer close(doneB); b.Run(runB) }()
	defer func() { stopB(); <-doneB }()
	last, err := b.Analyse(ctx, games[2], carol.UserID) // waits for the third review, kept by B's runner
	if err != nil {
		t.Fatal(err)
	}
	if len(last.Review.Scores) != 5 {
		t.Errorf("the last review has %d scores; want 5", len(last.Review.Scores))
	}
	again := second.searched()
	for _, at := range stored {
		if again[0] == at {
			t.Errorf("replica B searched position %d again; A stored it", at)
		}
	}
	for i, id := range games[:3] {
		g, err := b.read(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if _, ok := keptReview(g); !ok || g.rec.ReviewWork != nil {
			t.Errorf("game %d: kept %v, work %+v; want kept, no work left", i, ok, g.rec.ReviewWork)
		}
		if p, err := b.Place(ctx, id); p != 0 || err != nil {
			t.Errorf("game %d: place %d after its review; want out of the queue", i, p)
		}
	}
	// The queue has room again.
	if place, _, err := b.Request(ctx, games[3], users[3]); place != 1 || err != nil {
		t.Errorf("a review after the queue emptied: %d, %v; want place 1", place, err)
	}
}
