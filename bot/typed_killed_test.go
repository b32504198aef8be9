package bot_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/storage"
	"github.com/bashni/bashni/storage/bolt"
)

// killedStore is the store of a process killed after its first n writes
// (games, users, standings, update marks, the outbox's journal): every
// later write fails, as it never happens. It names the writes it let
// through, so a failure says where the kill was.
type killedStore struct {
	*bolt.Store
	mu   sync.Mutex
	n    int
	done []string
}

func (k *killedStore) write(what string) error {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.n <= 0 {
		return errors.New("killed")
	}
	k.n--
	k.done = append(k.done, what)
	return nil
}

// alive reports whether the process was never killed: its writes all done.
func (k *killedStore) alive() bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.n > 0
}

func (k *killedStore) CreateGame(ctx context.Context, g *storage.GameRecord) error {
	if err := k.write("create game"); err != nil {
		return err
	}
	return k.Store.CreateGame(ctx, g)
}

func (k *killedStore) UpdateGame(ctx context.Context, g *storage.GameRecord) error {
	if err := k.write(fmt.Sprintf("game at ply %d", len(g.Moves))); err != nil {
		return err
	}
	return k.Store.UpdateGame(ctx, g)
}

func (k *killedStore) PutUser(ctx context.Context, u *storage.User) error {
	if err := k.write("user"); err != nil {
		return err
	}
	return k.Store.PutUser(ctx, u)
}

func (k *killedStore) SetStanding(ctx context.Context, scope int64, st *storage.Standing) error {
	if err := k.write("standing"); err != nil {
		return err
	}
	return k.Store.SetStanding(ctx, scope, st)
}

func (k *killedStore) MarkUpdate(ctx context.Context, id int64, ttl time.Duration) (bool, error) {
	if err := k.write("update mark"); err != nil {
		return false, err
	}
	return k.Store.MarkUpdate(ctx, id, ttl)
}

func (k *killedStore) MarkUpdateOwing(ctx context.Context, id int64, ttl time.Duration, owner string, lease time.Duration, owed [][]byte) (bool, []string, error) {
	if err := k.write(fmt.Sprintf("update mark with %d replies", len(owed))); err != nil {
		return false, nil, err
	}
	return k.Store.MarkUpdateOwing(ctx, id, ttl, owner, lease, owed)
}

func (k *killedStore) AppendOutbox(ctx context.Context, owner string, lease time.Duration, owed [][]byte) ([]string, error) {
	if err := k.write("journal append"); err != nil {
		return nil, err
	}
	return k.Store.AppendOutbox(ctx, owner, lease, owed)
}

func (k *killedStore) AckOutbox(ctx context.Context, owner string, ids []string) error {
	if err := k.write("journal ack"); err != nil {
		return err
	}
	return k.Store.AckOutbox(ctx, owner, ids)
}

// typedRig is Alice's private chat with two games against the AI on
// bbolt, with a clock the test moves: an older one in progress and a new
// one at level 18 whose card she replies to with a move.
type typedRig struct {
	srv     *telegramtest.Server
	store   *bolt.Store
	clock   *testkit.Clock
	alice   tgbotapi.User
	chat    tgbotapi.Chat
	newGame string
	newCard int
	// aiDone hears each AI move a running process made or had refused:
	// the AI thinks in real time while the test moves the clock, so the
	// test waits for it before moving the clock past the AI's claim.
	aiDone chan struct{}
}

// process is one bot process on st: a service with the AI, an outbox
// with its journal under owner (running if run), the bot, and, if run,
// the AI's runner. It lives until ctx ends.
func (r *typedRig) process(t *testing.T, ctx context.Context, st any, owner string, run bool) (*bot.Bot, *play.Service, *outbox.Outbox) {
	t.Helper()
	ps := st.(play.Store)
	svc := play.New(ps, play.NewEnginePool(1, 1, ai.Limits{Nodes: 2000}), play.DefaultConfig, r.clock.Now)
	api, err := tgbotapi.NewBotAPIWithAPIEndpoint(r.srv.Token(), r.srv.Endpoint())
	if err != nil {
		t.Fatal(err)
	}
	out := outbox.New(api, outbox.Options{PerChat: 1000, PerGroup: 1000, Global: 1000,
		Journal: outbox.StoreJournal(st.(storage.Outbox), owner, time.Minute, 24*time.Hour)})
	b := wiredBot(ctx, svc, st.(bot.UpdateMarks), out, bot.Config{Username: "bashni_test_bot"})
	if run {
		go out.Run(ctx)
		hooks := b.AIHooks()
		moved, failed := hooks.Moved, hooks.Failed
		heard := func() {
			select {
			case r.aiDone <- struct{}{}:
			default: // nobody waits for that many: never hold the runner
			}
		}
		hooks.Moved = func(ctx context.Context, out *play.Outcome) { moved(ctx, out); heard() }
		hooks.Failed = func(ctx context.Context, err error) { failed(ctx, err); heard() }
		go svc.RunAI(ctx, 1, hooks)
	}
	return b, svc, out
}

func newTypedRig(t *testing.T, ctx context.Context) *typedRig {
	t.Helper()
	r := &typedRig{srv: telegramtest.New(t), clock: testkit.NewClock(time.Now()), aiDone: make(chan struct{}, 64)}
	st, err := bolt.Open(filepath.Join(t.TempDir(), "bashni.db"), r.clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	r.store = st
	r.alice = telegramtest.User(21, "Alice", "alice", "en")
	r.chat = telegramtest.PrivateChat(r.alice)
	pctx, stop := context.WithCancel(ctx)
	defer stop()
	b, svc, out := r.process(t, pctx, st, "setup", true)
	say := func(id int, text string) {
		u := r.srv.TextMessage(r.chat, r.alice, text)
		u.UpdateID = id
		b.Handle(pctx, u)
		settle(t, pctx, b, out)
	}
	// The older game: Alice has moved and the AI has answered.
	say(1, "/play 1 white")
	games, err := svc.ActiveGames(pctx, 0, r.chat.ID)
	if err != nil || len(games) != 1 {
		t.Fatalf("the first game: %v, %v", games, err)
	}
	old, oldCard := games[0].ID(), games[0].MessageID()
	say(2, "/move c3-d4")
	if !r.srv.WaitUntil(10*time.Second, func() bool { return r.answeredOn(oldCard) }) {
		t.Fatalf("the first game's AI never answered; calls %v", r.srv.Calls())
	}
	settle(t, pctx, b, out)
	// The new game, its card posted and recorded.
	say(3, "/play 18 white")
	games, err = svc.ActiveGames(pctx, 0, r.chat.ID)
	if err != nil || len(games) != 2 {
		t.Fatalf("the games in the chat: %v, %v; want two", games, err)
	}
	for _, g := range games {
		if g.ID() != old {
			r.newGame, r.newCard = g.ID(), g.MessageID()
		}
	}
	if r.newCard == 0 {
		t.Fatal("the new game's card was not recorded")
	}
	return r
}

// move is Alice's c3-d4 typed as a reply to the new game's card.
func (r *typedRig) move() tgbotapi.Update {
	u := r.srv.ReplyMessage(r.chat, r.alice, r.newCard, "c3-d4")
	u.UpdateID = 100
	return u
}

// tickUntil ticks the restarted process b, moving the clock 5 s at a
// time, until done or 30 ticks. When the game's claim on the AI's move
// changes from claim, this process has claimed it, and the clock waits
// for the AI's answer: moved on past the claim while the AI still thinks
// in real time, the claim would be taken again before every answer.
func (r *typedRig) tickUntil(t *testing.T, ctx context.Context, b *bot.Bot, out *outbox.Outbox, claim time.Time, done func() bool) {
	t.Helper()
	for range 30 {
		b.ClockTick(ctx)
		settle(t, ctx, b, out)
		if at := r.aiClaim(t, ctx); !at.Equal(claim) && !done() {
			claim = at
			select {
			case <-r.aiDone:
				settle(t, ctx, b, out)
			case <-ctx.Done():
			}
		}
		if done() {
			return
		}
		r.clock.Advance(5 * time.Second)
	}
}

// aiClaim is the new game's claim on the AI's move (zero when none).
func (r *typedRig) aiClaim(t *testing.T, ctx context.Context) time.Time {
	t.Helper()
	g, err := r.store.Game(ctx, r.newGame)
	if err != nil {
		t.Fatal(err)
	}
	return g.AIAt
}

// answered reports whether the new game's card shows the AI's answer:
// an edit of it, taken by Telegram, with White to move again.
func (r *typedRig) answered() bool { return r.answeredOn(r.newCard) }

func (r *typedRig) answeredOn(card int) bool {
	m, ok := r.srv.Message(r.chat.ID, card)
	return ok && strings.Contains(m.Text, "White to move") && strings.Contains(m.Text, "Last:")
}

// A private game against the AI (level 18) in a chat that holds another
// game in progress: Alice types c3-d4 as a reply to the new game's card,
// and the process is killed at each write of its handling in turn (the
// move, the update's mark with its replies, what follows). The next
// process on the same file, with Telegram delivering the update again if
// it was never marked, makes the AI's answer and the card shows it.
func TestKilledAtEveryWriteOfATypedMoveTheCardShowsTheAIsAnswer(t *testing.T) {
	for n := 0; ; n++ {
		done := false
		t.Run(fmt.Sprintf("after %d writes", n), func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			r := newTypedRig(t, ctx)

			// The killed process: it handles the update, its outbox and
			// its AI never run (a crash before they got to it).
			ks := &killedStore{Store: r.store, n: n}
			dctx, kill := context.WithCancel(ctx)
			dead, _, _ := r.process(t, dctx, ks, "dead", false)
			dead.Handle(dctx, r.move())
			dead.Wait()
			kill()
			done = ks.alive()
			t.Logf("writes before the kill: %q", ks.done)

			// The next process, at once: Telegram delivers the update
			// again if it was never marked; the leases the dead one held
			// (the AI's claim, its journal, its showing of the change) run
			// out as the clock moves.
			b, _, out := r.process(t, ctx, r.store, "restarted", true)
			for len(r.aiDone) > 0 {
				<-r.aiDone // the setup's moves
			}
			claim := r.aiClaim(t, ctx)
			if seen, err := r.store.UpdateSeen(ctx, 100); err == nil && !seen {
				b.Handle(ctx, r.move()) // Telegram delivers it again
			}
			r.tickUntil(t, ctx, b, out, claim, r.answered)
			if !r.answered() {
				m, _ := r.srv.Message(r.chat.ID, r.newCard)
				g, err := r.store.Game(ctx, r.newGame)
				t.Fatalf("the card says %q; the game %+v (%v); want the AI's answer shown; calls %v", m.Text, g, err, r.srv.Calls())
			}
		})
		if done || n > 12 {
			return
		}
	}
}
