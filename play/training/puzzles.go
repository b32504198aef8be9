package training

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/puzzle"
	"github.com/bashni/bashni/rating"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
)

// Puzzles serves the puzzle trainer: it picks each player's next puzzle
// by their puzzle rating, checks their moves against the solution, plays
// the replies, and rates both player and puzzle with Glicko-2 after a
// first attempt, as lichess does. It is safe for concurrent use.
type Puzzles struct {
	store PuzzleStore
	now   func() time.Time
	log   *slog.Logger
	lines lines // the lines after the solutions (line.go)

	// The set grows with the puzzles found here (pool.go); idx is its
	// themes and order by rating (themes.go), rebuilt as it grows.
	mu      sync.RWMutex
	set     []puzzle.Puzzle
	byID    map[string]int
	idx     index
	origins map[string]Origin
}

// PuzzleStartRD is a puzzle's deviation before anyone tried it: its
// starting rating comes from the weakest engine level that solves it, a
// better first guess than a newcomer's, so it is surer than one.
const PuzzleStartRD = 150

// NewPuzzles serves set (usually puzzle.Shipped()); now is the clock that
// paces each player's answers (puzzlepace.go).
func NewPuzzles(store PuzzleStore, set []puzzle.Puzzle, now func() time.Time, log *slog.Logger) *Puzzles {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	byID := make(map[string]int, len(set))
	for i, p := range set {
		byID[p.ID] = i
	}
	return &Puzzles{store: store, set: set, byID: byID, now: now, log: log, idx: newIndex(set)}
}

// PuzzleState is a puzzle as the player sees it now.
type PuzzleState struct {
	Puzzle *puzzle.Puzzle
	// Moves is how many of the solution's moves have been played;
	// Position is the board after them, the solver to move unless Done.
	Moves    int
	Position rules.Position
	// PlayerRating is the player's puzzle rating (before the attempt while
	// it goes on, after it once Done).
	PlayerRating float64
	// Streak is the run of a Puzzle Streak this puzzle is in, if it is
	// one: the puzzles solved in a row before it.
	Streak *int
}

// PuzzleResult is what a move did.
type PuzzleResult struct {
	PuzzleState
	Played rules.Move
	// Reply is the opponent's answer, drawn on the board, when the move
	// was right and the puzzle goes on.
	Reply    rules.Move
	HasReply bool
	Done     bool
	Solved   bool
	// Rated is false for a puzzle tried before: only a first attempt moves
	// ratings. Change is the player's rating change.
	Rated  bool
	Change float64
	// Line is the play after the solution that realises its gain, once
	// Done (line.go): shown after the last move, or after a miss.
	Line []rules.Move
	// In a Puzzle Streak (Streak set): Run is the puzzles solved in a row
	// with this one, Best the player's best run, NewBest whether this
	// solve made it.
	Run, Best int
	NewBest   bool
}

// playerRating is the user's puzzle rating, a newcomer's if none yet.
func playerRating(u *storage.User) rating.Rating {
	if u.Training.Rating == (storage.Glicko{}) {
		return rating.New(play.StartRating)
	}
	return rating.Rating(u.Training.Rating)
}

// Next gives userID a new puzzle (one not tried before, rated nearest to
// their rating) and remembers it as under way.
func (p *Puzzles) Next(ctx context.Context, userID int64) (*PuzzleState, error) {
	set, byID, _ := p.pool()
	if len(set) == 0 {
		return nil, ErrNoPuzzlesSet
	}
	var st *PuzzleState
	_, err := play.ChangeUser(ctx, p.store, userID, func(u *storage.User) error {
		pz := p.pick(u, set, byID, nil)
		u.Training.Puzzle = &storage.PuzzleAttempt{ID: pz.ID}
		st = &PuzzleState{Puzzle: pz, Position: pz.Position, PlayerRating: playerRating(u).R}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return st, nil
}

// pick is u's next puzzle among those ok allows (nil: all) in set (a
// view of the pool): one not tried before, rated nearest to theirs.
func (p *Puzzles) pick(u *storage.User, set []puzzle.Puzzle, byID map[string]int, ok func(i int) bool) *puzzle.Puzzle {
	r := playerRating(u)
	tried := make(map[string]bool, len(u.Training.Solved)+len(u.Training.Failed))
	for _, id := range u.Training.Solved {
		tried[id] = true
	}
	for _, id := range u.Training.Failed {
		tried[id] = true
	}
	pick, best := -1, math.Inf(1)
	for i := range set {
		if tried[set[i].ID] || ok != nil && !ok(i) {
			continue
		}
		if d := math.Abs(float64(set[i].Rating) - r.R); d < best {
			pick, best = i, d
		}
	}
	if pick < 0 {
		// Every puzzle tried: start again with the one failed longest ago,
		// else the first; unrated from now on.
		pick = again(u, set, byID, ok)
	}
	return &set[pick]
}

// Current is userID's puzzle under way, or ErrNoPuzzle.
func (p *Puzzles) Current(ctx context.Context, userID int64) (*PuzzleState, error) {
	u, err := p.user(ctx, userID)
	if err != nil {
		return nil, err
	}
	_, st, err := p.current(u)
	return st, err
}

// current resolves the user's attempt.
func (p *Puzzles) current(u *storage.User) (*storage.PuzzleAttempt, *PuzzleState, error) {
	a := u.Training.Puzzle
	if a == nil {
		return nil, nil, ErrNoPuzzle
	}
	set, byID, _ := p.pool()
	i, ok := byID[a.ID]
	if !ok || a.Moves < 0 || a.Moves >= len(set[i].Solution) {
		// A puzzle dropped from the set, or a corrupt record: nothing to go on with.
		return nil, nil, ErrNoPuzzle
	}
	pz := &set[i]
	pos := pz.Position
	for _, m := range pz.Solution[:a.Moves] {
		pos = pos.Play(m)
	}
	st := &PuzzleState{Puzzle: pz, Moves: a.Moves, Position: pos, PlayerRating: playerRating(u).R}
	if a.Streak {
		run := u.Training.Streak
		st.Streak = &run
	}
	return a, st, nil
}

// Move plays text (a move in notation) in userID's puzzle id at move
// index moves (what the board the move came from showed; another is
// ErrStalePuzzle). An illegal move is the rules' own error and changes
// nothing: the player tries again. A legal move other than the solution's
// ends the puzzle as failed.
func (p *Puzzles) Move(ctx context.Context, userID int64, id string, moves int, text string) (*PuzzleResult, error) {
	var (
		res   *PuzzleResult
		rated *rating.Rating // the puzzle's rating before the attempt, once its own is written
	)
	_, err := play.ChangeUser(ctx, p.store, userID, func(u *storage.User) (err error) {
		res, err = p.move(ctx, u, id, moves, text, &rated)
		return err
	})
	if err != nil {
		return nil, err
	}
	if res.Done {
		// Searched after the write, never inside its retries; a line
		// that cannot be found leaves the result as it is.
		if res.Line, err = p.Line(ctx, res.Puzzle); err != nil {
			p.log.Warn("training: the line after a puzzle", "puzzle", res.Puzzle.ID, "err", err)
		}
	}
	return res, nil
}

// move is Move on the record u as read; rated as finish's.
func (p *Puzzles) move(ctx context.Context, u *storage.User, id string, moves int, text string, rated **rating.Rating) (*PuzzleResult, error) {
	a, st, err := p.current(u)
	if err != nil {
		return nil, err
	}
	if a.ID != id || a.Moves != moves {
		return nil, ErrStalePuzzle
	}
	if err := paceAnswer(&u.Training, p.now()); err != nil {
		return nil, err
	}
	pos := st.Position
	m, err := rules.ParseMove(&pos, text)
	if err != nil {
		return nil, err
	}
	pz := st.Puzzle
	res := &PuzzleResult{PuzzleState: *st, Played: m}
	if m != pz.Solution[a.Moves] {
		res.Done, res.Position = true, pos.Play(m)
		return res, p.finish(ctx, u, res, rated)
	}
	res.Position = pos.Play(m)
	res.Moves = a.Moves + 1
	if res.Moves == len(pz.Solution) {
		res.Done, res.Solved = true, true
		return res, p.finish(ctx, u, res, rated)
	}
	res.Reply, res.HasReply = pz.Solution[res.Moves], true
	res.Position = res.Position.Play(res.Reply)
	res.Moves++
	a.Moves = res.Moves
	return res, nil
}

// finish ends the attempt in u: the user's lists, and on a first attempt
// both ratings. The puzzle's rating is written first, from the version
// read, retried on a conflict; then the user's (by Move). The puzzle is
// rated once: *rated keeps its rating from before the attempt, so when
// the user's write loses to another writer (a game of theirs counted at
// that instant) and finish runs again on the user as read anew, only the
// user's change is made again.
func (p *Puzzles) finish(ctx context.Context, u *storage.User, res *PuzzleResult, rated **rating.Rating) error {
	pz := res.Puzzle
	tr := &u.Training
	if tr.Puzzle.Streak {
		tr.Puzzle = nil
		endStreakPuzzle(tr, res)
		return nil
	}
	tr.Puzzle = nil
	res.Rated = !slices.Contains(tr.Solved, pz.ID) && !slices.Contains(tr.Failed, pz.ID)
	tried(tr, pz.ID, res.Solved)
	before := playerRating(u)
	if res.Rated {
		score := 0.0
		if res.Solved {
			score = 1
		}
		if *rated == nil {
			pzRating, err := p.ratePuzzle(ctx, pz, before, 1-score)
			if err != nil {
				return err
			}
			*rated = &pzRating
		}
		after := before.Update(rating.Result{Opponent: **rated, Score: score})
		tr.Rating = storage.Glicko(after)
		tr.History = appendHistory(tr.History, after.R)
		res.Change = after.R - before.R
		res.PlayerRating = after.R
	}
	return nil
}

// ratePuzzle records an attempt on pz by a player rated player, the
// puzzle scoring score, and returns the puzzle's rating before it (the
// player is rated against that).
func (p *Puzzles) ratePuzzle(ctx context.Context, pz *puzzle.Puzzle, player rating.Rating, score float64) (rating.Rating, error) {
	for range maxAttempts {
		st, err := p.store.PuzzleStats(ctx, pz.ID)
		switch {
		case errors.Is(err, storage.ErrNotFound):
			st = &storage.PuzzleStats{ID: pz.ID, Rating: storage.Glicko{R: float64(pz.Rating), RD: PuzzleStartRD, Vol: 0.06}}
		case err != nil:
			return rating.Rating{}, err
		}
		before := rating.Rating(st.Rating)
		st.Rating = storage.Glicko(before.Update(rating.Result{Opponent: player, Score: score}))
		st.Attempts++
		if score == 0 {
			st.Solves++
		}
		err = p.store.PutPuzzleStats(ctx, st)
		if err == nil {
			return before, nil
		}
		if !errors.Is(err, storage.ErrConflict) {
			return rating.Rating{}, err
		}
	}
	return rating.Rating{}, fmt.Errorf("training: puzzle %s: %w", pz.ID, play.ErrBusy)
}

// user reads a user, a new one if they never wrote before.
func (p *Puzzles) user(ctx context.Context, id int64) (*storage.User, error) {
	u, err := p.store.User(ctx, id)
	if errors.Is(err, storage.ErrNotFound) {
		return play.Newcomer(id), nil
	}
	return u, err
}

// Rating is userID's puzzle rating and how many puzzles they solved and
// failed.
func (p *Puzzles) Rating(ctx context.Context, userID int64) (rating float64, solved, failed int, err error) {
	u, err := p.user(ctx, userID)
	if err != nil {
		return 0, 0, 0, err
	}
	return playerRating(u).R, len(u.Training.Solved), len(u.Training.Failed), nil
}
