package bolt

import (
	"errors"
	"path/filepath"
	"testing"
	"time"

	bbolt "go.etcd.io/bbolt"

	"github.com/bashni/bashni/storage"
)

// Expired records must not only read as absent but also leave the file, or
// it grows with every challenge ever made.
func TestSweepRemovesExpired(t *testing.T) {
	now := time.Now().UTC().Round(0)
	s, err := Open(filepath.Join(t.TempDir(), "bashni.db"), func() time.Time { return now })
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	ctx := t.Context()

	for i, id := range []string{"a", "b", "c"} {
		c := &storage.Challenge{ID: id, ExpiresAt: now.Add(time.Duration(i+1) * time.Minute)}
		if err := s.PutChallenge(ctx, c); err != nil {
			t.Fatalf("PutChallenge(%s): %v", id, err)
		}
		if _, err := s.MarkUpdate(ctx, int64(i), time.Duration(i+1)*time.Minute); err != nil {
			t.Fatalf("MarkUpdate(%d): %v", i, err)
		}
	}

	now = now.Add(2*time.Minute + time.Second) // a and b (and marks 0, 1) expired
	if err := s.PutChallenge(ctx, &storage.Challenge{ID: "d"}); err != nil {
		t.Fatalf("PutChallenge(d): %v", err)
	}
	if _, err := s.MarkUpdate(ctx, 9, time.Minute); err != nil {
		t.Fatalf("MarkUpdate(9): %v", err)
	}

	tests := []struct {
		bucket []byte
		want   int
	}{
		{bucketChallenges, 2},      // c, d
		{bucketChallengeExpiry, 1}, // c (d never expires)
		{bucketUpdates, 2},         // 2, 9
		{bucketUpdateExpiry, 2},
	}
	err = s.db.View(func(tx *bbolt.Tx) error {
		for _, tc := range tests {
			if got := tx.Bucket(tc.bucket).Stats().KeyN; got != tc.want {
				t.Errorf("bucket %s after sweep: got %d keys, want %d", tc.bucket, got, tc.want)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// With WithFinishedTTL a finished game leaves the file once its time is up
// (a later game write sweeps it); an active one and, without the option,
// every game stay.
func TestFinishedGamesExpire(t *testing.T) {
	for _, keep := range []time.Duration{0, time.Hour} {
		now := time.Now().UTC().Round(0)
		s, err := Open(filepath.Join(t.TempDir(), "bashni.db"),
			func() time.Time { return now }, WithFinishedTTL(keep))
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		t.Cleanup(func() { s.Close() })
		ctx := t.Context()
		for _, id := range []string{"over", "on"} {
			g := &storage.GameRecord{ID: id, ChatID: -1, Status: storage.GameActive,
				White: storage.Player{UserID: 1}, Black: storage.Player{UserID: 2}}
			if err := s.CreateGame(ctx, g); err != nil {
				t.Fatal(err)
			}
			if id == "over" {
				g.Status, g.Result = storage.GameFinished, "1-0"
				if err := s.UpdateGame(ctx, g); err != nil {
					t.Fatal(err)
				}
			}
		}
		now = now.Add(time.Hour + time.Second)
		on, err := s.Game(ctx, "on")
		if err != nil {
			t.Fatal(err)
		}
		if err := s.UpdateGame(ctx, on); err != nil { // sweeps
			t.Fatal(err)
		}
		_, err = s.Game(ctx, "over")
		if gone := errors.Is(err, storage.ErrNotFound); gone != (keep > 0) {
			t.Errorf("keep %v: the finished game an hour later: %v", keep, err)
		}
		if _, err := s.Game(ctx, "on"); err != nil {
			t.Errorf("keep %v: the active game: %v", keep, err)
		}
	}
}
