package bolt

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	bbolt "go.etcd.io/bbolt"

	"github.com/bashni/bashni/storage"
)

// bucketTournaments holds each chat's Tournament by chat id,
// bucketRunningTours the chat ids of those not finished (empty values).
// Both are made by the first write, so a file from before tournaments
// opens unchanged.
var (
	bucketTournaments  = []byte("tournaments")
	bucketRunningTours = []byte("tournaments_running")
)

func tourKey(chatID int64) []byte { return []byte(strconv.FormatInt(chatID, 10)) }

// CreateTournament stores t unless its chat's tournament still runs.
func (s *Store) CreateTournament(ctx context.Context, t *storage.Tournament) error {
	rec := t.Clone()
	err := s.update(ctx, "create tournament", func(tx *bbolt.Tx) error {
		if t.ChatID == 0 || t.ID == "" {
			return fmt.Errorf("tournament without a chat or id: %w", errInvalid)
		}
		for _, b := range [][]byte{bucketTournaments, bucketRunningTours} {
			if _, err := tx.CreateBucketIfNotExists(b); err != nil {
				return fmt.Errorf("bucket %s: %w", b, err)
			}
		}
		k := tourKey(t.ChatID)
		var old storage.Tournament
		ok, err := get(tx, bucketTournaments, k, &old)
		if err != nil {
			return err
		}
		if ok && old.Listed() {
			return fmt.Errorf("tournament of chat %d still runs: %w", t.ChatID, storage.ErrConflict)
		}
		rec.Version = old.Version + 1
		if err := s.indexTour(tx, rec); err != nil {
			return err
		}
		return put(tx, bucketTournaments, k, rec)
	})
	if err != nil {
		return err
	}
	t.Version = rec.Version
	return nil
}

// indexTour keeps the running list in step with t's status.
func (s *Store) indexTour(tx *bbolt.Tx, t *storage.Tournament) error {
	k := tourKey(t.ChatID)
	if !t.Listed() {
		return tx.Bucket(bucketRunningTours).Delete(k)
	}
	return tx.Bucket(bucketRunningTours).Put(k, []byte{})
}

// Tournament reads a chat's tournament.
func (s *Store) Tournament(ctx context.Context, chatID int64) (*storage.Tournament, error) {
	var t storage.Tournament
	err := s.view(ctx, "tournament", func(tx *bbolt.Tx) error {
		if tx.Bucket(bucketTournaments) == nil {
			return storage.ErrNotFound
		}
		ok, err := get(tx, bucketTournaments, tourKey(chatID), &t)
		if err == nil && !ok {
			err = storage.ErrNotFound
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return &t, nil
}

// UpdateTournament writes t if the stored version is t.Version.
func (s *Store) UpdateTournament(ctx context.Context, t *storage.Tournament) error {
	rec := t.Clone()
	rec.Version = t.Version + 1
	err := s.update(ctx, "update tournament", func(tx *bbolt.Tx) error {
		if tx.Bucket(bucketTournaments) == nil {
			return storage.ErrNotFound
		}
		k := tourKey(t.ChatID)
		var old storage.Tournament
		ok, err := get(tx, bucketTournaments, k, &old)
		if err != nil {
			return err
		}
		if !ok {
			return storage.ErrNotFound
		}
		if old.Version != t.Version {
			return fmt.Errorf("tournament of chat %d: stored version %d, written from %d: %w", t.ChatID, old.Version, t.Version, storage.ErrConflict)
		}
		if err := s.indexTour(tx, rec); err != nil {
			return err
		}
		return put(tx, bucketTournaments, k, rec)
	})
	if err != nil {
		return err
	}
	t.Version = rec.Version
	return nil
}

// RunningTournaments lists the chats whose tournament is not finished.
func (s *Store) RunningTournaments(ctx context.Context) ([]int64, error) {
	out := []int64{}
	err := s.view(ctx, "running tournaments", func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketRunningTours)
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, _ []byte) error {
			id, err := strconv.ParseInt(string(k), 10, 64)
			if err != nil {
				return fmt.Errorf("running tournament key %q: %w", k, err)
			}
			out = append(out, id)
			return nil
		})
	})
	slices.Sort(out) // keys sort as text; the contract orders by id
	return out, err
}
