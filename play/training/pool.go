package training

import (
	"context"
	"maps"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/puzzle"
	"github.com/bashni/bashni/storage"
)

// The pool grows while the bot runs: puzzles found in the games played
// here (play/mining) join the shipped set as they are found, in every
// replica, and a puzzle can be opened by its id (a link shared to a
// chat). The set only grows, so what a reader took of it stays true: Add
// appends to the slice (a reader's copy ends where it read) and replaces
// the index map whole.

// Origin is where a puzzle not from the shipped set came from: a game
// played here, by its id and its players' names.
type Origin struct {
	Game         string
	White, Black string
}

// pool is the set, its ids and its themes as of now, one view.
func (p *Puzzles) pool() ([]puzzle.Puzzle, map[string]int, index) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	return p.set, p.byID, p.idx
}

// Add puts the puzzles of ps not in the pool yet into it, each with its
// origin, and reports how many joined.
func (p *Puzzles) Add(ps []puzzle.Puzzle, from []Origin) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	byID := maps.Clone(p.byID)
	added := 0
	for i, pz := range ps {
		if _, ok := byID[pz.ID]; ok {
			continue
		}
		byID[pz.ID] = len(p.set)
		p.set = append(p.set, pz)
		if i < len(from) {
			if p.origins == nil {
				p.origins = map[string]Origin{}
			}
			p.origins[pz.ID] = from[i]
		}
		added++
	}
	p.byID = byID
	if added > 0 {
		p.idx = newIndex(p.set) // new slices: a reader's view keeps its own
	}
	return added
}

// Origin is the game puzzle id came from, if it came from one.
func (p *Puzzles) Origin(id string) (Origin, bool) {
	p.mu.RLock()
	defer p.mu.RUnlock()
	o, ok := p.origins[id]
	return o, ok
}

// Open gives userID puzzle id (a link to it) as their puzzle under way,
// in place of any other: ErrNoPuzzle if the pool has no such puzzle.
// Tried before, it is unrated, as any puzzle tried again.
func (p *Puzzles) Open(ctx context.Context, userID int64, id string) (*PuzzleState, error) {
	set, byID, _ := p.pool()
	i, ok := byID[id]
	if !ok {
		return nil, ErrNoPuzzle
	}
	pz := &set[i]
	var st *PuzzleState
	_, err := play.ChangeUser(ctx, p.store, userID, func(u *storage.User) error {
		u.Training.Puzzle = &storage.PuzzleAttempt{ID: pz.ID}
		st = &PuzzleState{Puzzle: pz, Position: pz.Position, PlayerRating: playerRating(u).R}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return st, nil
}
