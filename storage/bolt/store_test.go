package bolt_test

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/storage/bolt"
	"github.com/bashni/bashni/storage/storagetest"
)

func open(t testing.TB, path string, opts ...bolt.Option) *bolt.Store {
	t.Helper()
	return openAt(t, path, time.Now, opts...)
}

// openAt opens the store with the test's clock.
func openAt(t testing.TB, path string, now func() time.Time, opts ...bolt.Option) *bolt.Store {
	t.Helper()
	s, err := bolt.Open(path, now, opts...)
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestConformance(t *testing.T) {
	storagetest.Run(t, func(t *testing.T, now func() time.Time) storage.Store {
		return openAt(t, filepath.Join(t.TempDir(), "bashni.db"), now)
	})
}
