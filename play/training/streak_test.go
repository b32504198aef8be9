package training

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/puzzle"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/storage/bolt"
)

// newShippedStreak serves the shipped set, with a clock the test moves on
// so that the answers keep a person's pace.
func newShippedStreak(t *testing.T) (*Streak, *Puzzles, *bolt.Store, *testkit.Clock) {
	t.Helper()
	set, err := puzzle.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	clock := testkit.NewClock(time.Now())
	st, err := bolt.Open(filepath.Join(t.TempDir(), "bashni.db"), clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	p := NewPuzzles(st, set, clock.Now, nil)
	return NewStreak(st, p), p, st, clock
}

// solve plays st's whole solution, each answer a person's pace apart.
func solve(t *testing.T, s *Streak, clock *testkit.Clock, user int64, st *PuzzleState) *PuzzleResult {
	t.Helper()
	var res *PuzzleResult
	for i := 0; i < len(st.Puzzle.Solution); i += 2 {
		clock.Advance(puzzleEvery)
		var err error
		res, err = s.Move(context.Background(), user, st.Puzzle.ID, i, st.Puzzle.Solution[i].String())
		if err != nil {
			t.Fatalf("%s move %d: %v", st.Puzzle.ID, i, err)
		}
	}
	return res
}

// A run: three puzzles of rising rating solved, each going on with the
// run unrated, then a miss ends it; the best is the player's, on the
// board of everyone and of the group they asked in, and the next run
// starts at zero with other puzzles.
func TestStreakRunEndsAtTheFirstMiss(t *testing.T) {
	ctx := context.Background()
	s, p, st, clock := newShippedStreak(t)
	const user, group = 7, -100777
	if err := st.PutUser(ctx, &storage.User{ID: user, Name: "Ria"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Join(ctx, group, user); err != nil {
		t.Fatal(err)
	}
	cur, err := s.Start(ctx, user)
	if err != nil {
		t.Fatal(err)
	}
	var ratings []int
	first := cur.Puzzle.ID
	for run := 0; run < 3; run++ {
		if cur.Streak == nil || *cur.Streak != run {
			t.Fatalf("puzzle %d of the run says its run is %v", run+1, cur.Streak)
		}
		ratings = append(ratings, cur.Puzzle.Rating)
		res := solve(t, s, clock, user, cur)
		if !res.Solved || res.Rated || res.Run != run+1 || res.Best != run+1 || !res.NewBest {
			t.Fatalf("solve %d: solved %v rated %v run %d best %d new %v", run+1, res.Solved, res.Rated, res.Run, res.Best, res.NewBest)
		}
		if cur, err = s.Next(ctx, user); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.IsSorted(ratings) {
		t.Errorf("the run's ratings %v do not rise", ratings)
	}
	wrong := otherMove(cur.Position, cur.Puzzle.Solution[0])
	clock.Advance(puzzleEvery)
	res, err := s.Move(ctx, user, cur.Puzzle.ID, 0, wrong.String())
	if err != nil {
		t.Fatal(err)
	}
	if res.Solved || res.Run != 3 || res.Best != 3 || res.Rated {
		t.Errorf("the miss: solved %v run %d best %d rated %v, want the run over at 3", res.Solved, res.Run, res.Best, res.Rated)
	}
	if len(res.Line) == 0 && len(res.Puzzle.Solution) == 1 {
		t.Logf("no line after %s", res.Puzzle.ID)
	}
	for _, chat := range []int64{0, group} {
		top, err := s.Top(ctx, chat, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(top) != 1 || top[0].Name != "Ria" || top[0].Rating != 3 {
			t.Errorf("the board of %d: %+v, want Ria's 3", chat, top)
		}
	}
	u, err := st.User(ctx, user)
	if err != nil {
		t.Fatal(err)
	}
	if tr := u.Training; tr.Streak != 0 || tr.StreakBest != 3 || len(tr.Solved)+len(tr.Failed) != 0 || tr.Rating != (storage.Glicko{}) {
		t.Errorf("after the run: streak %d best %d, %d puzzles listed, rating %+v; want 0, 3, none, unrated", tr.Streak, tr.StreakBest, len(tr.Solved)+len(tr.Failed), tr.Rating)
	}
	again, err := s.Start(ctx, user)
	if err != nil {
		t.Fatal(err)
	}
	if *again.Streak != 0 || again.Puzzle.ID == first {
		t.Errorf("a new run starts at %d with %s, want 0 and not %s again", *again.Streak, again.Puzzle.ID, first)
	}
	// The pick is the set's: p serves the same puzzle to the board.
	if now, err := p.Current(ctx, user); err != nil || now.Puzzle.ID != again.Puzzle.ID {
		t.Errorf("the puzzle under way: %v, %v", now, err)
	}
}

// otherMove is a legal move of pos other than m.
func otherMove(pos rules.Position, m rules.Move) rules.Move {
	for _, o := range pos.Legal() {
		if o != m {
			return o
		}
	}
	return m
}

// A theme's puzzle has the theme; a word that is no theme is refused; a
// rated attempt adds to the rating's history.
func TestThemeAndHistory(t *testing.T) {
	ctx := context.Background()
	_, p, st, clock := newShippedStreak(t)
	const user = 8
	for _, th := range []puzzle.Theme{puzzle.ThemeOneMove, puzzle.ThemeLiberation, puzzle.ThemeCrowning} {
		cur, err := p.NextTheme(ctx, user, th)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Contains(p.Themes(cur.Puzzle.ID), th) {
			t.Errorf("a %s puzzle %s has themes %v", th, cur.Puzzle.ID, p.Themes(cur.Puzzle.ID))
		}
	}
	if _, err := p.NextTheme(ctx, user, "nonsense"); err != ErrNoTheme {
		t.Errorf("an unknown theme: %v, want ErrNoTheme", err)
	}
	cur, err := p.NextTheme(ctx, user, puzzle.ThemeOneMove)
	if err != nil {
		t.Fatal(err)
	}
	clock.Advance(puzzleEvery)
	res, err := p.Move(ctx, user, cur.Puzzle.ID, 0, cur.Puzzle.Solution[0].String())
	if err != nil || !res.Solved || !res.Rated {
		t.Fatalf("solving %s: %+v, %v", cur.Puzzle.ID, res, err)
	}
	u, err := st.User(ctx, user)
	if err != nil {
		t.Fatal(err)
	}
	if h := u.Training.History; len(h) != 1 || h[0] != int(res.PlayerRating+0.5) {
		t.Errorf("the history %v, want [%v]", h, res.PlayerRating)
	}
	h := []int{}
	for i := range storage.HistoryLen + 5 {
		h = appendHistory(h, float64(1000+i))
	}
	if len(h) != storage.HistoryLen || h[len(h)-1] != 1000+storage.HistoryLen+4 {
		t.Errorf("a long history keeps %v, want the last %d", h, storage.HistoryLen)
	}
}
