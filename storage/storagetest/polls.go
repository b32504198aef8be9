package storagetest

import (
	"testing"

	"github.com/bashni/bashni/storage"
)

// A poll names its game until it is deleted; an unknown poll is
// ErrNotFound, and deleting one twice is not an error.
func testPolls(t *testing.T, newStore func(t *testing.T) storage.Store) {
	s := newStore(t)
	ctx := ctxFor(t)
	_, err := s.PollGame(ctx, "p1")
	checkErr(t, "unknown poll", err, storage.ErrNotFound)
	checkErr(t, "put p1", s.PutPoll(ctx, "p1", "g1"), nil)
	checkErr(t, "put p2", s.PutPoll(ctx, "p2", "g2"), nil)
	if err := s.PutPoll(ctx, "", "g1"); err == nil {
		t.Error("a poll without an id was stored")
	}
	got, err := s.PollGame(ctx, "p1")
	checkErr(t, "poll p1", err, nil)
	if got != "g1" {
		t.Errorf("poll p1 is of game %q, want g1", got)
	}
	checkErr(t, "delete p1", s.DeletePoll(ctx, "p1"), nil)
	checkErr(t, "delete p1 again", s.DeletePoll(ctx, "p1"), nil)
	_, err = s.PollGame(ctx, "p1")
	checkErr(t, "deleted poll", err, storage.ErrNotFound)
	if got, err := s.PollGame(ctx, "p2"); err != nil || got != "g2" {
		t.Errorf("poll p2: %q, %v; want g2", got, err)
	}
}
