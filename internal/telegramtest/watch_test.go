package telegramtest

import (
	"sync"
	"testing"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

func TestOnMessage(t *testing.T) {
	srv := New(t)
	bot := newBot(t, srv)
	type heard struct {
		method string
		msg    Msg
	}
	var (
		mu  sync.Mutex
		got []heard
	)
	cancel := srv.OnMessage(func(c Call, m Msg) {
		// The call is recorded by now, and the server may be called.
		if calls := srv.CallsTo(c.Method); len(calls) == 0 || !calls[len(calls)-1].OK() {
			t.Errorf("%s reported before it was recorded", c.Method)
		}
		mu.Lock()
		defer mu.Unlock()
		got = append(got, heard{c.Method, m})
	})
	last := func() heard {
		t.Helper()
		mu.Lock()
		defer mu.Unlock()
		if len(got) == 0 {
			t.Fatal("nothing reported")
		}
		return got[len(got)-1]
	}
	count := func() int {
		mu.Lock()
		defer mu.Unlock()
		return len(got)
	}

	kb := keyboard("a", "b")
	card := sendText(t, bot, alice.ID, "board", &kb)
	if h := last(); h.method != "sendMessage" || h.msg.ChatID != alice.ID || h.msg.ID != card.MessageID || h.msg.Text != "board" ||
		h.msg.ReplyMarkup == nil || len(h.msg.ReplyMarkup.InlineKeyboard[0]) != 2 {
		t.Errorf("heard %s %+v, want the sent card with its keyboard", h.method, h.msg)
	}
	// The keyboard is the watcher's own.
	*last().msg.ReplyMarkup.InlineKeyboard[0][0].CallbackData = "changed"
	if m, _ := srv.Message(alice.ID, card.MessageID); *m.ReplyMarkup.InlineKeyboard[0][0].CallbackData != "a" {
		t.Error("a watcher changed the stored keyboard")
	}

	if _, err := bot.Request(tgbotapi.NewEditMessageReplyMarkup(alice.ID, card.MessageID, keyboard("c"))); err != nil {
		t.Fatal(err)
	}
	if h := last(); h.method != "editMessageReplyMarkup" || h.msg.ID != card.MessageID || h.msg.Edits != 1 ||
		*h.msg.ReplyMarkup.InlineKeyboard[0][0].CallbackData != "c" {
		t.Errorf("heard %s %+v, want the card with its new keyboard", h.method, h.msg)
	}

	photo, err := bot.Send(tgbotapi.NewPhoto(alice.ID, tgbotapi.FileBytes{Name: "a.png", Bytes: PNG(10, 10)}))
	if err != nil {
		t.Fatal(err)
	}
	if h := last(); h.method != "sendPhoto" || h.msg.ID != photo.MessageID || h.msg.Kind != "photo" || h.msg.ReplyMarkup != nil || len(h.msg.Data) == 0 {
		t.Errorf("heard %s %+v, want the photo", h.method, h.msg)
	}

	// Refusals, and calls that touch no message, are not reported.
	n := count()
	_, err = bot.Request(tgbotapi.NewEditMessageReplyMarkup(alice.ID, card.MessageID, keyboard("c")))
	wantRefusal(t, err, "Bad Request: "+notModified)
	srv.FailNext("sendMessage", 1, TooManyRequests(1))
	if _, err := bot.Send(tgbotapi.NewMessage(alice.ID, "x")); err == nil {
		t.Fatal("the failure was not injected")
	}
	if _, err := bot.Request(tgbotapi.NewChatAction(alice.ID, tgbotapi.ChatTyping)); err != nil {
		t.Fatal(err)
	}
	if count() != n {
		t.Errorf("%d reports for calls that sent or edited nothing", count()-n)
	}

	cancel()
	sendText(t, bot, alice.ID, "after", nil)
	if count() != n {
		t.Error("reported after cancel")
	}
}

// Edits of messages sent via inline mode are reported too.
func TestOnMessageInline(t *testing.T) {
	srv := New(t)
	bot := newBot(t, srv)
	iq := srv.InlineQuery(alice, "play")
	srv.PushUpdate(iq)
	kb := keyboard("join")
	article := tgbotapi.NewInlineQueryResultArticle("game-1", "New game", "Alice invites you")
	article.ReplyMarkup = &kb
	if _, err := bot.Request(tgbotapi.InlineConfig{InlineQueryID: iq.InlineQuery.ID, Results: []any{article}}); err != nil {
		t.Fatal(err)
	}
	inlineID := srv.ChosenInlineResult(bob, "game-1", "play").ChosenInlineResult.InlineMessageID

	heard := make(chan Msg, 1)
	defer srv.OnMessage(func(c Call, m Msg) { heard <- m })()
	edit := tgbotapi.EditMessageTextConfig{BaseEdit: tgbotapi.BaseEdit{InlineMessageID: inlineID, ReplyMarkup: &kb}, Text: "Bob joined"}
	if _, err := bot.Request(edit); err != nil {
		t.Fatal(err)
	}
	select {
	case m := <-heard:
		if m.InlineID != inlineID || m.Text != "Bob joined" {
			t.Errorf("heard %+v, want the inline message edited", m)
		}
	default:
		t.Error("the inline edit was not reported")
	}
}
