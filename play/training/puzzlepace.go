package training

import (
	"slices"
	"time"

	"github.com/bashni/bashni/storage"
)

// A person answers a puzzle by reading a board and tapping a tower and a
// square; a script answered all 560 shipped puzzles in 3.6 s and rose to
// a puzzle rating of 2512 (issue 38). Each player's answers are paced as
// a generic cell rate (GCRA, the algorithm redis_rate paces the outbox
// with): a burst of puzzleBurst answers, then one each puzzleEvery. No
// one solving by eye keeps up more than that for long, so no person is
// refused; a script at machine speed is refused past the burst, and
// solving the 560 takes it at least 560 × 2 answers × 2 s ≈ 37 minutes,
// as long as a quick person.
//
// The pace is kept in the user's record (Training.Paced), which the
// answer writes anyway by compare-and-set: the check and the answer are
// one atomic write on either store, across replicas, with no other key.
const (
	puzzleEvery = 2 * time.Second
	puzzleBurst = 10
)

// paceAnswer admits one answer at now into tr's pace, or refuses it with
// ErrPuzzleTooFast and changes nothing.
func paceAnswer(tr *storage.Training, now time.Time) error {
	due := tr.Paced
	if due.Before(now) {
		due = now
	}
	due = due.Add(puzzleEvery)
	if due.Sub(now) > puzzleEvery*puzzleBurst {
		return ErrPuzzleTooFast
	}
	tr.Paced = due
	return nil
}

// tried records an attempt on puzzle id in tr's lists, each puzzle at
// most once in each: the lists stay as long as the set however often a
// puzzle is repeated (issue 38: 1,500 repeats grew a record from 6.5 KB
// to 23 KB, one id a solve).
func tried(tr *storage.Training, id string, solved bool) {
	list := &tr.Failed
	if solved {
		list = &tr.Solved
	}
	if !slices.Contains(*list, id) {
		*list = append(*list, id)
	}
}
