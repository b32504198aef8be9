package review

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage/bolt"
)

func TestAnalyseAFinishedGame(t *testing.T) {
	games, _, st := newTestGames(t)
	s := New(games, st, play.NewEnginePool(1, 1, ai.Limits{Nodes: 2000}))
	ctx := context.Background()
	g := aiGame(t, games)
	if _, err := s.Analyse(ctx, g.ID(), alice.UserID); !errors.Is(err, play.ErrGameNotOver) {
		t.Errorf("analysis of a game in progress: err = %v, want ErrGameNotOver", err)
	}
	for range 4 {
		g = moveAndAnswer(t, games, g.ID(), g.Rules().Legal()[0].String())
	}
	if _, err := games.Resign(ctx, g.ID(), alice.UserID); err != nil {
		t.Fatal(err)
	}
	a, err := s.Analyse(ctx, g.ID(), alice.UserID)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Review.Scores) != 9 || len(a.Review.Moves) != 8 {
		t.Errorf("%d scores, %d moves reviewed; want 9 and 8", len(a.Review.Scores), len(a.Review.Moves))
	}
	for _, m := range a.Mistakes {
		if m.Mover != rules.White {
			t.Errorf("a mistake of the AI is listed: %+v", m)
		}
	}
}

// gatedReviewer is a Thinker that reviews games only when let: it counts
// the reviews it was asked for.
type gatedReviewer struct {
	calls   atomic.Int32
	started chan struct{} // one value per review begun
	release chan struct{} // closed: reviews end
}

func (r *gatedReviewer) Think(_ context.Context, g *rules.Game, _ int) (rules.Move, error) {
	return g.Legal()[0], nil
}

func (r *gatedReviewer) Review(ctx context.Context, g *rules.Game) (ai.Review, error) {
	r.calls.Add(1)
	r.started <- struct{}{}
	select {
	case <-r.release:
	case <-ctx.Done():
		return ai.Review{}, ctx.Err()
	}
	rv := ai.Review{Scores: make([]int, g.Ply()+1)}
	for i, m := range g.Moves() {
		rv.Moves = append(rv.Moves, ai.MoveReview{Ply: i, Move: m, Best: m})
	}
	return rv, nil
}

// Asked for one game's analysis several times at once and again later,
// the service reviews it once; a caller who stops waiting does not stop
// the review the others wait for.
func TestAnalysesAreCoalescedAndKept(t *testing.T) {
	clock := testkit.NewClock(time.Now())
	st, err := bolt.Open(filepath.Join(t.TempDir(), "bashni.db"), clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	rv := &gatedReviewer{started: make(chan struct{}, 8), release: make(chan struct{})}
	games := play.New(st, rv, play.DefaultConfig, clock.Now)
	s := New(games, st, rv)
	ctx := context.Background()
	g := startGame(t, games)
	for i, m := range []string{"c3-d4", "f6-e5"} {
		by := []int64{alice.UserID, bob.UserID}[i]
		if _, err := games.Move(ctx, g.ID(), by, play.AnyPly, m); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := games.Resign(ctx, g.ID(), alice.UserID); err != nil {
		t.Fatal(err)
	}
	if a, running, err := s.Analysed(ctx, g.ID()); a != nil || running || err != nil {
		t.Fatalf("before any analysis: %v, running %v, %v; want none", a, running, err)
	}

	const waiters = 3
	results := make(chan error, waiters)
	for range waiters {
		go func() {
			a, err := s.Analyse(ctx, g.ID(), alice.UserID)
			if err == nil && len(a.Review.Scores) != 3 {
				err = fmt.Errorf("%d scores, want 3", len(a.Review.Scores))
			}
			results <- err
		}()
	}
	<-rv.started
	if _, running, _ := s.Analysed(ctx, g.ID()); !running {
		t.Error("Analysed does not say a review is under way")
	}
	// One who gives up waiting gets its own error; the review goes on.
	gone, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := s.Analyse(gone, g.ID(), alice.UserID); !errors.Is(err, context.Canceled) {
		t.Errorf("a caller who gave up: err = %v, want context.Canceled", err)
	}
	close(rv.release)
	for range waiters {
		if err := <-results; err != nil {
			t.Error(err)
		}
	}
	if _, err := s.Analyse(ctx, g.ID(), alice.UserID); err != nil {
		t.Fatal(err)
	}
	if a, running, err := s.Analysed(ctx, g.ID()); a == nil || running || err != nil {
		t.Errorf("after the analysis: %v, running %v, %v; want it kept", a, running, err)
	}
	if n := rv.calls.Load(); n != 1 {
		t.Errorf("%d reviews of one game; want 1", n)
	}
}
