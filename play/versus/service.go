package versus

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/play/team"
	"github.com/bashni/bashni/storage"
)

// Store is what the matches need of storage besides the games
// (storage/bolt and storage/redis provide it, as storage.Versus).
type Store interface {
	PutVersusChallenge(ctx context.Context, c *storage.VersusChallenge) error
	VersusChallenge(ctx context.Context, code string) (*storage.VersusChallenge, error)
	PutVersusChat(ctx context.Context, c *storage.VersusChat) error
	VersusChat(ctx context.Context, id int64) (*storage.VersusChat, error)
	VersusChats(ctx context.Context) ([]*storage.VersusChat, error)
}

// Paces are the times a side has for each move that a challenge offers:
// an hour for a group that plays through an evening, a day and three
// days for a class or an office that looks once a day.
var Paces = []time.Duration{time.Hour, 24 * time.Hour, 72 * time.Hour}

// DefaultQuorum closes a group's vote before its time runs out once this
// many members have voted, until its administrators choose another.
const DefaultQuorum = 3

// challengeTTL is how long a challenge's link may be accepted.
const challengeTTL = 7 * 24 * time.Hour

// Config is what the wiring chooses of the matches.
type Config struct {
	// Season is a season's length; seasons are counted from Epoch.
	Season time.Duration
	Epoch  time.Time
}

// DefaultConfig is four-week seasons from a Monday.
var DefaultConfig = Config{Season: 28 * 24 * time.Hour, Epoch: time.Date(2026, time.January, 5, 0, 0, 0, 0, time.UTC)}

// Service runs the matches between groups over the core's games. It is
// safe for concurrent use.
type Service struct {
	core  *play.Service
	votes *team.Service
	store Store
	cfg   Config
	log   *slog.Logger
}

// New returns the matches' service over core, its votes and store. A nil
// log logs nothing.
func New(core *play.Service, votes *team.Service, store Store, cfg Config, log *slog.Logger) *Service {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if cfg.Season <= 0 {
		cfg = DefaultConfig
	}
	return &Service{core: core, votes: votes, store: store, cfg: cfg, log: log}
}

// maxAttempts bounds the compare-and-set retries of one change.
const maxAttempts = 8

// changeChat reads group id's record (a new one if it has none), lets
// change change it, and writes it by compare-and-set, trying again from
// a fresh read when another writer came first. play.Unchanged from
// change writes nothing.
func (s *Service) changeChat(ctx context.Context, id int64, change func(c *storage.VersusChat) error) (*storage.VersusChat, error) {
	for range maxAttempts {
		c, err := s.store.VersusChat(ctx, id)
		if errors.Is(err, storage.ErrNotFound) {
			c, err = &storage.VersusChat{ID: id}, nil
		}
		if err != nil {
			return nil, err
		}
		if err := change(c); errors.Is(err, play.Unchanged) {
			return c, nil
		} else if err != nil {
			return nil, err
		}
		err = s.store.PutVersusChat(ctx, c)
		if errors.Is(err, storage.ErrConflict) {
			continue
		}
		return c, err
	}
	return nil, fmt.Errorf("versus: group %d: %w", id, play.ErrBusy)
}

// Chat returns group id's record (an empty one if it has none).
func (s *Service) Chat(ctx context.Context, id int64) (*storage.VersusChat, error) {
	c, err := s.store.VersusChat(ctx, id)
	if errors.Is(err, storage.ErrNotFound) {
		return &storage.VersusChat{ID: id}, nil
	}
	return c, err
}

// SetQuorum sets how many votes close group chat's vote early.
func (s *Service) SetQuorum(ctx context.Context, chat int64, n int) error {
	if n < 1 || n > 50 {
		return fmt.Errorf("%w: %d", ErrBadQuorum, n)
	}
	_, err := s.changeChat(ctx, chat, func(c *storage.VersusChat) error {
		c.Quorum = n
		return nil
	})
	return err
}

// SetOff turns group chat's matches off (or on again): an administrator's
// choice; no challenge is made or accepted there while off.
func (s *Service) SetOff(ctx context.Context, chat int64, off bool) error {
	_, err := s.changeChat(ctx, chat, func(c *storage.VersusChat) error {
		if c.Off == off {
			return play.Unchanged
		}
		c.Off = off
		if off {
			c.Waiting = time.Time{}
		}
		return nil
	})
	return err
}

// quorum is the quorum group c chose, or the default.
func quorum(c *storage.VersusChat) int {
	if c.Quorum > 0 {
		return c.Quorum
	}
	return DefaultQuorum
}
