package bolt

import (
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/bashni/bashni/storage"
)

// The puzzle miner's records. bucketFinished is the log of finished
// games, keyed by timeKey(finished) then the id; bucketMined holds
// MinedPuzzle by id and bucketMinedSeq its id by intKey(Seq) (the
// bucket's own sequence numbers them); bucketMineMark the one MineMark.
// Each is made by the first write, so a file from before the miner opens
// unchanged.
var (
	bucketFinished = []byte("finished")
	bucketMined    = []byte("mined")
	bucketMinedSeq = []byte("mined_seq")
	bucketMineMark = []byte("mine_mark")
	markKey        = []byte("mark")
)

// logFinished adds game id to the log of finished games, in the write that
// finishes it (UpdateGame).
func (s *Store) logFinished(tx *bbolt.Tx, id string) error {
	b, err := tx.CreateBucketIfNotExists(bucketFinished)
	if err != nil {
		return fmt.Errorf("bucket %s: %w", bucketFinished, err)
	}
	return b.Put(key(timeKey(s.now()), []byte(id)), nil)
}

// FinishedGames lists the log's entries after after and before before.
func (s *Store) FinishedGames(ctx context.Context, after storage.FinishedGame, before time.Time, n int) ([]storage.FinishedGame, error) {
	out := []storage.FinishedGame{}
	err := s.view(ctx, "finished games", func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketFinished)
		if b == nil || n <= 0 {
			return nil
		}
		from := key(timeKey(after.At), []byte(after.ID))
		if after == (storage.FinishedGame{}) {
			from = nil
		}
		end := timeKey(before)
		c := b.Cursor()
		k, _ := c.First()
		if from != nil {
			k, _ = c.Seek(from)
			if bytes.Equal(k, from) {
				k, _ = c.Next()
			}
		}
		for ; k != nil && len(out) < n; k, _ = c.Next() {
			if len(k) < timeLen || bytes.Compare(k[:timeLen], end) >= 0 {
				break
			}
			out = append(out, storage.FinishedGame{ID: string(k[timeLen:]), At: keyTime(k[:timeLen])})
		}
		return nil
	})
	return out, err
}

// MineMark reads the miner's mark.
func (s *Store) MineMark(ctx context.Context) (*storage.MineMark, error) {
	var m storage.MineMark
	err := s.view(ctx, "mine mark", func(tx *bbolt.Tx) error {
		if tx.Bucket(bucketMineMark) == nil {
			return nil
		}
		_, err := get(tx, bucketMineMark, markKey, &m)
		return err
	})
	if err != nil {
		return nil, err
	}
	return &m, nil
}

// PutMineMark writes m if the stored version is m.Version.
func (s *Store) PutMineMark(ctx context.Context, m *storage.MineMark) error {
	rec := *m
	rec.Version = m.Version + 1
	err := s.update(ctx, "put mine mark", func(tx *bbolt.Tx) error {
		if _, err := tx.CreateBucketIfNotExists(bucketMineMark); err != nil {
			return fmt.Errorf("bucket %s: %w", bucketMineMark, err)
		}
		var old storage.MineMark
		if _, err := get(tx, bucketMineMark, markKey, &old); err != nil {
			return err
		}
		if old.Version != m.Version {
			return fmt.Errorf("mine mark: stored version %d, written from %d: %w", old.Version, m.Version, storage.ErrConflict)
		}
		return put(tx, bucketMineMark, markKey, &rec)
	})
	if err != nil {
		return err
	}
	m.Version = rec.Version
	return nil
}

// AddMinedPuzzle stores p unless its id is stored.
func (s *Store) AddMinedPuzzle(ctx context.Context, p *storage.MinedPuzzle) error {
	rec := *p
	rec.Version = 1
	err := s.update(ctx, "add mined puzzle "+p.ID, func(tx *bbolt.Tx) error {
		if p.ID == "" {
			return fmt.Errorf("mined puzzle without an id: %w", errInvalid)
		}
		b, err := tx.CreateBucketIfNotExists(bucketMined)
		if err != nil {
			return fmt.Errorf("bucket %s: %w", bucketMined, err)
		}
		seqs, err := tx.CreateBucketIfNotExists(bucketMinedSeq)
		if err != nil {
			return fmt.Errorf("bucket %s: %w", bucketMinedSeq, err)
		}
		if b.Get([]byte(p.ID)) != nil {
			return fmt.Errorf("mined puzzle %s already stored: %w", p.ID, storage.ErrConflict)
		}
		seq, err := seqs.NextSequence()
		if err != nil {
			return err
		}
		rec.Seq = int64(seq)
		if err := seqs.Put(intKey(rec.Seq), []byte(p.ID)); err != nil {
			return err
		}
		return put(tx, bucketMined, []byte(p.ID), &rec)
	})
	if err != nil {
		return err
	}
	p.Seq, p.Version = rec.Seq, rec.Version
	return nil
}

// MinedPuzzles lists up to n puzzles after Seq after.
func (s *Store) MinedPuzzles(ctx context.Context, after int64, n int) ([]storage.MinedPuzzle, error) {
	out := []storage.MinedPuzzle{}
	err := s.view(ctx, "mined puzzles", func(tx *bbolt.Tx) error {
		seqs := tx.Bucket(bucketMinedSeq)
		if seqs == nil {
			return nil
		}
		c := seqs.Cursor()
		for k, id := c.Seek(intKey(after + 1)); k != nil && len(out) < n; k, id = c.Next() {
			var p storage.MinedPuzzle
			ok, err := get(tx, bucketMined, id, &p)
			if err != nil {
				return err
			}
			if ok {
				out = append(out, p)
			}
		}
		return nil
	})
	return out, err
}

// UpdateMinedPuzzle writes p if the stored version is p.Version.
func (s *Store) UpdateMinedPuzzle(ctx context.Context, p *storage.MinedPuzzle) error {
	rec := *p
	rec.Version = p.Version + 1
	err := s.update(ctx, "update mined puzzle "+p.ID, func(tx *bbolt.Tx) error {
		if tx.Bucket(bucketMined) == nil {
			return storage.ErrNotFound
		}
		var old storage.MinedPuzzle
		ok, err := get(tx, bucketMined, []byte(p.ID), &old)
		switch {
		case err != nil:
			return err
		case !ok:
			return storage.ErrNotFound
		case old.Version != p.Version:
			return fmt.Errorf("mined puzzle %s: stored version %d, written from %d: %w", p.ID, old.Version, p.Version, storage.ErrConflict)
		}
		rec.Seq = old.Seq // the order of finding is the store's
		return put(tx, bucketMined, []byte(p.ID), &rec)
	})
	if err != nil {
		return err
	}
	p.Version = rec.Version
	return nil
}

// keyTime reads a timeKey back.
func keyTime(k []byte) time.Time {
	sec := int64(binary.BigEndian.Uint64(k[:intLen]) ^ (1 << 63))
	return time.Unix(sec, int64(binary.BigEndian.Uint32(k[intLen:timeLen]))).UTC()
}
