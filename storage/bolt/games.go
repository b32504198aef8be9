package bolt

import (
	"bytes"
	"context"
	"fmt"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/bashni/bashni/storage"
)

// CreateGame stores g as version 1 with its index entries.
func (s *Store) CreateGame(ctx context.Context, g *storage.GameRecord) error {
	return s.createGame(ctx, g, nil)
}

// CreateGameCapped is CreateGame when userID plays fewer than max active
// games, counted in the transaction that writes the game: bbolt's one
// writer at a time makes the count and the write one step.
func (s *Store) CreateGameCapped(ctx context.Context, g *storage.GameRecord, userID int64, max int) error {
	return s.createGame(ctx, g, func(tx *bbolt.Tx) error {
		prefix, n := intKey(userID), 0
		c := tx.Bucket(bucketUserGames).Cursor()
		for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
			n++
		}
		if n >= max {
			return fmt.Errorf("user %d plays %d: %w", userID, n, storage.ErrCapReached)
		}
		return nil
	})
}

// createGame writes g after check (if any) allowed it, in one transaction.
func (s *Store) createGame(ctx context.Context, g *storage.GameRecord, check func(tx *bbolt.Tx) error) error {
	if g.ID == "" {
		return fmt.Errorf("storage: bolt: create game: empty id: %w", errInvalid)
	}
	rec := *g
	rec.Version = 1
	err := s.update(ctx, "create game "+g.ID, func(tx *bbolt.Tx) error {
		if check != nil {
			if err := check(tx); err != nil {
				return err
			}
		}
		if tx.Bucket(bucketGames).Get([]byte(g.ID)) != nil {
			return fmt.Errorf("id taken: %w", storage.ErrConflict)
		}
		if err := put(tx, bucketGames, []byte(g.ID), &rec); err != nil {
			return err
		}
		if !rec.Active() {
			if err := s.expireFinished(tx, g.ID); err != nil {
				return err
			}
		}
		return putIndexes(tx, &rec)
	})
	if err == nil {
		g.Version = 1
	}
	return err
}

// Game returns the stored game.
func (s *Store) Game(ctx context.Context, id string) (*storage.GameRecord, error) {
	var g storage.GameRecord
	err := s.view(ctx, "game "+id, func(tx *bbolt.Tx) error {
		ok, err := get(tx, bucketGames, []byte(id), &g)
		if err == nil && !ok {
			err = storage.ErrNotFound
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return &g, nil
}

// UpdateGame writes g if the stored version is g.Version, moving its index
// entries in the same transaction.
func (s *Store) UpdateGame(ctx context.Context, g *storage.GameRecord) error {
	rec := *g
	rec.Version = g.Version + 1
	err := s.update(ctx, fmt.Sprintf("update game %s at version %d", g.ID, g.Version), func(tx *bbolt.Tx) error {
		// Game writes are frequent: they remove the expired finished games.
		if err := sweep(tx, bucketGameExpiry, bucketGames, timeKey(s.now())); err != nil {
			return err
		}
		var old storage.GameRecord
		ok, err := get(tx, bucketGames, []byte(g.ID), &old)
		switch {
		case err != nil:
			return err
		case !ok:
			return storage.ErrNotFound
		case old.Version != g.Version:
			return fmt.Errorf("stored version is %d: %w", old.Version, storage.ErrConflict)
		case !old.Active() && rec.Active():
			return fmt.Errorf("finished games cannot be reopened: %w", storage.ErrConflict)
		}
		if err := deleteIndexes(tx, &old); err != nil {
			return err
		}
		if err := put(tx, bucketGames, []byte(g.ID), &rec); err != nil {
			return err
		}
		if old.Active() && !rec.Active() {
			if err := s.expireFinished(tx, g.ID); err != nil {
				return err
			}
			// The write that finishes the game logs it for the puzzle
			// miner (mining.go), exactly once: a game never reopens.
			if err := s.logFinished(tx, g.ID); err != nil {
				return err
			}
		}
		return putIndexes(tx, &rec)
	})
	if err == nil {
		g.Version = rec.Version
	}
	return err
}

// expireFinished schedules a game that has just finished for removal, if
// finished games are not kept for ever.
func (s *Store) expireFinished(tx *bbolt.Tx, id string) error {
	if s.keepFinished <= 0 {
		return nil
	}
	return tx.Bucket(bucketGameExpiry).Put(key(timeKey(s.now().Add(s.keepFinished)), []byte(id)), nil)
}

// indexKeys lists the index entries a game should have: once finished, only
// while it owes the players something (Due), its deadline and the
// receipts of what it owes; otherwise its chat, each human player, and its
// deadline if it has one.
func indexKeys(g *storage.GameRecord) (buckets, keys [][]byte) {
	id := []byte(g.ID)
	if !g.Active() {
		d := g.Due()
		if d.IsZero() {
			return nil, nil
		}
		buckets, keys = [][]byte{bucketDeadlines}, [][]byte{key(timeKey(d), id)}
		for _, ev := range g.Owed {
			buckets = append(buckets, bucketReceipts)
			keys = append(keys, key(intKey(ev.Receipt), id))
		}
		return buckets, keys
	}
	created := createdKey(g.CreatedAt)
	if g.ChatID != 0 {
		buckets = append(buckets, bucketChatGames)
		keys = append(keys, key(intKey(g.ChatID), created, id))
	}
	for _, u := range g.HumanIDs() {
		buckets = append(buckets, bucketUserGames)
		keys = append(keys, key(intKey(u), created, id))
	}
	if d := g.Due(); !d.IsZero() {
		buckets = append(buckets, bucketDeadlines)
		keys = append(keys, key(timeKey(d), id))
	}
	return buckets, keys
}

func putIndexes(tx *bbolt.Tx, g *storage.GameRecord) error {
	buckets, keys := indexKeys(g)
	for i, k := range keys {
		if err := tx.Bucket(buckets[i]).Put(k, nil); err != nil {
			return err
		}
	}
	return nil
}

func deleteIndexes(tx *bbolt.Tx, g *storage.GameRecord) error {
	buckets, keys := indexKeys(g)
	for i, k := range keys {
		if err := tx.Bucket(buckets[i]).Delete(k); err != nil {
			return err
		}
	}
	return nil
}

// ActiveGamesByChat lists the chat's active games, oldest first.
func (s *Store) ActiveGamesByChat(ctx context.Context, chatID int64) ([]string, error) {
	return s.listPrefix(ctx, fmt.Sprintf("active games of chat %d", chatID), bucketChatGames, chatID)
}

// ActiveGamesByUser lists the active games the user plays in, oldest first.
func (s *Store) ActiveGamesByUser(ctx context.Context, userID int64) ([]string, error) {
	return s.listPrefix(ctx, fmt.Sprintf("active games of user %d", userID), bucketUserGames, userID)
}

// listPrefix returns the ids in the keys owner | created | id.
func (s *Store) listPrefix(ctx context.Context, op string, bucket []byte, owner int64) ([]string, error) {
	var ids []string
	prefix := intKey(owner)
	err := s.view(ctx, op, func(tx *bbolt.Tx) error {
		c := tx.Bucket(bucket).Cursor()
		for k, _ := c.Seek(prefix); k != nil && bytes.HasPrefix(k, prefix); k, _ = c.Next() {
			ids = append(ids, string(k[2*intLen:]))
		}
		return nil
	})
	return ids, err
}

// EndedGameByReceipt finds the finished game owing an event under receipt.
func (s *Store) EndedGameByReceipt(ctx context.Context, receipt int64) (string, error) {
	var id string
	prefix := intKey(receipt)
	err := s.view(ctx, fmt.Sprintf("game ended by %d", receipt), func(tx *bbolt.Tx) error {
		k, _ := tx.Bucket(bucketReceipts).Cursor().Seek(prefix)
		if k == nil || !bytes.HasPrefix(k, prefix) {
			return storage.ErrNotFound
		}
		id = string(k[intLen:])
		return nil
	})
	return id, err
}

// DueGames lists active games whose deadline is not after now, earliest
// first.
func (s *Store) DueGames(ctx context.Context, now time.Time, limit int) ([]string, error) {
	var ids []string
	end := timeKey(now)
	err := s.view(ctx, "due games", func(tx *bbolt.Tx) error {
		c := tx.Bucket(bucketDeadlines).Cursor()
		for k, _ := c.First(); k != nil && len(ids) < limit && bytes.Compare(k[:timeLen], end) <= 0; k, _ = c.Next() {
			ids = append(ids, string(k[timeLen:]))
		}
		return nil
	})
	return ids, err
}
