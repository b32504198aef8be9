package telegramtest

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

func TestCallbackQuery(t *testing.T) {
	srv := New(t)
	bot := newBot(t, srv)
	kb := keyboard("c3-d4")
	card := sendText(t, bot, alice.ID, "board", &kb)
	u := srv.CallbackQuery(PrivateChat(alice), alice, card.MessageID, "c3-d4")
	srv.PushUpdate(u)

	ups, err := bot.GetUpdates(tgbotapi.UpdateConfig{})
	if err != nil || len(ups) != 1 {
		t.Fatalf("updates = %v, %v", ups, err)
	}
	q := ups[0].CallbackQuery
	if q == nil || q.Data != "c3-d4" || q.Message.MessageID != card.MessageID || q.Message.ReplyMarkup == nil || q.From.ID != alice.ID {
		t.Fatalf("callback query = %+v, want one on the card with its keyboard", q)
	}
	if _, _, answered := srv.CallbackAnswer(q.ID); answered {
		t.Error("answered before the bot answered")
	}

	// answerCallbackQuery answers true: bot.Request handles it.
	if _, err := bot.Request(tgbotapi.NewCallbackWithAlert(q.ID, "Illegal move")); err != nil {
		t.Fatalf("answerCallbackQuery: %v", err)
	}
	text, alert, answered := srv.CallbackAnswer(q.ID)
	if !answered || text != "Illegal move" || !alert {
		t.Errorf("answer = %q alert %v answered %v, want \"Illegal move\" alert", text, alert, answered)
	}
	_, err = bot.Request(tgbotapi.NewCallback(q.ID, ""))
	wantRefusal(t, err, "Bad Request: "+queryInvalid)
	_, err = bot.Request(tgbotapi.NewCallback("made-up", ""))
	wantRefusal(t, err, "Bad Request: "+queryInvalid)

	// The ids are unique.
	if other := srv.CallbackQuery(PrivateChat(alice), alice, card.MessageID, "x"); other.CallbackQuery.ID == q.ID {
		t.Errorf("second query id %q repeats the first", q.ID)
	}
}

// The keyboards the fake hands out are the caller's to change.
func TestKeyboardsHandedOutAreCopies(t *testing.T) {
	srv := New(t)
	bot := newBot(t, srv)
	kb := keyboard("c3-d4")
	card := sendText(t, bot, alice.ID, "board", &kb)
	u := srv.CallbackQuery(PrivateChat(alice), alice, card.MessageID, "c3-d4")
	*u.CallbackQuery.Message.ReplyMarkup.InlineKeyboard[0][0].CallbackData = "changed"
	m, _ := srv.Message(alice.ID, card.MessageID)
	*m.ReplyMarkup.InlineKeyboard[0][0].CallbackData = "changed too"
	m.ReplyMarkup.InlineKeyboard[0][0].Text = "changed too"
	m, _ = srv.Message(alice.ID, card.MessageID)
	if got := m.ReplyMarkup.InlineKeyboard[0][0]; *got.CallbackData != "c3-d4" || got.Text != "c3-d4" {
		t.Errorf("stored button %q %q after its copies changed, want c3-d4", got.Text, *got.CallbackData)
	}
	again := srv.CallbackQuery(PrivateChat(alice), alice, card.MessageID, "c3-d4")
	if got := *again.CallbackQuery.Message.ReplyMarkup.InlineKeyboard[0][0].CallbackData; got != "c3-d4" {
		t.Errorf("next update carries button data %q, want c3-d4", got)
	}
}

func TestInlineMode(t *testing.T) {
	srv := New(t)
	bot := newBot(t, srv)
	iq := srv.InlineQuery(alice, "play")
	srv.PushUpdate(iq)

	kb := keyboard("join")
	article := tgbotapi.NewInlineQueryResultArticle("game-1", "New game", "Alice invites you")
	article.ReplyMarkup = &kb
	plain := tgbotapi.NewInlineQueryResultArticle("rules", "Rules", "Bashni rules")
	if _, err := bot.Request(tgbotapi.InlineConfig{InlineQueryID: iq.InlineQuery.ID, Results: []any{article, plain}}); err != nil {
		t.Fatalf("answerInlineQuery: %v", err)
	}
	if res, ok := srv.InlineAnswer(iq.InlineQuery.ID); !ok || len(res) != 2 {
		t.Errorf("inline answer = %d results, %v, want 2", len(res), ok)
	}
	_, err := bot.Request(tgbotapi.InlineConfig{InlineQueryID: iq.InlineQuery.ID, Results: []any{plain}})
	wantRefusal(t, err, "Bad Request: "+queryInvalid)

	// Only a result with a keyboard yields an inline_message_id.
	if u := srv.ChosenInlineResult(bob, "rules", "play"); u.ChosenInlineResult.InlineMessageID != "" {
		t.Errorf("result without keyboard got inline id %q", u.ChosenInlineResult.InlineMessageID)
	}
	chosen := srv.ChosenInlineResult(bob, "game-1", "play")
	inlineID := chosen.ChosenInlineResult.InlineMessageID
	if inlineID == "" {
		t.Fatal("result with keyboard got no inline_message_id")
	}
	srv.PushUpdate(chosen)
	if m, ok := srv.InlineMessage(inlineID); !ok || m.Text != "Alice invites you" || m.ReplyMarkup == nil {
		t.Errorf("inline message = %+v, %v, want the article with its keyboard", m, ok)
	}

	press := srv.CallbackOnInlineMessage(bob, inlineID, "join")
	srv.PushUpdate(press)
	if _, err := bot.Request(tgbotapi.NewCallback(press.CallbackQuery.ID, "")); err != nil {
		t.Errorf("answer inline callback: %v", err)
	}

	// Editing an inline message answers true, so bot.Request it.
	edit := tgbotapi.EditMessageTextConfig{BaseEdit: tgbotapi.BaseEdit{InlineMessageID: inlineID, ReplyMarkup: &kb}, Text: "Bob joined"}
	resp, err := bot.Request(edit)
	if err != nil || string(resp.Result) != "true" {
		t.Fatalf("inline edit = %s, %v, want true", resp.Result, err)
	}
	if m, _ := srv.InlineMessage(inlineID); m.Text != "Bob joined" || m.Edits != 1 {
		t.Errorf("inline message = %+v, want the edit", m)
	}
	_, err = bot.Request(edit)
	wantRefusal(t, err, "Bad Request: "+notModified)

	// Inline messages cannot take an upload.
	_, err = bot.Request(tgbotapi.EditMessageMediaConfig{
		BaseEdit: tgbotapi.BaseEdit{InlineMessageID: inlineID},
		Media:    tgbotapi.NewInputMediaPhoto(tgbotapi.FileBytes{Name: "b.png", Bytes: PNG(10, 10)}),
	})
	if err == nil {
		t.Error("uploading to an inline message succeeded, want a refusal")
	}
	_, err = bot.Request(tgbotapi.EditMessageTextConfig{BaseEdit: tgbotapi.BaseEdit{InlineMessageID: "made-up"}, Text: "x"})
	wantRefusal(t, err, "Bad Request: MESSAGE_ID_INVALID")
}

func TestInlineAnswerRefusals(t *testing.T) {
	srv := New(t)
	bot := newBot(t, srv)
	iq := srv.InlineQuery(alice, "")
	srv.PushUpdate(iq)
	a := tgbotapi.NewInlineQueryResultArticle("same", "A", "a")
	_, err := bot.Request(tgbotapi.InlineConfig{InlineQueryID: iq.InlineQuery.ID, Results: []any{a, a}})
	wantRefusal(t, err, "Bad Request: RESULT_ID_DUPLICATE")
	// A refused answer leaves the query open.
	if _, err := bot.Request(tgbotapi.InlineConfig{InlineQueryID: iq.InlineQuery.ID, Results: []any{a}}); err != nil {
		t.Errorf("answer after refusal: %v", err)
	}
}

func TestWaitFor(t *testing.T) {
	srv := New(t)
	bot := newBot(t, srv)
	go func() {
		time.Sleep(20 * time.Millisecond) // not a wait: the sends come late, so that WaitFor has something to wait for
		_, _ = bot.Send(tgbotapi.NewMessage(1, "one"))
		_, _ = bot.Send(tgbotapi.NewMessage(2, "two"))
	}()
	c := srv.WaitFor(t, 2*time.Second, func(c Call) bool { return c.Method == "sendMessage" && c.ChatID() == 2 })
	if c.Text() != "two" {
		t.Errorf("WaitFor = %v, want the message to chat 2", c)
	}
	calls := srv.WaitCalls(t, "sendMessage", 2, time.Second)
	if len(calls) != 2 || calls[0].Text() != "one" {
		t.Errorf("WaitCalls = %v, want both sends in order", calls)
	}
}

// fatalTB records Fatalf instead of failing the test.
type fatalTB struct {
	testing.TB
	msg string
}

func (f *fatalTB) Helper() {}

func (f *fatalTB) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	panic(f)
}

func TestWaitForTimeout(t *testing.T) {
	srv := New(t)
	bot := newBot(t, srv)
	sendText(t, bot, 1, "unrelated", nil)
	ftb := &fatalTB{TB: t}
	func() {
		defer func() {
			if r := recover(); r != ftb {
				panic(r)
			}
		}()
		srv.WaitCalls(ftb, "deleteMessage", 1, 30*time.Millisecond)
		t.Error("WaitCalls returned without failing")
	}()
	for _, want := range []string{"got 0 calls to deleteMessage", "sendMessage chat=1 text=\"unrelated\" → ok"} {
		if !strings.Contains(ftb.msg, want) {
			t.Errorf("failure message %q lacks %q", ftb.msg, want)
		}
	}
}
