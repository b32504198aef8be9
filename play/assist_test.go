package play

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage/bolt"
)

// aiGame starts alice (White) against the AI at level 2.
func aiGame(t *testing.T, s *Service) *Game {
	t.Helper()
	g, err := s.NewAIGame(context.Background(), AIGameRequest{ChatID: 1, Human: alice, Level: 2, Color: ColorWhite})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// moveAndAnswer plays text for alice and lets the AI answer.
func moveAndAnswer(t *testing.T, s *Service, id, text string) *Game {
	t.Helper()
	ctx := context.Background()
	if _, err := s.Move(ctx, id, alice.UserID, AnyPly, text); err != nil {
		t.Fatal(err)
	}
	out, err := s.PlayAI(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	return out.Game
}

func TestHintsAreLegalCountedAndLimited(t *testing.T) {
	s, _, _ := newTestService(t)
	ctx := context.Background()
	g := aiGame(t, s)
	if _, err := s.Hint(ctx, g.rec.ID, bob.UserID, AnyPly); !errors.Is(err, ErrNotAPlayer) {
		t.Errorf("a stranger's hint: err = %v, want ErrNotAPlayer", err)
	}
	if _, err := s.Hint(ctx, g.rec.ID, alice.UserID, 5); !errors.Is(err, ErrStale) {
		t.Errorf("a hint for another board: err = %v, want ErrStale", err)
	}
	// A forced move's hint is free (TestForcedMoveCostsNoHint): count
	// only the hints given where the player had a choice.
	for counted := 0; counted < HintsPerGame; {
		h, err := s.Hint(ctx, g.rec.ID, alice.UserID, g.Ply())
		if err != nil {
			t.Fatal(err)
		}
		if len(g.Rules().Legal()) > 1 {
			counted++
		}
		if !slices.Contains(g.Rules().Legal(), h.Move) || h.Left != HintsPerGame-counted || h.Game.rec.Hints != counted {
			t.Errorf("hint %d: %s, %d left, %d counted", counted, h.Move, h.Left, h.Game.rec.Hints)
		}
		g = moveAndAnswer(t, s, g.rec.ID, h.Move.String())
	}
	for len(g.Rules().Legal()) == 1 {
		g = moveAndAnswer(t, s, g.rec.ID, g.Rules().Legal()[0].String())
	}
	if _, err := s.Hint(ctx, g.rec.ID, alice.UserID, AnyPly); !errors.Is(err, ErrNoHintsLeft) {
		t.Errorf("hint %d: err = %v, want ErrNoHintsLeft", HintsPerGame+1, err)
	}
}

func TestHintsOnlyAgainstTheAI(t *testing.T) {
	s, _, _ := newTestService(t)
	g := startGame(t, s)
	if _, err := s.Hint(context.Background(), g.rec.ID, alice.UserID, AnyPly); !errors.Is(err, ErrNotAgainstAI) {
		t.Errorf("hint between people: err = %v, want ErrNotAgainstAI", err)
	}
	if _, err := s.Takeback(context.Background(), g.rec.ID, alice.UserID, AnyPly); !errors.Is(err, ErrNotAgainstAI) {
		t.Errorf("takeback between people: err = %v, want ErrNotAgainstAI", err)
	}
}

func TestTakebackUndoesAFullMoveAndMakesTheGameCasual(t *testing.T) {
	s, _, st := newTestService(t)
	ctx := context.Background()
	g := aiGame(t, s)
	if _, err := s.Takeback(ctx, g.rec.ID, alice.UserID, AnyPly); !errors.Is(err, ErrNoTakeback) {
		t.Errorf("takeback at the start: err = %v, want ErrNoTakeback", err)
	}
	g = moveAndAnswer(t, s, g.rec.ID, "c3-d4")
	before := g.Position()
	g = moveAndAnswer(t, s, g.rec.ID, g.Rules().Legal()[0].String())
	if _, err := s.Takeback(ctx, g.rec.ID, alice.UserID, 2); !errors.Is(err, ErrStale) {
		t.Errorf("takeback on an old board: err = %v, want ErrStale", err)
	}
	out, err := s.Takeback(ctx, g.rec.ID, alice.UserID, g.Ply())
	if err != nil {
		t.Fatal(err)
	}
	if out.Game.Ply() != 2 || out.Game.Position() != before || !out.Game.rec.Casual || out.Game.rec.Takebacks != 1 {
		t.Errorf("after the takeback: ply %d, position %s (want %s), casual %v, takebacks %d",
			out.Game.Ply(), out.Game.Position(), before, out.Game.rec.Casual, out.Game.rec.Takebacks)
	}
	// Stored so, and a casual game's result counts in no statistics.
	rec, err := st.Game(ctx, g.rec.ID)
	if err != nil || len(rec.Moves) != 2 || !rec.Casual {
		t.Fatalf("stored: %v moves %v casual %v", err, rec.Moves, rec.Casual)
	}
	if _, err := s.Resign(ctx, g.rec.ID, alice.UserID); err != nil {
		t.Fatal(err)
	}
	if u, err := st.User(ctx, alice.UserID); err == nil && u.Stats.Games != 0 {
		t.Errorf("a casual game counted: %+v", u.Stats)
	}
	if _, err := s.Takeback(ctx, g.rec.ID, alice.UserID, AnyPly); !errors.Is(err, ErrGameOver) {
		t.Errorf("takeback after the end: err = %v, want ErrGameOver", err)
	}
}

func TestTakebacksAreLimited(t *testing.T) {
	s, _, _ := newTestService(t)
	ctx := context.Background()
	g := aiGame(t, s)
	for range TakebacksPerGame {
		g = moveAndAnswer(t, s, g.rec.ID, g.Rules().Legal()[0].String())
		out, err := s.Takeback(ctx, g.rec.ID, alice.UserID, AnyPly)
		if err != nil {
			t.Fatal(err)
		}
		g = out.Game
	}
	g = moveAndAnswer(t, s, g.rec.ID, g.Rules().Legal()[0].String())
	if _, err := s.Takeback(ctx, g.rec.ID, alice.UserID, AnyPly); !errors.Is(err, ErrNoTakebacksLeft) {
		t.Errorf("takeback %d: err = %v, want ErrNoTakebacksLeft", TakebacksPerGame+1, err)
	}
}

func TestAnalyseAFinishedGame(t *testing.T) {
	s, _, _ := newTestService(t)
	ctx := context.Background()
	g := aiGame(t, s)
	if _, err := s.Analyse(ctx, g.rec.ID, alice.UserID); !errors.Is(err, ErrGameNotOver) {
		t.Errorf("analysis of a game in progress: err = %v, want ErrGameNotOver", err)
	}
	for range 4 {
		g = moveAndAnswer(t, s, g.rec.ID, g.Rules().Legal()[0].String())
	}
	if _, err := s.Resign(ctx, g.rec.ID, alice.UserID); err != nil {
		t.Fatal(err)
	}
	a, err := s.Analyse(ctx, g.rec.ID, alice.UserID)
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
	s := New(st, rv, DefaultConfig, clock.Now)
	ctx := context.Background()
	g := startGame(t, s)
	for i, m := range []string{"c3-d4", "f6-e5"} {
		by := []int64{alice.UserID, bob.UserID}[i]
		if _, err := s.Move(ctx, g.rec.ID, by, AnyPly, m); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Resign(ctx, g.rec.ID, alice.UserID); err != nil {
		t.Fatal(err)
	}
	if a, running, err := s.Analysed(ctx, g.rec.ID); a != nil || running || err != nil {
		t.Fatalf("before any analysis: %v, running %v, %v; want none", a, running, err)
	}

	const waiters = 3
	results := make(chan error, waiters)
	for range waiters {
		go func() {
			a, err := s.Analyse(ctx, g.rec.ID, alice.UserID)
			if err == nil && len(a.Review.Scores) != 3 {
				err = fmt.Errorf("%d scores, want 3", len(a.Review.Scores))
			}
			results <- err
		}()
	}
	<-rv.started
	if _, running, _ := s.Analysed(ctx, g.rec.ID); !running {
		t.Error("Analysed does not say a review is under way")
	}
	// One who gives up waiting gets its own error; the review goes on.
	gone, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := s.Analyse(gone, g.rec.ID, alice.UserID); !errors.Is(err, context.Canceled) {
		t.Errorf("a caller who gave up: err = %v, want context.Canceled", err)
	}
	close(rv.release)
	for range waiters {
		if err := <-results; err != nil {
			t.Error(err)
		}
	}
	if _, err := s.Analyse(ctx, g.rec.ID, alice.UserID); err != nil {
		t.Fatal(err)
	}
	if a, running, err := s.Analysed(ctx, g.rec.ID); a == nil || running || err != nil {
		t.Errorf("after the analysis: %v, running %v, %v; want it kept", a, running, err)
	}
	if n := rv.calls.Load(); n != 1 {
		t.Errorf("%d reviews of one game; want 1", n)
	}
}
