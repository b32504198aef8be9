package redis

import (
	"testing"

	goredis "github.com/redis/go-redis/v9"

	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/storage/storagetest"
)

// A leaderboard line stored by a version of the bot from before lines had
// versions: setStanding's script finds no "v" in its JSON.
func TestUnversionedStanding(t *testing.T) {
	s, raw := newTestStore(t)
	storagetest.UnversionedStanding(t, s, func(scope int64, line storage.Standing, data []byte) {
		ctx := t.Context()
		m := member(line.UserID)
		if err := raw.ZAdd(ctx, s.rankKey(scope), goredis.Z{Score: -line.Rating, Member: m}).Err(); err != nil {
			t.Fatal(err)
		}
		if err := raw.HSet(ctx, s.linesKey(scope), m, data).Err(); err != nil {
			t.Fatal(err)
		}
	})
}
