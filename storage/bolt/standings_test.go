package bolt

import (
	"testing"

	bbolt "go.etcd.io/bbolt"

	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/storage/storagetest"
)

// A leaderboard line stored by a version of the bot from before lines had
// versions.
func TestUnversionedStanding(t *testing.T) {
	s := openTemp(t)
	storagetest.UnversionedStanding(t, s, func(scope int64, line storage.Standing, data []byte) {
		err := s.db.Update(func(tx *bbolt.Tx) error {
			if err := tx.Bucket(bucketRanks).Put(rankEntry(scope, line), nil); err != nil {
				return err
			}
			return tx.Bucket(bucketStandings).Put(key(intKey(scope), intKey(line.UserID)), data)
		})
		if err != nil {
			t.Fatal(err)
		}
	})
}
