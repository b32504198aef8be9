package tournament

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/storage/bolt"
	"github.com/bashni/bashni/storage/redis"
	"github.com/bashni/bashni/storage/redis/redistest"
)

var (
	alice = storage.Player{UserID: 1, Name: "Alice"}
	bob   = storage.Player{UserID: 2, Name: "Bob"}
	carol = storage.Player{UserID: 3, Name: "Carol"}
	dave  = storage.Player{UserID: 4, Name: "Dave"}
)

// replicaStores open each store the replica tests run on, on the clock
// they are given: bbolt, and Redis shared by replicas as in production.
var replicaStores = map[string]func(t *testing.T, now func() time.Time) play.Store{
	"bolt": func(t *testing.T, now func() time.Time) play.Store {
		st, err := bolt.Open(filepath.Join(t.TempDir(), "bashni.db"), now)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { st.Close() })
		return st
	},
	"redis": func(t *testing.T, now func() time.Time) play.Store {
		db := redistest.New(t)
		st := redis.New(db.Client(t), now, redis.WithPrefix(db.Prefix))
		t.Cleanup(func() { st.Close() })
		return st
	},
}
