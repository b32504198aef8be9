package bot_test

import (
	"context"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/storage/bolt"
)

// gatedStore is a killedStore whose write of a game's first card (the
// record naming a message where the store named none), once armed, waits
// at the gate until the kill and then fails: the process dies between
// Telegram taking the card and the card's record.
type gatedStore struct {
	*killedStore
	armed   atomic.Bool
	reached chan struct{}
	kill    chan struct{}
}

func (g *gatedStore) UpdateGame(ctx context.Context, rec *storage.GameRecord) error {
	if !g.armed.Load() {
		return g.killedStore.UpdateGame(ctx, rec)
	}
	if cur, err := g.Store.Game(ctx, rec.ID); err == nil && cur.MessageID == 0 && rec.MessageID != 0 {
		close(g.reached)
		<-g.kill
		return g.write("the card's record")
	}
	return g.killedStore.UpdateGame(ctx, rec)
}

// The window issue 38 point 5 suspected: Alice replies c3-d4 to the new
// game's card after Telegram took it and before the card's message id is
// stored (her other game waits for the AI, so the reply finds this game as
// the only one where it is her move), the move is stored, and the process
// dies before the card's record. The next process sends the card again
// (the journal kept it), records that one, and the game's card shows the
// AI's answer.
func TestKilledBeforeTheCardsRecordATypedReplyStillSeesTheAIsAnswer(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := &typedRig{srv: telegramtest.New(t), clock: testkit.NewClock(time.Now()), aiDone: make(chan struct{}, 64)}
	path := filepath.Join(t.TempDir(), "bashni.db")
	st, err := bolt.Open(path, r.clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	r.alice = telegramtest.User(21, "Alice", "alice", "en")
	r.chat = telegramtest.PrivateChat(r.alice)

	// The dying process: its outbox runs, its AI does not (the older
	// game's answer is owed and waits).
	ks := &killedStore{Store: st, n: 1 << 20}
	gs := &gatedStore{killedStore: ks, reached: make(chan struct{}), kill: make(chan struct{})}
	dctx, die := context.WithCancel(ctx)
	dead, svc, out := r.process(t, dctx, gs, "dead", false)
	outDone := make(chan struct{})
	go func() { defer close(outDone); out.Run(dctx) }()
	say := func(id int, text string, replyTo int) {
		u := r.srv.TextMessage(r.chat, r.alice, text)
		if replyTo != 0 {
			u = r.srv.ReplyMessage(r.chat, r.alice, replyTo, text)
		}
		u.UpdateID = id
		dead.Handle(dctx, u)
	}
	say(1, "/play 1 white", 0)
	settle(t, dctx, dead, out)
	say(2, "/move c3-d4", 0) // the AI's answer stays owed: no runner here
	settle(t, dctx, dead, out)
	games, err := svc.ActiveGames(dctx, 0, r.chat.ID)
	if err != nil || len(games) != 1 || !games[0].IsAITurn() {
		t.Fatalf("the older game: %v, %v; want one, the AI to move", games, err)
	}
	old := games[0].ID()

	gs.armed.Store(true)
	say(3, "/play 18 white", 0)
	<-gs.reached // Telegram took the card; its record waits
	for _, m := range r.srv.Messages(r.chat.ID) {
		if m.Kind == "photo" && m.ID != games[0].MessageID() {
			r.newCard = m.ID
		}
	}
	if r.newCard == 0 {
		t.Fatal("the new card was not sent")
	}
	say(100, "c3-d4", r.newCard)
	games, err = svc.ActiveGames(dctx, 0, r.chat.ID)
	for _, g := range games {
		if g.ID() != old {
			r.newGame = g.ID()
			if g.Ply() != 1 || g.MessageID() != 0 {
				t.Fatalf("the new game at ply %d, card %d; want the move stored before the card", g.Ply(), g.MessageID())
			}
		}
	}
	if err != nil || r.newGame == "" {
		t.Fatalf("the games: %v, %v", games, err)
	}
	// SIGKILL: nothing more is written, nothing more reaches Telegram.
	ks.mu.Lock()
	ks.n = 0
	ks.mu.Unlock()
	deaf := r.srv.FailWhen(func(telegramtest.Call) bool { return true }, telegramtest.BadRequest("the process is dead"))
	close(gs.kill)
	die()
	<-outDone
	dead.Wait()
	deaf()
	st.Close()

	// The next process, on the same file.
	if r.store, err = bolt.Open(path, r.clock.Now); err != nil {
		t.Fatal(err)
	}
	defer r.store.Close()
	b, _, out2 := r.process(t, ctx, r.store, "restarted", true)
	answered := func() bool {
		g, err := r.store.Game(ctx, r.newGame)
		return err == nil && len(g.Moves) == 2 && r.answeredOn(g.MessageID)
	}
	for len(r.aiDone) > 0 {
		<-r.aiDone // the older game's moves
	}
	r.tickUntil(t, ctx, b, out2, r.aiClaim(t, ctx), answered)
	g, err := r.store.Game(ctx, r.newGame)
	if !answered() {
		m, _ := r.srv.Message(r.chat.ID, g.MessageID)
		t.Fatalf("the card %d says %q; the game %+v (%v); want the AI's answer shown; calls %v", g.MessageID, m.Text, g, err, r.srv.Calls())
	}
	t.Logf("the card replied to: %d; the game's card now: %d", r.newCard, g.MessageID)
}
