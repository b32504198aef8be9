package bot_test

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/play"
	"github.com/bashni/bashni/render"
	"github.com/bashni/bashni/storage/redis"
	"github.com/bashni/bashni/storage/redis/redistest"
)

// A reminder and a win on time fire once, with a fake clock, even with two
// bot instances on one Redis ticking at the same moment.
func TestClockFiresOnceAcrossInstances(t *testing.T) {
	srv := telegramtest.New(t)
	db := redistest.New(t)
	// The store and both services share one clock, started at the real
	// present as production's is.
	clock := testkit.NewClock(time.Now())
	store := redis.New(db.Client(t), clock.Now, redis.WithPrefix(db.Prefix))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	var bots []*bot.Bot
	var outs []*outbox.Outbox
	var svc *play.Service
	for i := 0; i < 2; i++ {
		api, err := tgbotapi.NewBotAPIWithAPIEndpoint(srv.Token(), srv.Endpoint())
		if err != nil {
			t.Fatal(err)
		}
		out := outbox.New(api, outbox.Options{PerChat: 1000, PerGroup: 1000, Global: 1000})
		go out.Run(ctx)
		outs = append(outs, out)
		svc = play.New(store, nil, play.DefaultConfig, clock.Now)
		bots = append(bots, bot.New(ctx, svc, store, out, render.New(), bot.Config{Username: "bashni_test_bot"}))
	}
	group := telegramtest.GroupChat(-1009876543210, "Club")
	alice := play.Player{UserID: 11, Name: "Alice"}
	bob := play.Player{UserID: 12, Name: "Bob"}
	c, err := svc.Challenge(ctx, play.ChallengeRequest{ChatID: group.ID, From: alice, Color: play.ColorWhite})
	if err != nil {
		t.Fatal(err)
	}
	g, err := svc.Accept(ctx, c.ID, bob, "bob")
	if err != nil {
		t.Fatal(err)
	}
	// Both sides move, so that the game is one to lose on time, not to
	// abort (play/abort.go).
	for i, m := range []string{"c3-d4", "f6-e5"} {
		who := []int64{alice.UserID, bob.UserID}[i]
		if _, err := svc.Move(ctx, g.ID(), who, play.AnyPly, m); err != nil {
			t.Fatal(err)
		}
	}
	count := func(substr string) int {
		n := 0
		for _, call := range srv.CallsTo("sendMessage") {
			if call.ChatID() == group.ID && strings.Contains(call.Text(), substr) {
				n++
			}
		}
		return n
	}
	tickAll := func() {
		var wg sync.WaitGroup
		for _, b := range append(bots, bots...) { // each instance twice, all at once
			wg.Add(1)
			go func() { defer wg.Done(); b.ClockTick(ctx) }()
		}
		wg.Wait()
		for _, out := range outs { // what the ticks enqueued has been sent
			if err := out.Flush(ctx); err != nil {
				t.Fatal(err)
			}
		}
	}

	tickAll()
	if n := count("still your move"); n != 0 {
		t.Fatalf("%d reminders before any deadline", n)
	}
	clock.Advance(play.DefaultConfig.RemindAfter + time.Minute)
	tickAll()
	tickAll()
	if n := count("still your move"); n != 1 {
		t.Errorf("after 12 h: %d reminders, want exactly 1", n)
	}
	clock.Advance(play.DefaultConfig.TimeoutAfter)
	tickAll()
	tickAll()
	if n := count("ran out of time"); n != 1 {
		t.Errorf("after the timeout: %d announcements, want exactly 1", n)
	}
	final, err := svc.Game(ctx, g.ID())
	if err != nil {
		t.Fatal(err)
	}
	if final.Active() || final.Result() != "0-1" || final.Reason() != "time" {
		t.Errorf("game after the timeout: %s %s %s", final.Status(), final.Result(), final.Reason())
	}
}
