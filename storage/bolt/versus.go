package bolt

import (
	"context"
	"fmt"
	"strconv"

	bbolt "go.etcd.io/bbolt"

	"github.com/bashni/bashni/storage"
)

// bucketVersusChallenges holds the groups' challenges by code,
// bucketVersusChats each group's record by chat id. Both are made by the
// first write, so a file from before the matches opens unchanged.
var (
	bucketVersusChallenges = []byte("versus_challenges")
	bucketVersusChats      = []byte("versus_chats")
)

// putVersioned writes rec at key k of bucket b if the version stored
// there is from (0: none), as version from+1.
func (s *Store) putVersioned(ctx context.Context, op string, b, k []byte, from int64, rec any) error {
	return s.update(ctx, op, func(tx *bbolt.Tx) error {
		if len(k) == 0 {
			return fmt.Errorf("a record without an id: %w", errInvalid)
		}
		if _, err := tx.CreateBucketIfNotExists(b); err != nil {
			return fmt.Errorf("bucket %s: %w", b, err)
		}
		var old map[string]any
		if _, err := get(tx, b, k, &old); err != nil {
			return err
		}
		var stored int64
		if v, ok := old["version"].(float64); ok {
			stored = int64(v)
		}
		if stored != from {
			return fmt.Errorf("%s %s: stored version %d, written from %d: %w", b, k, stored, from, storage.ErrConflict)
		}
		return put(tx, b, k, rec)
	})
}

// readVersioned reads the record at key k of bucket b into v.
func (s *Store) readVersioned(ctx context.Context, op string, b, k []byte, v any) error {
	return s.view(ctx, op, func(tx *bbolt.Tx) error {
		if tx.Bucket(b) == nil {
			return storage.ErrNotFound
		}
		ok, err := get(tx, b, k, v)
		if err == nil && !ok {
			err = storage.ErrNotFound
		}
		return err
	})
}

// PutVersusChallenge writes c if the stored version is c.Version.
func (s *Store) PutVersusChallenge(ctx context.Context, c *storage.VersusChallenge) error {
	rec := *c
	rec.Version = c.Version + 1
	if err := s.putVersioned(ctx, "put versus challenge "+c.Code, bucketVersusChallenges, []byte(c.Code), c.Version, &rec); err != nil {
		return err
	}
	c.Version = rec.Version
	return nil
}

// VersusChallenge reads a challenge.
func (s *Store) VersusChallenge(ctx context.Context, code string) (*storage.VersusChallenge, error) {
	var c storage.VersusChallenge
	if err := s.readVersioned(ctx, "versus challenge "+code, bucketVersusChallenges, []byte(code), &c); err != nil {
		return nil, err
	}
	return &c, nil
}

func versusChatKey(id int64) []byte {
	if id == 0 {
		return nil
	}
	return []byte(strconv.FormatInt(id, 10))
}

// PutVersusChat writes c if the stored version is c.Version.
func (s *Store) PutVersusChat(ctx context.Context, c *storage.VersusChat) error {
	rec := c.Clone()
	rec.Version = c.Version + 1
	if err := s.putVersioned(ctx, fmt.Sprintf("put versus chat %d", c.ID), bucketVersusChats, versusChatKey(c.ID), c.Version, rec); err != nil {
		return err
	}
	c.Version = rec.Version
	return nil
}

// VersusChat reads a group's record.
func (s *Store) VersusChat(ctx context.Context, id int64) (*storage.VersusChat, error) {
	var c storage.VersusChat
	if err := s.readVersioned(ctx, fmt.Sprintf("versus chat %d", id), bucketVersusChats, versusChatKey(id), &c); err != nil {
		return nil, err
	}
	return &c, nil
}

// VersusChats lists every group's record.
func (s *Store) VersusChats(ctx context.Context) ([]*storage.VersusChat, error) {
	out := []*storage.VersusChat{}
	err := s.view(ctx, "versus chats", func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketVersusChats)
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, _ []byte) error {
			var c storage.VersusChat
			if _, err := get(tx, bucketVersusChats, k, &c); err != nil {
				return err
			}
			out = append(out, &c)
			return nil
		})
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
