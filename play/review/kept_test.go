package review

import (
	"context"
	"reflect"
	"sync/atomic"
	"testing"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/rules"
)

// markedReviewer reviews a game with made-up but recognisable verdicts
// (each position's score, each move's loss and an engine choice that is
// not the move played where there is one) and counts its reviews, so a
// test can tell whose review a replica shows and whether it made one.
type markedReviewer struct {
	mark  int
	calls atomic.Int32
}

func (r *markedReviewer) Think(_ context.Context, g *rules.Game, _ int) (rules.Move, error) {
	return g.Legal()[0], nil
}

func (r *markedReviewer) Review(_ context.Context, g *rules.Game) (ai.Review, error) {
	r.calls.Add(1)
	rv := ai.Review{Scores: make([]int, g.Ply()+1)}
	for i := range rv.Scores {
		rv.Scores[i] = r.mark + 10*i
	}
	replay := rules.NewGame(g.StartPosition())
	for i, m := range g.Moves() {
		legal, p := replay.Legal(), replay.Position()
		best := legal[len(legal)-1]
		if best == m {
			best = legal[0]
		}
		rv.Moves = append(rv.Moves, ai.MoveReview{Ply: i, Move: m, Mover: p.SideToMove(), Best: best, Loss: r.mark + i})
		if err := replay.Play(m); err != nil {
			return ai.Review{}, err
		}
	}
	return rv, nil
}

// A review made on one replica is kept with the game: another replica
// shows the very same verdicts (a time-bounded review made again could
// differ) and spends no engine time on it.
func TestAReviewIsKeptForEveryReplica(t *testing.T) {
	games, _, st := newTestGames(t)
	first, second := &markedReviewer{mark: 100}, &markedReviewer{mark: 200}
	a := New(games, st, first)
	b := New(games, st, second)
	ctx := t.Context()
	g := playedAndResigned(t, games)

	made, err := a.Analyse(ctx, g.ID(), alice.UserID)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := first.Review(ctx, made.Game.Rules())
	if !reflect.DeepEqual(made.Review, want) {
		t.Errorf("the replica that reviewed shows\n%+v\nwant its own review\n%+v", made.Review, want)
	}
	seen, running, err := b.Analysed(ctx, g.ID())
	if err != nil || running || seen == nil {
		t.Fatalf("the other replica's Analysed: %v, running %v, %v; want the kept review", seen, running, err)
	}
	again, err := b.Analyse(ctx, g.ID(), alice.UserID)
	if err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string]ai.Review{"Analysed": seen.Review, "Analyse": again.Review} {
		if !reflect.DeepEqual(got, want) {
			t.Errorf("the other replica's %s shows\n%+v\nwant the first review\n%+v", name, got, want)
		}
	}
	if n := second.calls.Load(); n != 0 {
		t.Errorf("the other replica reviewed the game %d times; want 0", n)
	}
	if n := first.calls.Load(); n != 2 { // the analysis, and the test's own call for want
		t.Errorf("the first replica reviewed %d times; want 1 (and the test's call)", n)
	}
}

// A kept review that does not fit the game's moves (written by hand, or by
// a build that kept something else) is not shown: the game is reviewed
// again and the new review replaces it.
func TestAReviewThatDoesNotFitIsMadeAgain(t *testing.T) {
	games, _, st := newTestGames(t)
	rv := &markedReviewer{mark: 100}
	s := New(games, st, rv)
	ctx := t.Context()
	g := playedAndResigned(t, games)
	if _, err := s.Analyse(ctx, g.ID(), alice.UserID); err != nil {
		t.Fatal(err)
	}
	rec, err := st.Game(ctx, g.ID())
	if err != nil || rec.Review == nil {
		t.Fatalf("stored game: %v, review %v; want a review kept", err, rec)
	}
	rec.Review.Best[1] = "h8-a1" // no such move in that position
	if err := st.UpdateGame(ctx, rec); err != nil {
		t.Fatal(err)
	}

	if a, running, err := s.Analysed(ctx, g.ID()); a != nil || running || err != nil {
		t.Errorf("Analysed with a review that does not fit: %v, running %v, %v; want none", a, running, err)
	}
	a, err := s.Analyse(ctx, g.ID(), alice.UserID)
	if err != nil {
		t.Fatal(err)
	}
	if n := rv.calls.Load(); n != 2 {
		t.Errorf("%d reviews; want 2, the second replacing the one that did not fit", n)
	}
	stored, err := st.Game(ctx, g.ID())
	if err != nil {
		t.Fatal(err)
	}
	if want := reviewRecord(a.Review); !reflect.DeepEqual(stored.Review, want) {
		t.Errorf("kept review %+v, want the new one %+v", stored.Review, want)
	}
}
