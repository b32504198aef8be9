package redis

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/bashni/bashni/storage"
)

// versusChallengeKey and versusChatKey are hashes like puzzleKey's: v, w,
// d (the record as JSON).
func (s *Store) versusChallengeKey(code string) string {
	return s.prefix + "versus:challenge:{" + code + "}"
}

func (s *Store) versusChatKey(id int64) string {
	return s.prefix + "versus:chat:{" + strconv.FormatInt(id, 10) + "}"
}

// versusChatsKey is a set of the chat ids that have a record. It is kept
// beside the records, not in their script (a cluster runs a script on
// one slot): a chat is added before its record is written, so a crash in
// between lists a chat without one, which VersusChats skips.
func (s *Store) versusChatsKey() string { return s.prefix + "versus:chats" }

// PutVersusChallenge writes c if the stored version is c.Version.
func (s *Store) PutVersusChallenge(ctx context.Context, c *storage.VersusChallenge) error {
	op := "put versus challenge " + c.Code
	if c.Code == "" {
		return fmt.Errorf("storage: redis: %s: empty code", op)
	}
	if err := start(ctx, op); err != nil {
		return err
	}
	rec := *c
	rec.Version = c.Version + 1
	if err := s.putVersioned(ctx, op, s.versusChallengeKey(c.Code), c.Version, rec.Version, &rec); err != nil {
		return err
	}
	c.Version = rec.Version
	return nil
}

// VersusChallenge reads a challenge.
func (s *Store) VersusChallenge(ctx context.Context, code string) (*storage.VersusChallenge, error) {
	return readRecord[storage.VersusChallenge](ctx, s, s.versusChallengeKey(code), "versus challenge "+code)
}

// PutVersusChat writes c if the stored version is c.Version.
func (s *Store) PutVersusChat(ctx context.Context, c *storage.VersusChat) error {
	op := fmt.Sprintf("put versus chat %d", c.ID)
	if c.ID == 0 {
		return fmt.Errorf("storage: redis: %s: no chat", op)
	}
	if err := start(ctx, op); err != nil {
		return err
	}
	if err := s.rdb.SAdd(ctx, s.versusChatsKey(), strconv.FormatInt(c.ID, 10)).Err(); err != nil {
		return fail(op, err)
	}
	rec := c.Clone()
	rec.Version = c.Version + 1
	if err := s.putVersioned(ctx, op, s.versusChatKey(c.ID), c.Version, rec.Version, rec); err != nil {
		return err
	}
	c.Version = rec.Version
	return nil
}

// VersusChat reads a group's record.
func (s *Store) VersusChat(ctx context.Context, id int64) (*storage.VersusChat, error) {
	return readRecord[storage.VersusChat](ctx, s, s.versusChatKey(id), fmt.Sprintf("versus chat %d", id))
}

// VersusChats lists every group's record.
func (s *Store) VersusChats(ctx context.Context) ([]*storage.VersusChat, error) {
	op := "versus chats"
	if err := start(ctx, op); err != nil {
		return nil, err
	}
	members, err := s.rdb.SMembers(ctx, s.versusChatsKey()).Result()
	if err != nil {
		return nil, fail(op, err)
	}
	out := []*storage.VersusChat{}
	for _, m := range members {
		id, err := strconv.ParseInt(m, 10, 64)
		if err != nil {
			return nil, fail(op, fmt.Errorf("member %q: %w", m, err))
		}
		c, err := s.VersusChat(ctx, id)
		if errors.Is(err, storage.ErrNotFound) {
			continue // listed before a write that failed
		}
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}
