package tournament_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/bot/telegram/outbox"
	tourbot "github.com/bashni/bashni/bot/tournament"
	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/play/tournament"
	"github.com/bashni/bashni/render"
	"github.com/bashni/bashni/storage/bolt"
)

// eventsRig is bot processes with tournaments on one bbolt store, talking
// to the fake Bot API (as bot's own tests' rig of that name).
type eventsRig struct {
	srv   *telegramtest.Server
	store *bolt.Store
	clock *testkit.Clock
	svc   *play.Service
	tours *tournament.Service
	group tgbotapi.Chat
	alice tgbotapi.User
}

// newRig opens the store and the services, on a clock from the real present.
func newRig(t *testing.T) *eventsRig {
	t.Helper()
	r := &eventsRig{srv: telegramtest.New(t), clock: testkit.NewClock(time.Now())}
	st, err := bolt.Open(filepath.Join(t.TempDir(), "bashni.db"), r.clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	r.store = st
	r.svc = play.New(st, nil, play.DefaultConfig, r.clock.Now)
	r.tours = tournament.New(r.svc, st, nil)
	return r
}

// wiredBot is a bot over out with the tournaments' module, wired as
// Main.Open wires it.
func (r *eventsRig) wiredBot(ctx context.Context, out *outbox.Outbox) *bot.Bot {
	b := bot.New(ctx, r.svc, r.store, out, render.New(), bot.Config{Username: "bashni_test_bot", DrawsAtSend: true, Door: out,
		Modules: []bot.Module{tourbot.Module(r.tours)}})
	b.OutboxHooks().Install(out)
	r.svc.OnOwed(b.ShowDetached())
	return b
}

// live is a bot process: an outbox with its journal in the store, and
// the bot.
func (r *eventsRig) live(t *testing.T, ctx context.Context, owner string) (*bot.Bot, *outbox.Outbox) {
	t.Helper()
	api, err := tgbotapi.NewBotAPIWithAPIEndpoint(r.srv.Token(), r.srv.Endpoint())
	if err != nil {
		t.Fatal(err)
	}
	out := outbox.New(api, outbox.Options{PerChat: 1000, PerGroup: 1000, Global: 1000,
		Journal: outbox.StoreJournal(r.store, owner, time.Minute, 24*time.Hour)})
	b := r.wiredBot(ctx, out)
	go out.Run(ctx)
	return b, out
}

// settle waits until what the process owes is sent: the outbox flushed
// and the bot's background work done, three times over (each may start
// the other).
func settle(t *testing.T, ctx context.Context, b *bot.Bot, out *outbox.Outbox) {
	t.Helper()
	for range 3 {
		if err := out.Flush(ctx); err != nil {
			t.Fatal(err)
		}
		b.Wait()
	}
}
