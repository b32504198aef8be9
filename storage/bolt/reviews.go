package bolt

import (
	"context"
	"encoding/json"

	"go.etcd.io/bbolt"

	"github.com/bashni/bashni/storage"
)

var _ storage.ReviewQueue = (*Store)(nil)

// The review queue is one bucket keyed by the bucket's sequence at
// admission, so a cursor walks it in order (times may tie, or go back). It
// is short (bounded by EnqueueReview's max), so finding a game or counting
// a user's tickets walks it whole.

// EnqueueReview implements storage.ReviewQueue.
func (s *Store) EnqueueReview(ctx context.Context, t storage.ReviewTicket, max, perUser int) (int, error) {
	if t.GameID == "" {
		return 0, wrap("enqueue review", errInvalid)
	}
	place := 0
	err := s.update(ctx, "enqueue review", func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketReviews)
		n, mine := 0, 0
		c := b.Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			n++
			var q storage.ReviewTicket
			if err := json.Unmarshal(v, &q); err != nil {
				return err
			}
			if q.GameID == t.GameID {
				place = n
				return nil
			}
			if q.UserID == t.UserID {
				mine++
			}
		}
		switch {
		case n >= max:
			return storage.ErrQueueFull
		case mine >= perUser:
			return storage.ErrUserQueueFull
		}
		data, err := json.Marshal(t)
		if err != nil {
			return err
		}
		seq, err := b.NextSequence()
		if err != nil {
			return err
		}
		if err := b.Put(intKey(int64(seq)), data); err != nil {
			return err
		}
		place = n + 1 // the last
		return nil
	})
	return place, err
}

// ReviewPlace implements storage.ReviewQueue.
func (s *Store) ReviewPlace(ctx context.Context, id string) (int, error) {
	place := 0
	err := s.view(ctx, "review place", func(tx *bbolt.Tx) error {
		n := 0
		c := tx.Bucket(bucketReviews).Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			n++
			var q storage.ReviewTicket
			if err := json.Unmarshal(v, &q); err != nil {
				return err
			}
			if q.GameID == id {
				place = n
				return nil
			}
		}
		return nil
	})
	return place, err
}

// ReviewQueue implements storage.ReviewQueue.
func (s *Store) ReviewQueue(ctx context.Context, n int) ([]storage.ReviewTicket, error) {
	out := []storage.ReviewTicket{}
	err := s.view(ctx, "review queue", func(tx *bbolt.Tx) error {
		c := tx.Bucket(bucketReviews).Cursor()
		for k, v := c.First(); k != nil && len(out) < n; k, v = c.Next() {
			var q storage.ReviewTicket
			if err := json.Unmarshal(v, &q); err != nil {
				return err
			}
			out = append(out, q)
		}
		return nil
	})
	return out, err
}

// FinishReview implements storage.ReviewQueue.
func (s *Store) FinishReview(ctx context.Context, id string) error {
	return s.update(ctx, "finish review", func(tx *bbolt.Tx) error {
		b := tx.Bucket(bucketReviews)
		c := b.Cursor()
		for k, v := c.First(); k != nil; k, v = c.Next() {
			var q storage.ReviewTicket
			if err := json.Unmarshal(v, &q); err != nil {
				return err
			}
			if q.GameID == id {
				return c.Delete()
			}
		}
		return nil
	})
}
