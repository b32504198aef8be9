package bot_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/bot/assist"
	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/bot/telegram/updates"
	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/rules"
	"github.com/bashni/bashni/storage/redis"
	"github.com/bashni/bashni/storage/redis/redistest"
)

// searchCounter is the engine of both replicas: it counts the searches
// begun and the most ever under way at once. While gate is open (not
// nil), a search waits for it to close.
type searchCounter struct {
	calls, running, most atomic.Int32
	started              chan struct{} // one send per search begun
	gate                 atomic.Pointer[chan struct{}]
}

func (th *searchCounter) Think(ctx context.Context, g *rules.Game, _ int) (rules.Move, error) {
	th.calls.Add(1)
	now := th.running.Add(1)
	defer th.running.Add(-1)
	for {
		m := th.most.Load()
		if now <= m || th.most.CompareAndSwap(m, now) {
			break
		}
	}
	select {
	case th.started <- struct{}{}:
	default:
	}
	if gate := th.gate.Load(); gate != nil {
		select {
		case <-*gate:
		case <-ctx.Done():
			return rules.Move{}, ctx.Err()
		}
	}
	return g.Legal()[0], nil
}

// Thirty /hint at once, delivered to two bot replicas on one Redis through
// their real webhooks (as Telegram posts them) and answered through the
// fake Bot API: one search runs, the 29 others are told a hint is on its
// way without a search of their own. Thirty more with the engine free: no
// two searches ever run at once, and there are exactly as many searches as
// hint boards sent; the rest are refused (on the way, or none left) with
// no search at all.
func TestHintsThroughTheWebhooksOfTwoReplicas(t *testing.T) {
	srv := telegramtest.New(t)
	db := redistest.New(t)
	store := redis.New(db.Client(t), time.Now, redis.WithPrefix(db.Prefix))
	ctx, cancel := context.WithCancel(context.Background())
	th := &searchCounter{started: make(chan struct{}, 1)}
	gate := make(chan struct{})
	th.gate.Store(&gate)
	const secret = "hint-test-secret"
	var hooks []string
	var svc *play.Service
	var bots []*bot.Bot
	for range 2 {
		api, err := tgbotapi.NewBotAPIWithAPIEndpoint(srv.Token(), srv.Endpoint())
		if err != nil {
			t.Fatal(err)
		}
		out := outbox.New(api, outbox.Options{PerChat: 1000, PerGroup: 1000, Global: 1000})
		go out.Run(ctx)
		svc = play.New(store, th, play.DefaultConfig, time.Now)
		b := wiredBot(ctx, svc, store, out, bot.Config{Username: srv.Bot().UserName, Modules: []bot.Module{assist.Module()}})
		bots = append(bots, b)
		hook := updates.WebhookHandler(secret, b.Handle, updates.WebhookOptions{})
		hs := httptest.NewServer(hook)
		hooks = append(hooks, hs.URL)
		t.Cleanup(func() {
			hs.Close()
			_ = hook.Drain(context.Background())
		})
	}
	t.Cleanup(func() {
		cancel()
		for _, b := range bots {
			b.Wait()
		}
	})
	alice := telegramtest.User(7101, "Alice", "alice", "en")
	chat := telegramtest.PrivateChat(alice)
	g, err := svc.NewAIGame(ctx, play.AIGameRequest{ChatID: chat.ID, Human: play.Player{UserID: alice.ID, Name: "Alice"},
		Level: 1, Color: play.ColorWhite})
	if err != nil {
		t.Fatal(err)
	}

	const asks = 30
	// count is how many replies in the chat, after the first skip calls
	// to method, contain one of substrs.
	count := func(method string, skip int, substrs ...string) int {
		n := 0
		for _, c := range srv.CallsTo(method)[skip:] {
			for _, s := range substrs {
				if c.ChatID() == chat.ID && strings.Contains(c.Text(), s) {
					n++
					break
				}
			}
		}
		return n
	}
	const onItsWay, noneLeft, board = "being worked out", "No hints left", "💡 Hint:"
	burst := func() {
		t.Helper()
		var wg sync.WaitGroup
		for i := range asks {
			u := srv.TextMessage(chat, alice, "/hint")
			wg.Go(func() {
				resp, err := srv.DeliverWebhook(ctx, hooks[i%2], secret, u)
				if err != nil {
					t.Errorf("delivering /hint %d: %v", i, err)
					return
				}
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					t.Errorf("/hint %d: webhook answered %d", i, resp.StatusCode)
				}
			})
		}
		wg.Wait()
	}
	const bound = 30 * time.Second // a bound for a broken bot, not a measurement

	// Round one: the first search holds until all the others are answered.
	burst()
	select {
	case <-th.started:
	case <-time.After(bound):
		t.Fatal("no hint search began")
	}
	if !srv.WaitUntil(bound, func() bool { return count("sendMessage", 0, onItsWay) >= asks-1 }) {
		t.Fatalf("%d of %d hints told one is on its way while a search runs; %d searches begun",
			count("sendMessage", 0, onItsWay), asks-1, th.calls.Load())
	}
	if n := th.calls.Load(); n != 1 {
		t.Errorf("%d searches for %d hints asked at once, want 1", n, asks)
	}
	close(gate)
	th.gate.Store(nil)
	if !srv.WaitUntil(bound, func() bool { return count("sendPhoto", 0, board) == 1 }) {
		t.Fatal("the hint's board never came")
	}
	if n := count("sendMessage", 0, onItsWay); n != asks-1 {
		t.Errorf("%d told a hint is on its way, want %d", n, asks-1)
	}

	// Round two: the engine answers at once; thirty more ask, two hints
	// are left.
	messages, photos := len(srv.CallsTo("sendMessage")), len(srv.CallsTo("sendPhoto"))
	burst()
	answered := func() int {
		return count("sendMessage", messages, onItsWay, noneLeft) + count("sendPhoto", photos, board)
	}
	if !srv.WaitUntil(bound, func() bool { return answered() >= asks }) {
		t.Fatalf("%d of %d hints answered", answered(), asks)
	}
	given := count("sendPhoto", photos, board)
	if given < 1 || given > play.HintsPerGame-1 {
		t.Errorf("%d hint boards in round two, want 1 to %d", given, play.HintsPerGame-1)
	}
	if n := th.calls.Load(); int(n) != 1+given {
		t.Errorf("%d searches for %d hints given: a refused hint searched", n, 1+given)
	}
	if n := th.most.Load(); n != 1 {
		t.Errorf("%d hint searches at once in one game, want 1", n)
	}
	if n := answered(); n != asks {
		t.Errorf("%d answers to %d hints asked", n, asks)
	}
	stored, err := svc.Game(ctx, g.ID())
	if err != nil {
		t.Fatal(err)
	}
	if stored.Ply() != 0 || !stored.Active() {
		t.Errorf("the game moved on (ply %d, %s): a hint plays no move", stored.Ply(), stored.Status())
	}
}
