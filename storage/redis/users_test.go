package redis

import (
	"testing"

	"github.com/bashni/bashni/storage/storagetest"
)

// A user stored by a version of the bot from before users had versions:
// putUser's script finds no "v" in its JSON.
func TestUnversionedUser(t *testing.T) {
	s, raw := newTestStore(t)
	storagetest.UnversionedUser(t, s, func(id int64, data []byte) {
		if err := raw.Set(t.Context(), s.userKey(id), data, 0).Err(); err != nil {
			t.Fatal(err)
		}
	})
}
