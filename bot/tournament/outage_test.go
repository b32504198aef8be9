package tournament_test

import (
	"context"
	"net/http"
	"strconv"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/play/tournament"
	"github.com/bashni/bashni/storage"
)

// Telegram is down (every call fails) from the moment Alice and Bob are
// paired until well past the time after which the clock posts a game's
// cards again (tourRepostAfter, 30 s): the outbox keeps trying the first
// cards, and the clock, seeing them unrecorded, posts them again. Once
// Telegram is back each player has one card, not two (issue 38: the
// card was posted twice after a full outage of 30 s or more).
func TestCardsPostedOnceAfterAnOutage(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := newRig(t)
	r.group = telegramtest.GroupChat(-1005550040, "Arena club")
	alice, bob := telegramtest.User(11, "Alice", "alice", "en"), telegramtest.User(12, "Bob", "bob", "en")
	tour, err := r.tours.Start(ctx, tournament.Request{ChatID: r.group.ID, By: storage.Player{UserID: alice.ID, Name: "Alice"},
		TimeControl: "5+3", Duration: 30 * time.Minute, Lang: "en"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.tours.Join(ctx, r.group.ID, tour.ID, storage.Player{UserID: alice.ID, Name: "Alice"}, "en"); err != nil {
		t.Fatal(err)
	}
	api, err := tgbotapi.NewBotAPIWithAPIEndpoint(r.srv.Token(), r.srv.Endpoint())
	if err != nil {
		t.Fatal(err)
	}
	out := outbox.New(api, outbox.Options{PerChat: 1000, PerGroup: 1000, Global: 1000, Backoff: 20 * time.Millisecond, MaxRetryAfter: 50 * time.Millisecond,
		Journal: outbox.StoreJournal(r.store, "live", time.Minute, 24*time.Hour)})
	b := r.wiredBot(ctx, out)
	go out.Run(ctx)

	up := r.srv.FailWhen(func(c telegramtest.Call) bool { return c.Method == "sendPhoto" },
		telegramtest.Failure{Code: http.StatusBadGateway, Description: "Bad Gateway"})
	join := r.srv.TextMessage(telegramtest.PrivateChat(bob), bob, "/start tj"+strconv.FormatInt(r.group.ID, 10)+"_"+tour.ID)
	b.Handle(ctx, join)
	b.Wait()
	// Both first cards are being tried, and fail.
	r.srv.WaitCalls(t, "sendPhoto", 4, 10*time.Second)
	// The clock, past tourRepostAfter, finds them unrecorded.
	r.clock.Advance(31 * time.Second)
	b.ClockTick(ctx)
	b.Wait()
	up()
	settle(t, ctx, b, out)
	if w, bl := privateCards(r.srv, alice.ID), privateCards(r.srv, bob.ID); w != 1 || bl != 1 {
		t.Errorf("cards after the outage: %d in Alice's chat, %d in Bob's; want one each", w, bl)
	}
	cur, err := r.tours.Current(ctx, r.group.ID)
	if err != nil || len(cur.Games) != 1 {
		t.Fatalf("the tournament: %+v, %v", cur, err)
	}
	g, err := r.svc.Game(ctx, cur.Games[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	m, _ := g.Mirrored()
	if g.MessageID() != lastCard(r.srv, g.White().UserID) || m.MessageID() != lastCard(r.srv, g.Black().UserID) {
		t.Errorf("recorded cards %d and %d, want the ones posted", g.MessageID(), m.MessageID())
	}
}
