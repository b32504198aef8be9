package bolt

import (
	"context"
	"fmt"

	bbolt "go.etcd.io/bbolt"

	"github.com/bashni/bashni/storage"
)

// bucketPuzzles holds PuzzleStats by puzzle id. It is made by the first
// write, so a file from before puzzles opens unchanged.
var bucketPuzzles = []byte("puzzles")

// PuzzleStats reads a puzzle's stats.
func (s *Store) PuzzleStats(ctx context.Context, id string) (*storage.PuzzleStats, error) {
	var p storage.PuzzleStats
	err := s.view(ctx, "puzzle "+id, func(tx *bbolt.Tx) error {
		if tx.Bucket(bucketPuzzles) == nil {
			return storage.ErrNotFound
		}
		ok, err := get(tx, bucketPuzzles, []byte(id), &p)
		if err == nil && !ok {
			err = storage.ErrNotFound
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return &p, nil
}

// PutPuzzleStats writes p if the stored version is p.Version.
func (s *Store) PutPuzzleStats(ctx context.Context, p *storage.PuzzleStats) error {
	rec := *p
	rec.Version = p.Version + 1
	err := s.update(ctx, "put puzzle "+p.ID, func(tx *bbolt.Tx) error {
		if p.ID == "" {
			return fmt.Errorf("puzzle without an id: %w", errInvalid)
		}
		if _, err := tx.CreateBucketIfNotExists(bucketPuzzles); err != nil {
			return fmt.Errorf("bucket %s: %w", bucketPuzzles, err)
		}
		var old storage.PuzzleStats
		if _, err := get(tx, bucketPuzzles, []byte(p.ID), &old); err != nil {
			return err
		}
		if old.Version != p.Version {
			return fmt.Errorf("puzzle %s: stored version %d, written from %d: %w", p.ID, old.Version, p.Version, storage.ErrConflict)
		}
		return put(tx, bucketPuzzles, []byte(p.ID), &rec)
	})
	if err != nil {
		return err
	}
	p.Version = rec.Version
	return nil
}
