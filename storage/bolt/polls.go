package bolt

import (
	"context"
	"fmt"

	bbolt "go.etcd.io/bbolt"

	"github.com/bashni/bashni/storage"
)

// PutPoll records the game of a team-vote poll.
func (s *Store) PutPoll(ctx context.Context, pollID, gameID string) error {
	if pollID == "" || gameID == "" {
		return fmt.Errorf("storage: bolt: put poll %q of game %q: %w", pollID, gameID, errInvalid)
	}
	return s.update(ctx, "put poll "+pollID, func(tx *bbolt.Tx) error {
		return tx.Bucket(bucketPolls).Put([]byte(pollID), []byte(gameID))
	})
}

// PollGame returns the game of a team-vote poll.
func (s *Store) PollGame(ctx context.Context, pollID string) (string, error) {
	var id string
	err := s.view(ctx, "poll "+pollID, func(tx *bbolt.Tx) error {
		v := tx.Bucket(bucketPolls).Get([]byte(pollID))
		if v == nil {
			return fmt.Errorf("storage: bolt: poll %s: %w", pollID, storage.ErrNotFound)
		}
		id = string(v)
		return nil
	})
	return id, err
}

// DeletePoll forgets a team-vote poll.
func (s *Store) DeletePoll(ctx context.Context, pollID string) error {
	return s.update(ctx, "delete poll "+pollID, func(tx *bbolt.Tx) error {
		return tx.Bucket(bucketPolls).Delete([]byte(pollID))
	})
}
