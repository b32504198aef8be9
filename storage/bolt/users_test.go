package bolt

import (
	"path/filepath"
	"testing"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/bashni/bashni/storage/storagetest"
)

// openTemp opens a store in a new file of the test's, closed after it.
func openTemp(t *testing.T) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "bashni.db"), time.Now)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// A user stored by a version of the bot from before users had versions.
func TestUnversionedUser(t *testing.T) {
	s := openTemp(t)
	storagetest.UnversionedUser(t, s, func(id int64, data []byte) {
		err := s.db.Update(func(tx *bbolt.Tx) error { return tx.Bucket(bucketUsers).Put(intKey(id), data) })
		if err != nil {
			t.Fatal(err)
		}
	})
}
