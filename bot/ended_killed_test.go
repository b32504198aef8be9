package bot_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/render"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/storage/bolt"
)

// newEndgameRig is a group game between Alice (White) and Bob with its
// card posted, one capture from its end: White's c3:e5 takes Black's last
// piece free to move.
func newEndgameRig(t *testing.T, ctx context.Context) *eventsRig {
	t.Helper()
	r := &eventsRig{srv: telegramtest.New(t), clock: testkit.NewClock(time.Now())}
	st, err := bolt.Open(filepath.Join(t.TempDir(), "bashni.db"), r.clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	r.store = st
	r.svc = play.New(st, nil, play.DefaultConfig, r.clock.Now)
	r.group = telegramtest.GroupChat(-1005550003, "Club")
	r.alice = telegramtest.User(11, "Alice", "alice", "en")
	start := "w:c3w,d4b"
	r.gameID = "endgame"
	now := r.clock.Now()
	if err := st.CreateGame(ctx, &storage.GameRecord{
		ID: r.gameID, Variant: rules.Bashni.String(), Start: start, Position: start, Status: storage.GameActive,
		White: storage.Player{UserID: r.alice.ID, Name: "Alice"}, Black: storage.Player{UserID: 12, Name: "Bob"},
		ChatID: r.group.ID, CreatedAt: now, UpdatedAt: now,
	}); err != nil {
		t.Fatal(err)
	}
	b, out := r.live(t, ctx, "setup")
	u := r.srv.TextMessage(r.group, r.alice, "/board")
	u.UpdateID = 1
	b.Handle(ctx, u)
	settle(t, ctx, b, out)
	g, err := r.svc.Game(ctx, r.gameID)
	if err != nil || g.MessageID() == 0 {
		t.Fatalf("the card of the endgame: %v, %v; want it posted and recorded", g, err)
	}
	r.card = g.MessageID()
	return r
}

// gameOvers counts the group's "Game over" messages.
func (r *eventsRig) gameOvers() int {
	n := 0
	for _, c := range r.srv.CallsTo("sendMessage") {
		if c.ChatID() == r.group.ID && c.Status == 200 && strings.Contains(c.Text(), "Game over") {
			n++
		}
	}
	return n
}

// The process dies between the write of the capture that ends the game
// and its replies. Telegram delivers the move again: it finds the game it
// ended by its receipt (the game is in progress no more), rather than
// being told there is no game, and the end is shown once.
func TestKilledAfterTheEndingMoveRedeliveryShowsTheEnd(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := newEndgameRig(t, ctx)
	move := r.srv.TextMessage(r.group, r.alice, "/move c3:e5")
	move.UpdateID = 100
	dead := bot.New(ctx, r.svc, r.store, diesAfterTheGameWrite{}, render.New(), bot.Config{Username: "bashni_test_bot"})
	dead.Handle(ctx, move)
	dead.Wait()
	if g, err := r.svc.Game(ctx, r.gameID); err != nil || g.Active() {
		t.Fatalf("after the killed move: %v, %v; want the game ended", g, err)
	}

	b, out := r.live(t, ctx, "restarted")
	b.Handle(ctx, move)
	settle(t, ctx, b, out)
	for _, c := range r.srv.CallsTo("sendMessage") {
		if c.ChatID() == r.group.ID && c.Text() == b.Texts().T("en", "no_game_here") {
			t.Errorf("the redelivered move was told there is no game")
		}
	}
	if n := r.gameOvers(); n != 1 {
		t.Fatalf("%d game-over messages after the redelivered move, want 1; %v", n, r.srv.Calls())
	}
	if seen, err := r.store.UpdateSeen(ctx, 100); err != nil || !seen {
		t.Errorf("the move not marked after its end was shown: %v, %v", seen, err)
	}
	// The next tick past ShowAt finds it shown and says nothing more.
	r.clock.Advance(10 * time.Second)
	b.ClockTick(ctx)
	settle(t, ctx, b, out)
	if n := r.gameOvers(); n != 1 {
		t.Errorf("%d game-over messages after a later tick, want 1", n)
	}
	if g, err := r.store.Game(ctx, r.gameID); err != nil || len(g.Owed) != 0 || !g.ShowAt.IsZero() {
		t.Errorf("after the tick the game still owes %v, %v", g.Owed, err)
	}
}
