package training

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/puzzle"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage/bolt"
)

// Two puzzles from the shipped set: a two-move one and a one-move one.
var testPuzzleLines = []string{
	"mpq7pjzy\tw:e1wb,a3w,c3www,f4bb,a5bwww,c5w,g5bw,b6bb,f6b,h6b,a7wwb,b8b,h8b\tc3-b4 b6:d4 e1-f2\t1100",
	"c2uv8191\tw:a1w,c1Bww,e1w,g1w,h2w,b4ww,h4bw,a5bww,g5b,a7wbb,c7b,g7b,b8b,d8b,f8b,h8b\tg1-f2\t1000",
}

// testPuzzleSet parses testPuzzleLines.
func testPuzzleSet(t *testing.T) []puzzle.Puzzle {
	t.Helper()
	var set []puzzle.Puzzle
	for _, l := range testPuzzleLines {
		pz, err := puzzle.ParseLine(l)
		if err != nil {
			t.Fatal(err)
		}
		set = append(set, pz)
	}
	return set
}

func newTestPuzzles(t *testing.T) (*Puzzles, *bolt.Store) {
	t.Helper()
	set := testPuzzleSet(t)
	clock := testkit.NewClock(time.Now())
	st, err := bolt.Open(filepath.Join(t.TempDir(), "bashni.db"), clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return NewPuzzles(st, set, clock.Now, nil), st
}

// TestPuzzleSolvedAndFailed: a solve raises the player's rating and lowers
// the puzzle's; a miss lowers the player's and shows where it went wrong;
// neither puzzle comes again while an untried one is left.
func TestPuzzleSolvedAndFailed(t *testing.T) {
	ctx := context.Background()
	p, st := newTestPuzzles(t)
	const user = 5

	first, err := p.Next(ctx, user)
	if err != nil {
		t.Fatal(err)
	}
	// A newcomer (1500) gets the puzzle rated nearest: 1100.
	if first.Puzzle.ID != "mpq7pjzy" || first.PlayerRating != play.StartRating {
		t.Fatalf("first puzzle %s for a player of %.0f, want mpq7pjzy for 1500", first.Puzzle.ID, first.PlayerRating)
	}
	// An illegal move is the rules' error and costs nothing.
	_, err = p.Move(ctx, user, first.Puzzle.ID, 0, "a3-b2")
	if me, ok := errors.AsType[*rules.MoveError](err); !ok || me == nil {
		t.Fatalf("illegal move: %v, want a *rules.MoveError", err)
	}
	res, err := p.Move(ctx, user, first.Puzzle.ID, 0, "c3-b4")
	if err != nil {
		t.Fatal(err)
	}
	if res.Done || !res.HasReply || res.Reply.String() != "b6:d4" || res.Moves != 2 {
		t.Fatalf("after the first right move: done %v, reply %v %s, moves %d", res.Done, res.HasReply, res.Reply, res.Moves)
	}
	// A tap on the board from before the reply is stale.
	if _, err := p.Move(ctx, user, first.Puzzle.ID, 0, "c3-b4"); !errors.Is(err, ErrStalePuzzle) {
		t.Errorf("stale tap: %v, want ErrStalePuzzle", err)
	}
	res, err = p.Move(ctx, user, first.Puzzle.ID, 2, "e1-f2")
	if err != nil {
		t.Fatal(err)
	}
	if !res.Done || !res.Solved || !res.Rated || res.Change <= 0 {
		t.Fatalf("solve: done %v solved %v rated %v change %+.1f; want a rated solve that raises the rating", res.Done, res.Solved, res.Rated, res.Change)
	}
	stats, err := st.PuzzleStats(ctx, "mpq7pjzy")
	if err != nil {
		t.Fatal(err)
	}
	if stats.Rating.R >= 1100 || stats.Attempts != 1 || stats.Solves != 1 {
		t.Errorf("solved puzzle's stats %+v: want its rating below 1100, 1 attempt, 1 solve", stats)
	}
	up := res.PlayerRating

	second, err := p.Next(ctx, user)
	if err != nil {
		t.Fatal(err)
	}
	if second.Puzzle.ID != "c2uv8191" {
		t.Fatalf("second puzzle %s, want the untried c2uv8191", second.Puzzle.ID)
	}
	wrong := second.Position.Legal()[0].String()
	if wrong == "g1-f2" {
		t.Fatal("test needs a wrong first legal move")
	}
	res, err = p.Move(ctx, user, second.Puzzle.ID, 0, wrong)
	if err != nil {
		t.Fatal(err)
	}
	if !res.Done || res.Solved || !res.Rated || res.Change >= 0 || res.PlayerRating >= up {
		t.Fatalf("miss: done %v solved %v rated %v change %+.1f rating %.1f (was %.1f)", res.Done, res.Solved, res.Rated, res.Change, res.PlayerRating, up)
	}
	if _, err := p.Current(ctx, user); !errors.Is(err, ErrNoPuzzle) {
		t.Errorf("after the end: %v, want ErrNoPuzzle", err)
	}
	// Both tried: the failed one comes back, unrated.
	again, err := p.Next(ctx, user)
	if err != nil || again.Puzzle.ID != "c2uv8191" {
		t.Fatalf("third puzzle %v, %v; want the failed c2uv8191 again", again, err)
	}
	res, err = p.Move(ctx, user, again.Puzzle.ID, 0, "g1-f2")
	if err != nil || !res.Solved || res.Rated || res.Change != 0 {
		t.Fatalf("solving a failed puzzle again: %+v, %v; want solved and unrated", res, err)
	}
	r, solved, failed, err := p.Rating(ctx, user)
	if err != nil || solved != 2 || failed != 1 || r != res.PlayerRating {
		t.Errorf("Rating = %.1f, %d solved, %d failed, %v", r, solved, failed, err)
	}
}

func TestPuzzleMoveWithoutPuzzle(t *testing.T) {
	p, _ := newTestPuzzles(t)
	if _, err := p.Move(context.Background(), 9, "mpq7pjzy", 0, "c3-b4"); !errors.Is(err, ErrNoPuzzle) {
		t.Errorf("move without a puzzle: %v, want ErrNoPuzzle", err)
	}
	empty := NewPuzzles(nil, nil, nil, nil)
	if _, err := empty.Next(context.Background(), 9); !errors.Is(err, ErrNoPuzzlesSet) {
		t.Errorf("Next with no set: %v", err)
	}
	if !strings.Contains(ErrNoPuzzle.Error(), "/puzzle") {
		t.Error("ErrNoPuzzle should say how to get one")
	}
}
