package redis

import (
	"context"
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
	s := New(db.Client(t), time.Now, WithPrefix(db.Prefix))
	return s, raw
}

func active(id string, chat, white, black int64) *storage.GameRecord {
	return &storage.GameRecord{
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

// countCommands counts the commands a client sends, pipelines included.
type countCommands struct{ n int }

func (c *countCommands) DialHook(next goredis.DialHook) goredis.DialHook { return next }

func (c *countCommands) ProcessHook(next goredis.ProcessHook) goredis.ProcessHook {
	return func(ctx context.Context, cmd goredis.Cmder) error {
		c.n++
		return next(ctx, cmd)
	}
}

func (c *countCommands) ProcessPipelineHook(next goredis.ProcessPipelineHook) goredis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []goredis.Cmder) error {
		c.n += len(cmds)
		return next(ctx, cmds)
	}
}

// A move keeps the game's chat and people and moves its deadline later:
// the entries in place already satisfy the index rules, so the write is one
// script call. An earlier deadline, another chat or a game written before
// the store kept 'h' and 'dl' gets its hints first, and they are right.
func TestUpdateAddsHintsOnlyWhenNeeded(t *testing.T) {
	db := redistest.New(t)
	raw := db.Client(t)
	client := db.Client(t)
	count := &countCommands{}
	client.AddHook(count)
	s := New(client, time.Now, WithPrefix(db.Prefix))
	ctx := t.Context()
	now := time.Now().Truncate(time.Millisecond)

	g := active("g", 1, 2, 3)
	g.RemindAt = now.Add(time.Hour)
	if err := s.CreateGame(ctx, g); err != nil {
		t.Fatal(err)
	}
	update := func(what string, change func(g *storage.GameRecord)) int {
		t.Helper()
		change(g)
		count.n = 0
		if err := s.UpdateGame(ctx, g); err != nil {
			t.Fatalf("%s: %v", what, err)
		}
		return count.n
	}
	deadline := func() float64 {
		t.Helper()
		v, ok := score(t, raw, s.deadlinesKey(), "g")
		if !ok {
			t.Fatal("no deadline entry")
		}
		return v
	}

	// The first call of a script on a server is EVALSHA, then EVAL.
	update("load the script", func(g *storage.GameRecord) {})
	if n := update("later deadline", func(g *storage.GameRecord) { g.RemindAt = now.Add(2 * time.Hour) }); n != 1 {
		t.Errorf("a later deadline took %d commands, want 1 (the script)", n)
	}
	if got := deadline(); got != ms(now.Add(time.Hour)) {
		t.Errorf("deadline entry %v, want the earlier %v kept (never later than the game's)", got, ms(now.Add(time.Hour)))
	}
	if n := update("no deadline", func(g *storage.GameRecord) { g.RemindAt = time.Time{} }); n != 1 {
		t.Errorf("dropping the deadline took %d commands, want 1", n)
	}
	if n := update("deadline again", func(g *storage.GameRecord) { g.RemindAt = now.Add(3 * time.Hour) }); n == 1 {
		t.Error("a deadline after none was written without hints")
	}
	if n := update("earlier deadline", func(g *storage.GameRecord) { g.RemindAt = now.Add(30 * time.Minute) }); n == 1 {
		t.Error("an earlier deadline was written without hints")
	}
	if got := deadline(); got != ms(now.Add(30*time.Minute)) {
		t.Errorf("deadline entry %v, want lowered to %v", got, ms(now.Add(30*time.Minute)))
	}
	update("another chat", func(g *storage.GameRecord) { g.ChatID = 7 })
	if _, ok := score(t, raw, s.chatGamesKey(7), "g"); !ok {
		t.Error("a game moved to chat 7 is not in its index")
	}

	// A game written before the store kept 'h' and 'dl'.
	raw.HDel(ctx, s.gameKey("g"), "h", "dl")
	raw.Del(ctx, s.userGamesKey(2))
	update("old record", func(g *storage.GameRecord) { g.RemindAt = now.Add(4 * time.Hour) })
	if _, ok := score(t, raw, s.userGamesKey(2), "g"); !ok {
		t.Error("the update of an old record did not add its hints")
	}
	if n := update("after the old record", func(g *storage.GameRecord) { g.RemindAt = now.Add(5 * time.Hour) }); n != 1 {
		t.Errorf("the next update took %d commands, want 1", n)
	}
}

// With WithFinishedTTL a game gets its lifetime when it finishes, and not
// before; without it, it stays.
func TestFinishedGamesExpire(t *testing.T) {
	db := redistest.New(t)
	raw := db.Client(t)
	ctx := t.Context()
	for _, keep := range []time.Duration{0, time.Hour} {
		s := New(db.Client(t), time.Now, WithPrefix(db.Prefix), WithFinishedTTL(keep))
		id := "keep-" + keep.String()
		g := active(id, 1, 2, 3)
		if err := s.CreateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		if ttl := raw.PTTL(ctx, s.gameKey(id)).Val(); ttl >= 0 {
			t.Errorf("keep %v: an active game expires in %v", keep, ttl)
		}
		g.Status, g.Result = storage.GameFinished, "1-0"
		if err := s.UpdateGame(ctx, g); err != nil {
			t.Fatal(err)
		}
		ttl := raw.PTTL(ctx, s.gameKey(id)).Val()
		switch {
		case keep == 0 && ttl >= 0:
			t.Errorf("kept for ever, yet the finished game expires in %v", ttl)
		case keep > 0 && (ttl <= keep-time.Minute || ttl > keep):
			t.Errorf("keep %v: the finished game expires in %v", keep, ttl)
		}
		if _, err := s.Game(ctx, id); err != nil {
			t.Errorf("keep %v: the finished game cannot be read: %v", keep, err)
		}
	}
}
