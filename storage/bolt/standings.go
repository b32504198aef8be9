package bolt

import (
	"bytes"
	"context"
	"fmt"

	bbolt "go.etcd.io/bbolt"

	"github.com/bashni/bashni/storage"
)

// SetStanding replaces a user's line and its rank entry together if the
// stored line's version is st.Version (0: none stored).
func (s *Store) SetStanding(ctx context.Context, scope int64, st *storage.Standing) error {
	sk := key(intKey(scope), intKey(st.UserID))
	rec := *st
	rec.Version = st.Version + 1
	op := fmt.Sprintf("set standing %d in %d at version %d", st.UserID, scope, st.Version)
	err := s.update(ctx, op, func(tx *bbolt.Tx) error {
		var old storage.Standing
		ok, err := get(tx, bucketStandings, sk, &old)
		if err != nil {
			return err
		}
		if old.Version != st.Version {
			return fmt.Errorf("stored version is %d: %w", old.Version, storage.ErrConflict)
		}
		ranks := tx.Bucket(bucketRanks)
		if ok {
			if err := ranks.Delete(rankEntry(scope, old)); err != nil {
				return err
			}
		}
		if err := ranks.Put(rankEntry(scope, rec), nil); err != nil {
			return err
		}
		return put(tx, bucketStandings, sk, &rec)
	})
	if err == nil {
		st.Version = rec.Version
	}
	return err
}

func rankEntry(scope int64, st storage.Standing) []byte {
	return key(intKey(scope), rankKey(st.Rating), intKey(st.UserID))
}

// Top walks the scope's ranks from the highest rating.
func (s *Store) Top(ctx context.Context, scope int64, n int) ([]storage.Standing, error) {
	var top []storage.Standing
	prefix := intKey(scope)
	err := s.view(ctx, fmt.Sprintf("top %d of %d", n, scope), func(tx *bbolt.Tx) error {
		c := tx.Bucket(bucketRanks).Cursor()
		for k, _ := c.Seek(prefix); k != nil && len(top) < n && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
			var st storage.Standing
			ok, err := get(tx, bucketStandings, key(prefix, k[2*intLen:]), &st)
			if err != nil {
				return err
			}
			if !ok {
				return fmt.Errorf("rank entry %x without a standing", k)
			}
			top = append(top, st)
		}
		return nil
	})
	return top, err
}

// Standing returns one user's line in a scope.
func (s *Store) Standing(ctx context.Context, scope, userID int64) (storage.Standing, error) {
	var st storage.Standing
	err := s.view(ctx, fmt.Sprintf("standing %d in %d", userID, scope), func(tx *bbolt.Tx) error {
		ok, err := get(tx, bucketStandings, key(intKey(scope), intKey(userID)), &st)
		if err == nil && !ok {
			err = storage.ErrNotFound
		}
		return err
	})
	return st, err
}
