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
	err := s.update(ctx, fmt.Sprintf("mark update %d", updateID), func(tx *bbolt.Tx) error {
		var err error
		first, err = markTx(tx, updateID, ttl, s.now())
		return err
	})
	return first && err == nil, err
}

// markTx marks updateID until now+ttl in tx and reports whether it was new.
func markTx(tx *bbolt.Tx, updateID int64, ttl time.Duration, now time.Time) (bool, error) {
	id := intKey(updateID)
	nowKey := timeKey(now)
	if err := sweep(tx, bucketUpdateExpiry, bucketUpdates, nowKey); err != nil {
		return false, err
	}
	marks, expiry := tx.Bucket(bucketUpdates), tx.Bucket(bucketUpdateExpiry)
	if old := marks.Get(id); old != nil {
		if bytes.Compare(old, nowKey) > 0 {
			return false, nil // seen, and the mark is still live
		}
		if err := expiry.Delete(key(old, id)); err != nil {
			return false, err
		}
	}
	until := timeKey(now.Add(ttl))
	if err := marks.Put(id, until); err != nil {
		return false, err
	}
	return true, expiry.Put(key(until, id), nil)
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
