package bolt

import (
	"bytes"
	"context"
	"fmt"

	bbolt "go.etcd.io/bbolt"

	"github.com/bashni/bashni/storage"
)

// sweepBatch bounds the expired entries one write removes, so that a write
// after a long idle period stays quick; the rest go with later writes.
const sweepBatch = 100

// PutChallenge stores c until c.ExpiresAt.
func (s *Store) PutChallenge(ctx context.Context, c *storage.Challenge) error {
	if c.ID == "" {
		return fmt.Errorf("storage: bolt: put challenge: empty id: %w", errInvalid)
	}
	return s.update(ctx, "put challenge "+c.ID, func(tx *bbolt.Tx) error {
		now := s.now()
		if err := sweep(tx, bucketChallengeExpiry, bucketChallenges, timeKey(now)); err != nil {
			return err
		}
		if err := deleteChallenge(tx, c.ID); err != nil {
			return err
		}
		if !c.ExpiresAt.IsZero() && !c.ExpiresAt.After(now) {
			return nil // already expired: stored and swept at once
		}
		if err := put(tx, bucketChallenges, []byte(c.ID), c); err != nil {
			return err
		}
		if c.ExpiresAt.IsZero() {
			return nil
		}
		return tx.Bucket(bucketChallengeExpiry).Put(key(timeKey(c.ExpiresAt), []byte(c.ID)), nil)
	})
}

// Challenge returns a challenge that has not expired.
func (s *Store) Challenge(ctx context.Context, id string) (*storage.Challenge, error) {
	var c *storage.Challenge
	err := s.view(ctx, "challenge "+id, func(tx *bbolt.Tx) error {
		var err error
		c, err = s.liveChallenge(tx, id)
		return err
	})
	return c, err
}

// TakeChallenge returns and deletes a challenge in one transaction; bbolt's
// single writer makes concurrent takers queue, and all but the first find
// nothing.
func (s *Store) TakeChallenge(ctx context.Context, id string) (*storage.Challenge, error) {
	var c *storage.Challenge
	err := s.update(ctx, "take challenge "+id, func(tx *bbolt.Tx) error {
		var err error
		if c, err = s.liveChallenge(tx, id); err != nil {
			return err
		}
		return deleteChallenge(tx, id)
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// DeleteChallenge removes a challenge if it is there.
func (s *Store) DeleteChallenge(ctx context.Context, id string) error {
	return s.update(ctx, "delete challenge "+id, func(tx *bbolt.Tx) error {
		return deleteChallenge(tx, id)
	})
}

// liveChallenge reads a challenge, treating an expired one as absent.
func (s *Store) liveChallenge(tx *bbolt.Tx, id string) (*storage.Challenge, error) {
	var c storage.Challenge
	ok, err := get(tx, bucketChallenges, []byte(id), &c)
	switch {
	case err != nil:
		return nil, err
	case !ok, !c.ExpiresAt.IsZero() && !c.ExpiresAt.After(s.now()):
		return nil, storage.ErrNotFound
	}
	return &c, nil
}

func deleteChallenge(tx *bbolt.Tx, id string) error {
	var old storage.Challenge
	ok, err := get(tx, bucketChallenges, []byte(id), &old)
	if err != nil || !ok {
		return err
	}
	if !old.ExpiresAt.IsZero() {
		if err := tx.Bucket(bucketChallengeExpiry).Delete(key(timeKey(old.ExpiresAt), []byte(id))); err != nil {
			return err
		}
	}
	return tx.Bucket(bucketChallenges).Delete([]byte(id))
}

// sweep deletes up to sweepBatch records whose expiry key (time | record
// key) in bucket expiry is not after end, from bucket records and expiry.
func sweep(tx *bbolt.Tx, expiry, records, end []byte) error {
	var expired [][]byte
	c := tx.Bucket(expiry).Cursor()
	for k, _ := c.First(); k != nil && len(expired) < sweepBatch && bytes.Compare(k[:timeLen], end) <= 0; k, _ = c.Next() {
		expired = append(expired, bytes.Clone(k)) // k points into the page, which the deletes change
	}
	for _, k := range expired {
		if err := tx.Bucket(records).Delete(k[timeLen:]); err != nil {
			return err
		}
		if err := tx.Bucket(expiry).Delete(k); err != nil {
			return err
		}
	}
	return nil
}
