package bolt_test

import (
	"path/filepath"
	"testing"

	"github.com/bashni/bashni/storage/storagetest"
)

// Each iteration is one committed bbolt transaction, so the figure is
// dominated by fsync of the file.
func BenchmarkReadUpdate(b *testing.B) {
	storagetest.BenchReadUpdate(b, open(b, filepath.Join(b.TempDir(), "bashni.db")))
}
