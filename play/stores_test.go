package play

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/bashni/bashni/storage/bolt"
	"github.com/bashni/bashni/storage/redis"
	"github.com/bashni/bashni/storage/redis/redistest"
)

// replicaStores open each store the replica and clock tests run on, on the
// clock they are given: bbolt, and Redis shared by replicas as in
// production.
var replicaStores = map[string]func(t *testing.T, now func() time.Time) Store{
	"bolt": func(t *testing.T, now func() time.Time) Store {
		st, err := bolt.Open(filepath.Join(t.TempDir(), "bashni.db"), now)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	},
	"redis": func(t *testing.T, now func() time.Time) Store {
		db := redistest.New(t)
		st := redis.New(db.Client(t), now, redis.WithPrefix(db.Prefix))
		t.Cleanup(func() { st.Close() })
		return st
	},
}
