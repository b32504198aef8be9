package redis_test

import (
	"testing"
	"time"

	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/storage/redis"
	"github.com/bashni/bashni/storage/redis/redistest"
	"github.com/bashni/bashni/storage/storagetest"
)

// newStore returns a store on db with db's key prefix, closed at the end.
func newStore(t testing.TB, db *redistest.DB, opts ...redis.Option) *redis.Store {
	t.Helper()
	return newStoreAt(t, db, time.Now, opts...)
}

// newStoreAt is newStore with the test's clock.
func newStoreAt(t testing.TB, db *redistest.DB, now func() time.Time, opts ...redis.Option) *redis.Store {
	t.Helper()
	s := redis.New(db.Client(t), now, append([]redis.Option{redis.WithPrefix(db.Prefix)}, opts...)...)
	t.Cleanup(func() { s.Close() })
	return s
}

// One server for the whole suite; each subtest gets its own key prefix,
// which is also how tests share a REDIS_URL server.
func TestConformance(t *testing.T) {
	db := redistest.New(t)
	storagetest.Run(t, func(t *testing.T, now func() time.Time) storage.Store {
		return newStoreAt(t, db.Fresh(t), now)
	})
}
