package bolt_test

import (
	"path/filepath"
	"testing"

	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/storage/bolt"
	"github.com/bashni/bashni/storage/storagetest"
)

func open(t testing.TB, path string, opts ...bolt.Option) *bolt.Store {
	t.Helper()
	s, err := bolt.Open(path, opts...)
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestConformance(t *testing.T) {
	storagetest.Run(t, func(t *testing.T) storage.Store {
		return open(t, filepath.Join(t.TempDir(), "bashni.db"))
	})
}
