package bolt

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"

	bbolt "go.etcd.io/bbolt"

	"github.com/bashni/bashni/storage"
)

// bucketDailyChats holds DailyChat by chat id, bucketDaily DailyPuzzle by
// "chat/date". Both are made by the first write, so a file from before
// the daily puzzle opens unchanged.
var (
	bucketDailyChats = []byte("dailychats")
	bucketDaily      = []byte("daily")
)

func dailyKey(chatID int64, date string) []byte {
	return []byte(strconv.FormatInt(chatID, 10) + "/" + date)
}

// SetDailyChat turns a chat's daily puzzle on or off.
func (s *Store) SetDailyChat(ctx context.Context, c storage.DailyChat, on bool) error {
	return s.update(ctx, "set daily chat", func(tx *bbolt.Tx) error {
		if c.ChatID == 0 {
			return fmt.Errorf("daily chat without an id: %w", errInvalid)
		}
		if _, err := tx.CreateBucketIfNotExists(bucketDailyChats); err != nil {
			return fmt.Errorf("bucket %s: %w", bucketDailyChats, err)
		}
		k := []byte(strconv.FormatInt(c.ChatID, 10))
		if !on {
			return tx.Bucket(bucketDailyChats).Delete(k)
		}
		return put(tx, bucketDailyChats, k, &c)
	})
}

// DailyChats lists the chats with the daily puzzle on.
func (s *Store) DailyChats(ctx context.Context) ([]storage.DailyChat, error) {
	out := []storage.DailyChat{}
	err := s.view(ctx, "daily chats", func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketDailyChats)
		if b == nil {
			return nil
		}
		return b.ForEach(func(k, _ []byte) error {
			var c storage.DailyChat
			if _, err := get(tx, bucketDailyChats, k, &c); err != nil {
				return err
			}
			out = append(out, c)
			return nil
		})
	})
	// Keys sort as text; the contract orders by id.
	slices.SortFunc(out, func(a, b storage.DailyChat) int { return cmp.Compare(a.ChatID, b.ChatID) })
	return out, err
}

// ClaimDaily stores d only if its chat has no puzzle that day.
func (s *Store) ClaimDaily(ctx context.Context, d *storage.DailyPuzzle) error {
	rec := *d
	rec.Version = 1
	err := s.update(ctx, "claim daily", func(tx *bbolt.Tx) error {
		if d.ChatID == 0 || d.Date == "" {
			return fmt.Errorf("daily puzzle without a chat or date: %w", errInvalid)
		}
		if _, err := tx.CreateBucketIfNotExists(bucketDaily); err != nil {
			return fmt.Errorf("bucket %s: %w", bucketDaily, err)
		}
		k := dailyKey(d.ChatID, d.Date)
		if tx.Bucket(bucketDaily).Get(k) != nil {
			return fmt.Errorf("daily puzzle %s already claimed: %w", k, storage.ErrConflict)
		}
		return put(tx, bucketDaily, k, &rec)
	})
	if err != nil {
		return err
	}
	d.Version = 1
	return nil
}

// DailyPuzzle reads a chat's puzzle of a day.
func (s *Store) DailyPuzzle(ctx context.Context, chatID int64, date string) (*storage.DailyPuzzle, error) {
	var d storage.DailyPuzzle
	err := s.view(ctx, "daily puzzle", func(tx *bbolt.Tx) error {
		if tx.Bucket(bucketDaily) == nil {
			return storage.ErrNotFound
		}
		ok, err := get(tx, bucketDaily, dailyKey(chatID, date), &d)
		if err == nil && !ok {
			err = storage.ErrNotFound
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return &d, nil
}

// UpdateDaily writes d if the stored version is d.Version.
func (s *Store) UpdateDaily(ctx context.Context, d *storage.DailyPuzzle) error {
	rec := *d
	rec.Version = d.Version + 1
	err := s.update(ctx, "update daily", func(tx *bbolt.Tx) error {
		if tx.Bucket(bucketDaily) == nil {
			return storage.ErrNotFound
		}
		k := dailyKey(d.ChatID, d.Date)
		var old storage.DailyPuzzle
		ok, err := get(tx, bucketDaily, k, &old)
		if err != nil {
			return err
		}
		if !ok {
			return storage.ErrNotFound
		}
		if old.Version != d.Version {
			return fmt.Errorf("daily puzzle %s: stored version %d, written from %d: %w", k, old.Version, d.Version, storage.ErrConflict)
		}
		return put(tx, bucketDaily, k, &rec)
	})
	if err != nil {
		return err
	}
	d.Version = rec.Version
	return nil
}
