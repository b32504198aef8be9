package bot_test

import (
	"context"
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
	"golang.org/x/time/rate"

	"github.com/bashni/bashni/bot"
	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/internal/telegramtest"
)

// A group whose outgoing lane is full (Telegram's pace holds it): a typed
// move is refused before it is stored, and however many commands come,
// one reply says why; a tap is answered with a toast saying why (answers
// do not wait in the chat's lane), and changes nothing either.
func TestAFullChatRefusesWorkAtTheDoor(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := newEventsRig(t, ctx)

	api, err := tgbotapi.NewBotAPIWithAPIEndpoint(r.srv.Token(), r.srv.Endpoint())
	if err != nil {
		t.Fatal(err)
	}
	// One message in the group, then none for hours.
	out := outbox.New(api, outbox.Options{PerChat: 1000, PerGroup: rate.Limit(0.0001), PerGroupBurst: 1, Global: 1000, MaxQueue: 3,
		Journal: outbox.StoreJournal(r.store, "full", time.Minute, 24*time.Hour)})
	b := wiredBot(ctx, r.svc, r.store, out, bot.Config{Username: "bashni_test_bot"})
	go out.Run(ctx)
	chatter := func() {
		_ = out.Enqueue(outbox.Reply{Req: tgbotapi.NewMessage(r.group.ID, "chatter"), ChatID: r.group.ID, Group: true})
	}
	// The lane is filled in steps that leave its sender parked: the first
	// message goes out, the second is taken off the queue to wait for the
	// pace (for hours), and three more fill it. Filled at once, the depth
	// seen would depend on when the sender woke.
	chatter()
	r.srv.WaitFor(t, 10*time.Second, func(c telegramtest.Call) bool { return c.Method == "sendMessage" && c.Params["text"] == "chatter" })
	chatter()
	if !r.srv.WaitUntil(10*time.Second, func() bool { return len(out.Depths()) == 0 }) {
		t.Fatalf("the second message never left the queue for the pace: %v", out.Depths())
	}
	for range 3 {
		chatter()
	}
	if d := out.Depths(); len(d) != 1 || d[0] != 3 {
		t.Fatalf("the group's lane is %v, want 3 waiting", d)
	}

	for i := range 3 {
		u := r.move()
		u.UpdateID = 500 + i
		b.Handle(ctx, u)
	}
	b.Wait()
	if g, err := r.svc.Game(ctx, r.gameID); err != nil || g.Ply() != 0 {
		t.Fatalf("after typed moves to a full chat: %v, %v; want the game unchanged", g, err)
	}
	if d := out.Depths(); len(d) != 1 || d[0] != 4 {
		t.Errorf("lane depths %v after 3 refused commands, want one reply waiting (4)", d)
	}

	tap := r.srv.CallbackQuery(r.group, r.alice, r.card, "x")
	tap.UpdateID = 600
	b.Handle(ctx, tap)
	// Answered (the fake knows only queries it delivered, so it refuses
	// the answer: what was asked is what counts here).
	answer := r.srv.WaitFor(t, 10*time.Second, func(c telegramtest.Call) bool {
		return c.Method == "answerCallbackQuery" && c.Params["callback_query_id"] == tap.CallbackQuery.ID
	})
	text := answer.Params["text"]
	if !strings.Contains(text, "too many") {
		t.Errorf("the tap's toast %q does not say the chat is busy", text)
	}
	for _, id := range []int64{500, 501, 502, 600} {
		if seen, err := r.store.UpdateSeen(ctx, id); err != nil || !seen {
			t.Errorf("refused update %d not marked handled: %v, %v", id, seen, err)
		}
	}
}
