package mining

import (
	"context"
	"time"

	"github.com/bashni/bashni/storage"
)

// MineStore is what the miner needs: the finished games' log and the
// games, its mark, and where it keeps the puzzles found.
type MineStore interface {
	Game(ctx context.Context, id string) (*storage.GameRecord, error)
	FinishedGames(ctx context.Context, after storage.FinishedGame, before time.Time, n int) ([]storage.FinishedGame, error)
	MineMark(ctx context.Context) (*storage.MineMark, error)
	PutMineMark(ctx context.Context, m *storage.MineMark) error
	AddMinedPuzzle(ctx context.Context, p *storage.MinedPuzzle) error
}

// FeedStore is what serving the puzzles found needs.
type FeedStore interface {
	MinedPuzzles(ctx context.Context, after int64, n int) ([]storage.MinedPuzzle, error)
	UpdateMinedPuzzle(ctx context.Context, p *storage.MinedPuzzle) error
}
