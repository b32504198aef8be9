package training

import (
	"math"

	"github.com/bashni/bashni/storage"
)

// appendHistory adds rating r to the history h, keeping the last
// storage.HistoryLen.
func appendHistory(h []int, r float64) []int {
	h = append(h, int(math.Round(r)))
	if len(h) > storage.HistoryLen {
		h = append(h[:0:0], h[len(h)-storage.HistoryLen:]...)
	}
	return h
}

// PuzzleRecord is a player's puzzles as /stats shows them.
type PuzzleRecord struct {
	Rating         float64
	Solved, Failed int
	// History is the rating after each of the last rated attempts,
	// oldest first.
	History    []int
	StreakBest int
}

// RecordOf is u's puzzle record.
func RecordOf(u *storage.User) PuzzleRecord {
	tr := &u.Training
	return PuzzleRecord{Rating: playerRating(u).R, Solved: len(tr.Solved), Failed: len(tr.Failed), History: tr.History, StreakBest: tr.StreakBest}
}
