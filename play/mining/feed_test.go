package mining

import (
	"context"
	"testing"

	"github.com/bashni/bashni/puzzle"
	"github.com/bashni/bashni/storage"
)

// The feed brings each puzzle found into the pool once, in the order
// found, and owes each game's notice until it is recorded as told; a
// replica started later owes only what no replica told.
func TestFeedAddsAndOwesNotices(t *testing.T) {
	st, clock := newStore(t)
	ctx := context.Background()
	shipped, err := puzzle.Shipped()
	if err != nil {
		t.Fatal(err)
	}
	add := func(id, game string, players ...int64) {
		t.Helper()
		p := &storage.MinedPuzzle{ID: id, Line: shipped[len(id)].String(), Game: game, White: "Ann", Black: "Bob", Found: clock.Now(), Players: players}
		if err := st.AddMinedPuzzle(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	var pool []string
	feed := NewFeed(st, func(fs []Found) {
		for _, f := range fs {
			pool = append(pool, f.Rec.ID)
		}
	}, nil)
	add("a", "g1", 11, 12)
	add("bb", "g1", 11, 12)
	add("ccc", "g2") // a game against the AI whose player... none here: nobody to tell
	add("dddd", "g3", 13)
	if err := feed.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if err := feed.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if got := len(pool); got != 4 {
		t.Fatalf("pool %v after two refreshes: want the 4 puzzles once", pool)
	}
	due := feed.Due(1)
	if len(due) != 1 || due[0].Game != "g1" || len(due[0].Puzzles) != 2 {
		t.Fatalf("first notice %+v: want game g1 with its 2 puzzles", due)
	}
	if due[0].Receipt() >= -(1<<62) || due[0].Receipt() != (Notice{Game: "g1", Puzzles: due[0].Puzzles}).Receipt() {
		t.Errorf("receipt %d: want one below play's, the same for the same notice", due[0].Receipt())
	}
	if err := feed.Told(ctx, due[0]); err != nil {
		t.Fatal(err)
	}
	next := feed.Due(5)
	if len(next) != 1 || next[0].Game != "g3" {
		t.Fatalf("next notices %+v: want g3's only", next)
	}
	feed.Again(next[0]) // could not be sent: due again

	// A replica started now reads every puzzle, and owes g3's only.
	var pool2 int
	fresh := NewFeed(st, func(fs []Found) { pool2 += len(fs) }, nil)
	if err := fresh.Refresh(ctx); err != nil {
		t.Fatal(err)
	}
	if got := fresh.Due(5); pool2 != 4 || len(got) != 1 || got[0].Game != "g3" {
		t.Errorf("a new replica: pool %d, due %+v; want 4 and g3's notice", pool2, got)
	}
	if again := feed.Due(5); len(again) != 1 || again[0].Game != "g3" {
		t.Errorf("a notice given back: due %+v, want g3's", again)
	}
}
