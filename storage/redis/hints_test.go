package redis

import (
	"slices"
	"testing"
	"time"

	goredis "github.com/redis/go-redis/v9"

	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/storage/redis/redistest"
)

// These tests put the indexes into the states a crash between a hint write
// and a game write leaves behind, and check that readers see through them
// and repair them.

func newTestStore(t *testing.T) (*Store, *goredis.Client) {
	t.Helper()
	db := redistest.New(t)
	raw := db.Client(t)
	s := New(db.Client(t), WithPrefix(db.Prefix))
	return s, raw
}

func active(id string, chat, white, black int64) *storage.Game {
	return &storage.Game{
		ID: id, ChatID: chat, Status: storage.GameActive,
		White: storage.Player{UserID: white}, Black: storage.Player{UserID: black},
	}
}

func score(t *testing.T, raw *goredis.Client, key, member string) (float64, bool) {
	t.Helper()
	v, err := raw.ZScore(t.Context(), key, member).Result()
	if err == goredis.Nil {
		return 0, false
	}
	if err != nil {
		t.Fatalf("ZSCORE %s %s: %v", key, member, err)
	}
	return v, true
}

func TestHintsOfMissingGames(t *testing.T) {
	s, raw := newTestStore(t)
	ctx := t.Context()
	now := time.Now()
	// "recent" as a create in flight leaves it, "old" as a create that died.
	raw.ZAdd(ctx, s.chatGamesKey(1), goredis.Z{Score: ms(now), Member: "recent"})
	raw.ZAdd(ctx, s.userGamesKey(2), goredis.Z{Score: ms(now), Member: "recent"})
	raw.ZAdd(ctx, s.deadlinesKey(),
		goredis.Z{Score: ms(now.Add(-10 * time.Second)), Member: "recent"},
		goredis.Z{Score: ms(now.Add(-2 * missingGrace)), Member: "old"})

	if ids, err := s.ActiveGamesByChat(ctx, 1); err != nil || len(ids) != 0 {
		t.Errorf("ActiveGamesByChat: got %q, %v; want none", ids, err)
	}
	if ids, err := s.ActiveGamesByUser(ctx, 2); err != nil || len(ids) != 0 {
		t.Errorf("ActiveGamesByUser: got %q, %v; want none", ids, err)
	}
	if ids, err := s.DueGames(ctx, now, 10); err != nil || len(ids) != 0 {
		t.Errorf("DueGames: got %q, %v; want none", ids, err)
	}
	tests := []struct {
		key, member string
		wantKept    bool
	}{
		{s.chatGamesKey(1), "recent", true},
		{s.deadlinesKey(), "recent", true},
		{s.deadlinesKey(), "old", false},
	}
	for _, tc := range tests {
		if _, kept := score(t, raw, tc.key, tc.member); kept != tc.wantKept {
			t.Errorf("hint %s in %s: got kept=%v, want %v", tc.member, tc.key, kept, tc.wantKept)
		}
	}
}

func TestHintsOfFinishedGames(t *testing.T) {
	s, raw := newTestStore(t)
	ctx := t.Context()
	g := active("g", 1, 2, 3)
	if err := s.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	g.Status = storage.GameFinished
	if err := s.UpdateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	// As if the process died after the script, before removing the hints.
	now := time.Now()
	raw.ZAdd(ctx, s.chatGamesKey(1), goredis.Z{Score: 0, Member: "g"})
	raw.ZAdd(ctx, s.userGamesKey(3), goredis.Z{Score: 0, Member: "g"})
	raw.ZAdd(ctx, s.deadlinesKey(), goredis.Z{Score: ms(now), Member: "g"})

	for _, list := range []func() ([]string, error){
		func() ([]string, error) { return s.ActiveGamesByChat(ctx, 1) },
		func() ([]string, error) { return s.ActiveGamesByUser(ctx, 3) },
		func() ([]string, error) { return s.DueGames(ctx, now, 10) },
	} {
		if ids, err := list(); err != nil || len(ids) != 0 {
			t.Errorf("got %q, %v; want none", ids, err)
		}
	}
	for _, key := range []string{s.chatGamesKey(1), s.userGamesKey(3), s.deadlinesKey()} {
		if _, kept := score(t, raw, key, "g"); kept {
			t.Errorf("hint of the finished game in %s: still there after a read", key)
		}
	}
}

func TestEarlyDeadlineHintMoves(t *testing.T) {
	s, raw := newTestStore(t)
	ctx := t.Context()
	now := time.Now()
	g := active("g", 1, 2, 3)
	g.RemindAt = now.Add(time.Hour)
	if err := s.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	raw.ZAdd(ctx, s.deadlinesKey(), goredis.Z{Score: ms(now.Add(-time.Minute)), Member: "g"})

	if ids, err := s.DueGames(ctx, now, 10); err != nil || len(ids) != 0 {
		t.Errorf("DueGames: got %q, %v; want none", ids, err)
	}
	if got, _ := score(t, raw, s.deadlinesKey(), "g"); got != ms(g.RemindAt) {
		t.Errorf("deadline hint after DueGames: got %v, want %v (the game's RemindAt)", got, ms(g.RemindAt))
	}

	// A repair based on a score someone has since changed must not apply.
	if s.repairDeadline(ctx, "g", ms(now), "") {
		t.Error("repairDeadline with a stale seen score: applied, want refused")
	}
	if _, kept := score(t, raw, s.deadlinesKey(), "g"); !kept {
		t.Error("repairDeadline with a stale seen score removed the hint")
	}
}

func TestReindex(t *testing.T) {
	s, raw := newTestStore(t)
	ctx := t.Context()
	now := time.Now()
	var ids []string
	for i, id := range []string{"a", "b", "c", "done"} {
		g := active(id, 1, 2, 3)
		g.CreatedAt = now.Add(time.Duration(i) * time.Second)
		g.TimeoutAt = now.Add(-time.Duration(10-i) * time.Minute)
		if err := s.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		if id == "done" {
			g.Status = storage.GameFinished
			if err := s.UpdateGame(ctx, g); err != nil {
				t.Fatal(err)
			}
			continue
		}
		ids = append(ids, id)
	}
	// Lose every index, as if each hint write had died.
	if err := raw.Del(ctx, s.chatGamesKey(1), s.userGamesKey(2), s.userGamesKey(3), s.deadlinesKey()).Err(); err != nil {
		t.Fatal(err)
	}
	if err := s.Reindex(ctx); err != nil {
		t.Fatalf("Reindex: %v", err)
	}
	lists := []struct {
		name string
		list func() ([]string, error)
	}{
		{"chat", func() ([]string, error) { return s.ActiveGamesByChat(ctx, 1) }},
		{"white", func() ([]string, error) { return s.ActiveGamesByUser(ctx, 2) }},
		{"black", func() ([]string, error) { return s.ActiveGamesByUser(ctx, 3) }},
		{"due", func() ([]string, error) { return s.DueGames(ctx, now, 10) }},
	}
	for _, l := range lists {
		got, err := l.list()
		if err != nil || !slices.Equal(got, ids) {
			t.Errorf("%s after Reindex: got %q, %v; want %q", l.name, got, err, ids)
		}
	}
}
