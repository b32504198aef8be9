package redis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	goredis "github.com/redis/go-redis/v9"

	"github.com/bashni/bashni/storage"
)

// chatKey is a chat's settings as JSON, one key a chat: read on every
// card a group is shown, so one GET.
func (s *Store) chatKey(id int64) string { return s.prefix + "chat:" + strconv.FormatInt(id, 10) }

// PutChat stores a chat's settings.
func (s *Store) PutChat(ctx context.Context, c storage.Chat) error {
	op := "put chat"
	if c.ID == 0 {
		return fmt.Errorf("storage: redis: %s: no chat id", op)
	}
	if err := start(ctx, op); err != nil {
		return err
	}
	data, err := json.Marshal(&c)
	if err != nil {
		return fmt.Errorf("storage: redis: %s: %w", op, err)
	}
	return fail(op, s.rdb.Set(ctx, s.chatKey(c.ID), data, 0).Err())
}

// Chat reads a chat's settings.
func (s *Store) Chat(ctx context.Context, id int64) (*storage.Chat, error) {
	op := "chat " + strconv.FormatInt(id, 10)
	if err := start(ctx, op); err != nil {
		return nil, err
	}
	data, err := s.rdb.Get(ctx, s.chatKey(id)).Bytes()
	if errors.Is(err, goredis.Nil) {
		return nil, fmt.Errorf("storage: redis: %s: %w", op, storage.ErrNotFound)
	}
	if err != nil {
		return nil, fail(op, err)
	}
	var c storage.Chat
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fail(op, fmt.Errorf("decode: %w", err))
	}
	return &c, nil
}
