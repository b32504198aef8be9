package outbox_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/internal/telegramtest"
)

// shownLog records what Shown was told.
type shownLog struct {
	mu   sync.Mutex
	told []int64 // versions
}

func (l *shownLog) shown(_ context.Context, lazy json.RawMessage, version int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if string(lazy) == `{"card":"g1"}` {
		l.told = append(l.told, version)
	}
}

func (l *shownLog) get() []int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]int64(nil), l.told...)
}

// Shown hears of a lazy card edit once Telegram has taken it, with the
// version drawn: after a 429 only when the retry is taken; never for an
// edit Telegram refused for good, nor for a reply that is not lazy. A
// delivery that fails tells nothing, so whoever waits for the showing
// must bound the wait itself (play.Config.ShowGrace).
func TestShownIsToldOfLazyEditsTelegramTook(t *testing.T) {
	srv, api := newAPI(t)
	const chat = int64(-1001)
	srv.TextMessage(tgbotapiChat(chat), tgbotapi.User{ID: 1, FirstName: "A"}, "hi") // the chat exists
	sent, err := api.Send(tgbotapi.NewMessage(chat, "the card"))
	if err != nil {
		t.Fatal(err)
	}
	b := &board{}
	opts, _ := fast()
	ob := outbox.New(api, opts)
	ob.SetResolver(b.resolve(chat, sent.MessageID))
	log := &shownLog{}
	ob.SetShown(log.shown)
	run(t, ob)
	lazy := outbox.Reply{Lazy: json.RawMessage(`{"card":"g1"}`), ChatID: chat, Group: true}

	// Held by a 429, then taken: told once, after the retry.
	srv.FailNext("editMessageText", 1, telegramtest.TooManyRequests(1))
	b.set(1)
	if err := ob.Enqueue(lazy); err != nil {
		t.Fatal(err)
	}
	flush(t, ob)
	if got := log.get(); len(got) != 1 || got[0] != 1 {
		t.Fatalf("after a 429 and the retry taken: told %v; want [1]", got)
	}
	if n := len(srv.CallsTo("editMessageText")); n != 2 {
		t.Errorf("%d edits sent; want the 429'd one and its retry", n)
	}

	// Refused for good: told nothing.
	srv.FailNext("editMessageText", 1, telegramtest.Failure{Code: 400, Description: "Bad Request: message to edit not found"})
	b.set(2)
	if err := ob.Enqueue(lazy); err != nil {
		t.Fatal(err)
	}
	flush(t, ob)
	// Not lazy: told nothing.
	if err := ob.Enqueue(outbox.Reply{Req: tgbotapi.NewEditMessageText(chat, sent.MessageID, "drawn now"), Group: true}); err != nil {
		t.Fatal(err)
	}
	flush(t, ob)
	if got := log.get(); len(got) != 1 {
		t.Errorf("after a refused edit and one not lazy: told %v; want still [1]", got)
	}
}
