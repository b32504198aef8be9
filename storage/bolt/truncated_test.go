package bolt_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bashni/bashni/storage/bolt"
	"github.com/bashni/bashni/storage/storagetest"
)

// A file cut short (a full disk, an interrupted copy) is refused with a
// clear error at Open, not a SIGBUS later; cut at any length.
func TestTruncatedFileIsAClearError(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "bashni.db")
	s, err := bolt.Open(path, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	storagetest.Fill(t, s)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	full, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range []int{100, 4096, 8192, 12288, len(full) / 2, len(full) - 4096} {
		cut := filepath.Join(dir, "cut.db")
		if err := os.WriteFile(cut, full[:size], 0o600); err != nil {
			t.Fatal(err)
		}
		s, err := bolt.Open(cut, time.Now)
		if err == nil {
			// Only a cut within free space at the end may open; it must
			// then work.
			if perr := s.Ping(t.Context()); perr != nil {
				t.Errorf("cut to %d bytes: opened, then Ping: %v", size, perr)
			}
			s.Close()
			continue
		}
		if !strings.Contains(err.Error(), "damaged or cut short") && !strings.Contains(err.Error(), "invalid database") && !strings.Contains(err.Error(), "file size too small") {
			t.Errorf("cut to %d bytes: %v, want a clear error", size, err)
		}
	}
}
