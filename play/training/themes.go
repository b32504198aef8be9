package training

import (
	"cmp"
	"context"
	"slices"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/puzzle"
	"github.com/bashni/bashni/storage"
)

// index is what the set says beyond its lines, found once when it is
// loaded: each puzzle's themes (puzzle.ThemesOf, from its solution by the
// rules) and the set in rising rating, the Puzzle Streak's order. The set's
// format does not change: a mined puzzle gets its themes the same way.
type index struct {
	themes   [][]puzzle.Theme // by the set's index
	byRating []int            // the set's indexes, easiest first
}

func newIndex(set []puzzle.Puzzle) index {
	ix := index{themes: make([][]puzzle.Theme, len(set)), byRating: make([]int, len(set))}
	for i := range set {
		ix.themes[i] = puzzle.ThemesOf(&set[i])
		ix.byRating[i] = i
	}
	// Stable: puzzles of one rating keep the file's order, so a run is
	// the same on every replica.
	slices.SortStableFunc(ix.byRating, func(a, b int) int { return cmp.Compare(set[a].Rating, set[b].Rating) })
	return ix
}

// Themes are the themes of puzzle id, in the order of puzzle.Themes.
func (p *Puzzles) Themes(id string) []puzzle.Theme {
	_, byID, idx := p.pool()
	if i, ok := byID[id]; ok {
		return idx.themes[i]
	}
	return nil
}

// ThemeCounts is how many puzzles of the set have each theme: the doors
// offer only the themes some puzzle has.
func (p *Puzzles) ThemeCounts() map[puzzle.Theme]int {
	n := map[puzzle.Theme]int{}
	_, _, idx := p.pool()
	for _, ts := range idx.themes {
		for _, t := range ts {
			n[t]++
		}
	}
	return n
}

// NextTheme is Next among the puzzles of theme t.
func (p *Puzzles) NextTheme(ctx context.Context, userID int64, t puzzle.Theme) (*PuzzleState, error) {
	if p.ThemeCounts()[t] == 0 {
		return nil, ErrNoTheme
	}
	set, byID, idx := p.pool()
	has := func(i int) bool { return slices.Contains(idx.themes[i], t) }
	var st *PuzzleState
	_, err := play.ChangeUser(ctx, p.store, userID, func(u *storage.User) error {
		pz := p.pick(u, set, byID, has)
		u.Training.Puzzle = &storage.PuzzleAttempt{ID: pz.ID}
		st = &PuzzleState{Puzzle: pz, Position: pz.Position, PlayerRating: playerRating(u).R}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return st, nil
}

// again is the puzzle to give u once every one ok allows was tried: the
// one failed longest ago, else the first; unrated from now on.
func again(u *storage.User, set []puzzle.Puzzle, byID map[string]int, ok func(i int) bool) int {
	for _, id := range u.Training.Failed {
		if i, known := byID[id]; known && (ok == nil || ok(i)) {
			return i
		}
	}
	for i := range set {
		if ok == nil || ok(i) {
			return i
		}
	}
	return 0
}
