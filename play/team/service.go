package team

import (
	"context"
	"log/slog"

	"github.com/bashni/bashni/play"
)

// Store is what the votes need of storage besides the games: the map from
// a native poll's id to its game (storage/bolt and storage/redis provide
// it, as storage.Polls).
type Store interface {
	// PutPoll records that pollID votes in game gameID.
	PutPoll(ctx context.Context, pollID, gameID string) error
	// PollGame returns the game of pollID, or storage.ErrNotFound.
	PollGame(ctx context.Context, pollID string) (string, error)
	// DeletePoll forgets pollID; forgetting one never recorded is not an
	// error.
	DeletePoll(ctx context.Context, pollID string) error
}

// Service runs the chats' games by vote on the core's games. It is safe
// for concurrent use.
type Service struct {
	core  *play.Service
	store Store
	log   *slog.Logger
}

// New returns the votes' service over core, with store for the polls. A
// nil log logs nothing. Hand its CloseDue to core.AddDeadline at wiring,
// or votes never close on time.
func New(core *play.Service, store Store, log *slog.Logger) *Service {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Service{core: core, store: store, log: log}
}
