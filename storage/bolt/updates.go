package bolt

import (
	"bytes"
	"context"
	"fmt"
	"time"

	bbolt "go.etcd.io/bbolt"
)

// MarkUpdate records updateID until now+ttl and reports whether it was new.
func (s *Store) MarkUpdate(ctx context.Context, updateID int64, ttl time.Duration) (bool, error) {
	if ttl <= 0 {
		return false, fmt.Errorf("storage: bolt: mark update %d: ttl %v: %w", updateID, ttl, errInvalid)
	}
	first := false
	id := intKey(updateID)
	err := s.update(ctx, fmt.Sprintf("mark update %d", updateID), func(tx *bbolt.Tx) error {
		now := s.now()
		nowKey := timeKey(now)
		if err := sweep(tx, bucketUpdateExpiry, bucketUpdates, nowKey); err != nil {
			return err
		}
		marks, expiry := tx.Bucket(bucketUpdates), tx.Bucket(bucketUpdateExpiry)
		if old := marks.Get(id); old != nil {
			if bytes.Compare(old, nowKey) > 0 {
				return nil // seen, and the mark is still live
			}
			if err := expiry.Delete(key(old, id)); err != nil {
				return err
			}
		}
		first = true
		until := timeKey(now.Add(ttl))
		if err := marks.Put(id, until); err != nil {
			return err
		}
		return expiry.Put(key(until, id), nil)
	})
	return first && err == nil, err
}

// UpdateSeen reports whether updateID is marked and the mark is live.
func (s *Store) UpdateSeen(ctx context.Context, updateID int64) (bool, error) {
	seen := false
	err := s.view(ctx, fmt.Sprintf("update seen %d", updateID), func(tx *bbolt.Tx) error {
		until := tx.Bucket(bucketUpdates).Get(intKey(updateID))
		seen = until != nil && bytes.Compare(until, timeKey(s.now())) > 0
		return nil
	})
	return seen && err == nil, err
}
