package training

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/storage/bolt"
)

// solveOneMove answers the one-move puzzle c2uv8191 for user as a script
// would: the next puzzle, then its answer at once.
func solveOneMove(t *testing.T, p *Puzzles, user int64) (*PuzzleResult, error) {
	t.Helper()
	ctx := t.Context()
	st, err := p.Next(ctx, user)
	if err != nil {
		t.Fatal(err)
	}
	answer := map[string]string{"c2uv8191": "g1-f2", "mpq7pjzy": "c3-b4"}[st.Puzzle.ID]
	return p.Move(ctx, user, st.Puzzle.ID, 0, answer)
}

// A script answering puzzles at machine speed is refused past a burst,
// with nothing changed; paced as a person, it is never refused. Repeats
// change no rating, and the record stays the same size however many
// there are (issue 38: all 560 puzzles in 3.6 s to 2512; 1,500 repeats
// grew a record from 6.5 KB to 23 KB).
func TestPuzzleAnswersPacedAndRepeatsBounded(t *testing.T) {
	ctx := t.Context()
	set := testPuzzleSet(t)
	set = set[1:] // the one-move puzzle only: each Next is a repeat after the first
	clock := testkit.NewClock(time.Now())
	st, err := bolt.Open(filepath.Join(t.TempDir(), "bashni.db"), clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	p := NewPuzzles(st, set, clock.Now, nil)
	const user = 7

	answered, refused := 0, 0
	for range 100 { // no time passes: machine speed
		_, err := solveOneMove(t, p, user)
		switch {
		case err == nil:
			answered++
		case errors.Is(err, ErrPuzzleTooFast):
			refused++
		default:
			t.Fatal(err)
		}
	}
	if answered != puzzleBurst || refused != 100-puzzleBurst {
		t.Fatalf("100 answers at once: %d taken, %d refused; want %d taken", answered, refused, puzzleBurst)
	}
	before, err := st.User(ctx, user)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Move(ctx, user, set[0].ID, 0, "g1-f2"); !errors.Is(err, ErrPuzzleTooFast) {
		t.Fatalf("one more at once: %v; want ErrPuzzleTooFast", err)
	}
	if after, _ := st.User(ctx, user); after.Version != before.Version {
		t.Errorf("a refused answer wrote the record: version %d → %d", before.Version, after.Version)
	}

	// At a person's pace: never refused, and repeats move nothing.
	rating := before.Training.Rating
	size := recordSize(t, before)
	for i := range 1500 {
		clock.Advance(puzzleEvery)
		res, err := solveOneMove(t, p, user)
		if err != nil {
			t.Fatalf("repeat %d at a person's pace: %v", i, err)
		}
		if !res.Solved || res.Rated || res.Change != 0 {
			t.Fatalf("repeat %d: solved %v rated %v change %+.1f; want solved, unrated", i, res.Solved, res.Rated, res.Change)
		}
	}
	after, err := st.User(ctx, user)
	if err != nil {
		t.Fatal(err)
	}
	if after.Training.Rating != rating {
		t.Errorf("rating after repeats %+v; want %+v", after.Training.Rating, rating)
	}
	got := recordSize(t, after)
	t.Logf("record: %d bytes before 1,500 repeats, %d after", size, got)
	if got > size+32 {
		t.Errorf("record after 1,500 repeats: %d bytes, was %d; want the same", got, size)
	}
	if len(after.Training.Solved) != 1 {
		t.Errorf("solved list %v; want the one puzzle once", after.Training.Solved)
	}
}

func recordSize(t *testing.T, u *storage.User) int {
	t.Helper()
	b, err := json.Marshal(u)
	if err != nil {
		t.Fatal(err)
	}
	return len(b)
}
