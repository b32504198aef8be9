package bolt

import (
	"context"
	"fmt"
	"strconv"

	bbolt "go.etcd.io/bbolt"

	"github.com/bashni/bashni/storage"
)

// bucketChats holds Chat by chat id; made by the first write, so a file
// from before groups had settings opens unchanged.
var bucketChats = []byte("chats")

// PutChat stores a chat's settings.
func (s *Store) PutChat(ctx context.Context, c storage.Chat) error {
	return s.update(ctx, "put chat", func(tx *bbolt.Tx) error {
		if c.ID == 0 {
			return fmt.Errorf("chat without an id: %w", errInvalid)
		}
		if _, err := tx.CreateBucketIfNotExists(bucketChats); err != nil {
			return fmt.Errorf("bucket %s: %w", bucketChats, err)
		}
		return put(tx, bucketChats, []byte(strconv.FormatInt(c.ID, 10)), &c)
	})
}

// Chat reads a chat's settings.
func (s *Store) Chat(ctx context.Context, id int64) (*storage.Chat, error) {
	var c storage.Chat
	err := s.view(ctx, "chat", func(tx *bbolt.Tx) error {
		if tx.Bucket(bucketChats) == nil {
			return storage.ErrNotFound
		}
		ok, err := get(tx, bucketChats, []byte(strconv.FormatInt(id, 10)), &c)
		if err == nil && !ok {
			err = storage.ErrNotFound
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return &c, nil
}
