package redis_test

import (
	"testing"

	"github.com/bashni/bashni/storage/redis/redistest"
	"github.com/bashni/bashni/storage/storagetest"
)

// A move costs a read and a compare-and-set, which is four round trips to a
// loopback server: the read, the hints, the script and the hints after.
func BenchmarkReadUpdate(b *testing.B) {
	storagetest.BenchReadUpdate(b, newStore(b, redistest.New(b)))
}
