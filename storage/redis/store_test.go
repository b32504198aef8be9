package redis_test

import (
	"testing"

	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/storage/redis"
	"github.com/bashni/bashni/storage/redis/redistest"
	"github.com/bashni/bashni/storage/storagetest"
)

// newStore returns a store on db with db's key prefix, closed at the end.
func newStore(t testing.TB, db *redistest.DB, opts ...redis.Option) *redis.Store {
	t.Helper()
	s := redis.New(db.Client(t), append([]redis.Option{redis.WithPrefix(db.Prefix)}, opts...)...)
	t.Cleanup(func() { s.Close() })
	return s
}

// One server for the whole suite; each subtest gets its own key prefix,
// which is also how tests share a REDIS_URL server.
func TestConformance(t *testing.T) {
	db := redistest.New(t)
	storagetest.Run(t, func(t *testing.T) storage.Store {
		return newStore(t, db.Fresh(t))
	})
}
