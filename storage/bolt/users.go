package bolt

import (
	"context"
	"fmt"

	bbolt "go.etcd.io/bbolt"

	"github.com/bashni/bashni/storage"
)

// User returns the stored user.
func (s *Store) User(ctx context.Context, id int64) (*storage.User, error) {
	var u storage.User
	err := s.view(ctx, fmt.Sprintf("user %d", id), func(tx *bbolt.Tx) error {
		ok, err := get(tx, bucketUsers, intKey(id), &u)
		if err == nil && !ok {
			err = storage.ErrNotFound
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return &u, nil
}

// PutUser writes u if the stored user's version is u.Version (0: none
// stored), moving its username index entry in the same transaction.
func (s *Store) PutUser(ctx context.Context, u *storage.User) error {
	id := intKey(u.ID)
	rec := *u
	rec.Version = u.Version + 1
	err := s.update(ctx, fmt.Sprintf("put user %d at version %d", u.ID, u.Version), func(tx *bbolt.Tx) error {
		names := tx.Bucket(bucketUsernames)
		var old storage.User
		ok, err := get(tx, bucketUsers, id, &old)
		if err != nil {
			return err
		}
		if old.Version != u.Version {
			return fmt.Errorf("stored version is %d: %w", old.Version, storage.ErrConflict)
		}
		// The old name's entry goes only if it still points here: someone
		// else may have taken the name since.
		if oldKey := storage.UsernameKey(old.Username); ok && oldKey != "" && string(names.Get([]byte(oldKey))) == string(id) {
			if err := names.Delete([]byte(oldKey)); err != nil {
				return err
			}
		}
		if newKey := storage.UsernameKey(u.Username); newKey != "" {
			if err := names.Put([]byte(newKey), id); err != nil {
				return err
			}
		}
		return put(tx, bucketUsers, id, &rec)
	})
	if err == nil {
		u.Version = rec.Version
	}
	return err
}

// UserByUsername finds a user by username, ignoring case and a leading "@".
func (s *Store) UserByUsername(ctx context.Context, username string) (*storage.User, error) {
	name := storage.UsernameKey(username)
	var u storage.User
	err := s.view(ctx, fmt.Sprintf("user @%s", name), func(tx *bbolt.Tx) error {
		id := tx.Bucket(bucketUsernames).Get([]byte(name))
		if name == "" || id == nil {
			return storage.ErrNotFound
		}
		ok, err := get(tx, bucketUsers, id, &u)
		if err == nil && (!ok || storage.UsernameKey(u.Username) != name) {
			err = storage.ErrNotFound
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return &u, nil
}
