package redis

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"github.com/bashni/bashni/storage"
)

// dailyChatsKey is a hash: chat id to the DailyChat as JSON. One key for
// all chats: the clock reads the whole list at every tick.
func (s *Store) dailyChatsKey() string { return s.prefix + "dailychats" }

// dailyKey is a hash like puzzleKey's: v, w, d (the DailyPuzzle as JSON).
func (s *Store) dailyKey(chatID int64, date string) string {
	return s.prefix + "daily:{" + strconv.FormatInt(chatID, 10) + ":" + date + "}"
}

// SetDailyChat turns a chat's daily puzzle on or off.
func (s *Store) SetDailyChat(ctx context.Context, c storage.DailyChat, on bool) error {
	op := "set daily chat"
	if c.ChatID == 0 {
		return fmt.Errorf("storage: redis: %s: no chat id", op)
	}
	if err := start(ctx, op); err != nil {
		return err
	}
	field := strconv.FormatInt(c.ChatID, 10)
	if !on {
		return fail(op, s.rdb.HDel(ctx, s.dailyChatsKey(), field).Err())
	}
	data, err := json.Marshal(&c)
	if err != nil {
		return fmt.Errorf("storage: redis: %s: %w", op, err)
	}
	return fail(op, s.rdb.HSet(ctx, s.dailyChatsKey(), field, data).Err())
}

// DailyChats lists the chats with the daily puzzle on.
func (s *Store) DailyChats(ctx context.Context) ([]storage.DailyChat, error) {
	op := "daily chats"
	if err := start(ctx, op); err != nil {
		return nil, err
	}
	all, err := s.rdb.HVals(ctx, s.dailyChatsKey()).Result()
	if err != nil {
		return nil, fail(op, err)
	}
	out := make([]storage.DailyChat, 0, len(all))
	for _, v := range all {
		var c storage.DailyChat
		if err := json.Unmarshal([]byte(v), &c); err != nil {
			return nil, fail(op, fmt.Errorf("decode: %w", err))
		}
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b storage.DailyChat) int { return cmp.Compare(a.ChatID, b.ChatID) })
	return out, nil
}

// ClaimDaily stores d only if its chat has no puzzle that day: the write
// from version 0 of putPuzzle's script, which refuses a stored record.
func (s *Store) ClaimDaily(ctx context.Context, d *storage.DailyPuzzle) error {
	if d.ChatID == 0 || d.Date == "" {
		return fmt.Errorf("storage: redis: claim daily: no chat or date")
	}
	op := "claim daily " + strconv.FormatInt(d.ChatID, 10) + " " + d.Date
	rec := *d
	rec.Version = 0
	if err := s.writeDaily(ctx, op, &rec); err != nil {
		return err
	}
	d.Version = rec.Version
	return nil
}

// DailyPuzzle reads a chat's puzzle of a day.
func (s *Store) DailyPuzzle(ctx context.Context, chatID int64, date string) (*storage.DailyPuzzle, error) {
	op := "daily puzzle " + strconv.FormatInt(chatID, 10) + " " + date
	return readRecord[storage.DailyPuzzle](ctx, s, s.dailyKey(chatID, date), op)
}

// UpdateDaily writes d if the stored version is d.Version.
func (s *Store) UpdateDaily(ctx context.Context, d *storage.DailyPuzzle) error {
	op := "update daily " + strconv.FormatInt(d.ChatID, 10) + " " + d.Date
	if d.Version < 1 {
		// Version 0 would be a claim; an update is of a claimed record.
		if _, err := s.DailyPuzzle(ctx, d.ChatID, d.Date); err != nil {
			return err
		}
		return fmt.Errorf("storage: redis: %s: written from version 0: %w", op, storage.ErrConflict)
	}
	rec := *d
	err := s.writeDaily(ctx, op, &rec)
	if errors.Is(err, storage.ErrConflict) {
		if _, rerr := s.DailyPuzzle(ctx, d.ChatID, d.Date); errors.Is(rerr, storage.ErrNotFound) {
			return rerr
		}
	}
	if err != nil {
		return err
	}
	d.Version = rec.Version
	return nil
}

// writeDaily writes d from d.Version (0: only if absent) and sets the new
// version on d.
func (s *Store) writeDaily(ctx context.Context, op string, d *storage.DailyPuzzle) error {
	if err := start(ctx, op); err != nil {
		return err
	}
	from := d.Version
	d.Version++
	return s.putVersioned(ctx, op, s.dailyKey(d.ChatID, d.Date), from, d.Version, d)
}
