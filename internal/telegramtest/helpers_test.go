package telegramtest

import (
	"errors"
	"net/http"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

// newBot connects the real tgbotapi client to srv.
func newBot(t *testing.T, srv *Server) *tgbotapi.BotAPI {
	t.Helper()
	bot, err := tgbotapi.NewBotAPIWithClient(srv.Token(), srv.Endpoint(), &http.Client{Timeout: 10 * time.Second})
	if err != nil {
		t.Fatalf("NewBotAPIWithClient: %v", err)
	}
	return bot
}

var (
	alice = User(1001, "Alice", "alice", "en")
	bob   = User(1002, "Bob", "bob", "ru")
)

// apiError unwraps the *tgbotapi.Error tgbotapi returns for a refusal.
func apiError(t *testing.T, err error) *tgbotapi.Error {
	t.Helper()
	var e *tgbotapi.Error
	if !errors.As(err, &e) {
		t.Fatalf("error = %v (%T), want *tgbotapi.Error", err, err)
	}
	return e
}

// wantRefusal checks that err is a Bot API refusal with the description.
func wantRefusal(t *testing.T, err error, desc string) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want %q", desc)
	}
	if got := apiError(t, err).Message; got != desc {
		t.Errorf("description = %q, want %q", got, desc)
	}
}

// keyboard builds a one-row inline keyboard of callback buttons.
func keyboard(data ...string) tgbotapi.InlineKeyboardMarkup {
	var row []tgbotapi.InlineKeyboardButton
	for _, d := range data {
		row = append(row, tgbotapi.NewInlineKeyboardButtonData(d, d))
	}
	return tgbotapi.NewInlineKeyboardMarkup(row)
}

// sendText sends a text message with a keyboard and returns it.
func sendText(t *testing.T, bot *tgbotapi.BotAPI, chatID int64, text string, kb *tgbotapi.InlineKeyboardMarkup) tgbotapi.Message {
	t.Helper()
	cfg := tgbotapi.NewMessage(chatID, text)
	if kb != nil {
		cfg.ReplyMarkup = *kb
	}
	m, err := bot.Send(cfg)
	if err != nil {
		t.Fatalf("send %q: %v", text, err)
	}
	return m
}
