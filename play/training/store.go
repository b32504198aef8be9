package training

import (
	"context"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/storage"
)

// The store ports, one for each service: what each needs of storage
// (storage/bolt and storage/redis provide them all, as storage.Store).

// CourseStore is what the course needs: its progress is in the user's
// record.
type CourseStore interface {
	play.UserStore
}

// PuzzleStore is what the puzzles need: the user's record (their rating,
// the puzzles tried, the one under way) and each puzzle's rating.
type PuzzleStore interface {
	play.UserStore
	PuzzleStats(ctx context.Context, id string) (*storage.PuzzleStats, error)
	PutPuzzleStats(ctx context.Context, p *storage.PuzzleStats) error
}

// DailyStore is what the daily puzzle needs: the groups that have it on,
// and each group's puzzle of a day.
type DailyStore interface {
	storage.Daily
}

// The records the doors read, named here so that they need no storage
// package.
type (
	// DailyPuzzle is a group's puzzle of the day; DailySolver one who
	// solved it.
	DailyPuzzle = storage.DailyPuzzle
	DailySolver = storage.DailySolver
)
