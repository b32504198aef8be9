package redis

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/bashni/bashni/storage"
)

// tourKey is a hash like puzzleKey's: v, w, d (the Tournament as JSON),
// one a chat.
func (s *Store) tourKey(chatID int64) string {
	return s.prefix + "tournament:{" + strconv.FormatInt(chatID, 10) + "}"
}

// runningToursKey is a set of the chat ids whose tournament is not
// finished. It is kept beside the records, not in their scripts (a
// cluster runs a script on one slot): a chat is added before its
// tournament is written and removed after the write that finishes it, so
// a crash in between leaves a chat listed whose tournament has finished,
// which RunningTournaments filters out, never a running one unlisted.
func (s *Store) runningToursKey() string { return s.prefix + "tournaments:running" }

// CreateTournament stores t unless its chat's tournament still runs: the
// version read is the one the write goes on from, so of concurrent
// creators exactly one wins.
func (s *Store) CreateTournament(ctx context.Context, t *storage.Tournament) error {
	if t.ChatID == 0 || t.ID == "" {
		return fmt.Errorf("storage: redis: create tournament: no chat or id")
	}
	op := "create tournament " + strconv.FormatInt(t.ChatID, 10)
	old, err := s.Tournament(ctx, t.ChatID)
	var from int64
	switch {
	case errors.Is(err, storage.ErrNotFound):
	case err != nil:
		return err
	case old.Listed():
		return fmt.Errorf("storage: redis: %s: the chat's tournament still runs: %w", op, storage.ErrConflict)
	default:
		from = old.Version
	}
	rec := t.Clone()
	rec.Version = from
	if err := s.writeTour(ctx, op, rec); err != nil {
		return err
	}
	t.Version = rec.Version
	return nil
}

// Tournament reads a chat's tournament.
func (s *Store) Tournament(ctx context.Context, chatID int64) (*storage.Tournament, error) {
	op := "tournament " + strconv.FormatInt(chatID, 10)
	return readRecord[storage.Tournament](ctx, s, s.tourKey(chatID), op)
}

// UpdateTournament writes t if the stored version is t.Version.
func (s *Store) UpdateTournament(ctx context.Context, t *storage.Tournament) error {
	op := fmt.Sprintf("update tournament %d at version %d", t.ChatID, t.Version)
	if t.Version < 1 {
		if _, err := s.Tournament(ctx, t.ChatID); err != nil {
			return err
		}
		return fmt.Errorf("storage: redis: %s: %w", op, storage.ErrConflict)
	}
	rec := t.Clone()
	err := s.writeTour(ctx, op, rec)
	if errors.Is(err, storage.ErrConflict) {
		if _, rerr := s.Tournament(ctx, t.ChatID); errors.Is(rerr, storage.ErrNotFound) {
			return rerr
		}
	}
	if err != nil {
		return err
	}
	t.Version = rec.Version
	return nil
}

// writeTour writes t from t.Version (0: only if absent) with putPuzzle's
// script and sets the new version on t, keeping the running set.
func (s *Store) writeTour(ctx context.Context, op string, t *storage.Tournament) error {
	if err := start(ctx, op); err != nil {
		return err
	}
	from := t.Version
	t.Version++
	member := strconv.FormatInt(t.ChatID, 10)
	finished := !t.Listed()
	if !finished {
		if err := s.rdb.SAdd(ctx, s.runningToursKey(), member).Err(); err != nil {
			return fail(op, err)
		}
	}
	if err := s.putVersioned(ctx, op, s.tourKey(t.ChatID), from, t.Version, t); err != nil {
		return err
	}
	if finished {
		if err := s.rdb.SRem(ctx, s.runningToursKey(), member).Err(); err != nil {
			return fail(op, err)
		}
	}
	return nil
}

// RunningTournaments lists the chats whose tournament is not finished.
func (s *Store) RunningTournaments(ctx context.Context) ([]int64, error) {
	op := "running tournaments"
	if err := start(ctx, op); err != nil {
		return nil, err
	}
	members, err := s.rdb.SMembers(ctx, s.runningToursKey()).Result()
	if err != nil {
		return nil, fail(op, err)
	}
	out := []int64{}
	for _, m := range members {
		id, err := strconv.ParseInt(m, 10, 64)
		if err != nil {
			return nil, fail(op, fmt.Errorf("member %q: %w", m, err))
		}
		t, err := s.Tournament(ctx, id)
		if errors.Is(err, storage.ErrNotFound) {
			continue // listed before a create that failed
		}
		if err != nil {
			return nil, err
		}
		if t.Listed() {
			out = append(out, id)
		}
	}
	slices.Sort(out)
	return out, nil
}
