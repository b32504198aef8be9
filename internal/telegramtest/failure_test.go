package telegramtest

import (
	"net/http"
	"testing"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

func TestFailNext(t *testing.T) {
	tests := []struct {
		name       string
		f          Failure
		code       int
		desc       string
		retryAfter int
	}{
		{"too many requests", TooManyRequests(7), http.StatusTooManyRequests, "Too Many Requests: retry after 7", 7},
		{"forbidden", Forbidden(), http.StatusForbidden, "Forbidden: bot was blocked by the user", 0},
		{"bad request", BadRequest("chat not found"), http.StatusBadRequest, "Bad Request: chat not found", 0},
		{"bad request with prefix", BadRequest("Bad Request: x"), http.StatusBadRequest, "Bad Request: x", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := New(t)
			bot := newBot(t, srv)
			srv.FailNext("sendMessage", 1, tt.f)
			_, err := bot.Send(tgbotapi.NewMessage(1, "hi"))
			e := apiError(t, err)
			if e.Code != tt.code || e.Message != tt.desc || e.RetryAfter != tt.retryAfter {
				t.Errorf("error = %d %q retry_after %d, want %d %q %d", e.Code, e.Message, e.RetryAfter, tt.code, tt.desc, tt.retryAfter)
			}
			if msgs := srv.Messages(1); len(msgs) != 0 {
				t.Errorf("a failed send left messages %+v", msgs)
			}
			if _, err := bot.Send(tgbotapi.NewMessage(1, "hi")); err != nil {
				t.Errorf("second send: %v, want success", err)
			}
			calls := srv.CallsTo("sendMessage")
			if len(calls) != 2 || calls[0].OK() || calls[0].Status != tt.code || !calls[1].OK() {
				t.Errorf("calls = %v, want one failed and one ok", calls)
			}
		})
	}
}

func TestFailNextCounts(t *testing.T) {
	srv := New(t)
	bot := newBot(t, srv)
	srv.FailNext("sendMessage", 2, TooManyRequests(1))
	if _, err := bot.Request(tgbotapi.NewChatAction(1, tgbotapi.ChatTyping)); err != nil {
		t.Errorf("other method failed: %v", err)
	}
	for i := range 2 {
		if _, err := bot.Send(tgbotapi.NewMessage(1, "x")); err == nil {
			t.Errorf("send %d succeeded, want 429", i)
		}
	}
	if _, err := bot.Send(tgbotapi.NewMessage(1, "x")); err != nil {
		t.Errorf("third send: %v, want success", err)
	}
}

// TestFailUpload checks failures of multipart requests; tgbotapi's
// UploadFiles leaves Error.Code zero but keeps the rest.
func TestFailUpload(t *testing.T) {
	srv := New(t)
	bot := newBot(t, srv)
	srv.FailNext("sendPhoto", 1, TooManyRequests(3))
	_, err := bot.Send(tgbotapi.NewPhoto(1, tgbotapi.FileBytes{Name: "a.png", Bytes: PNG(10, 10)}))
	if e := apiError(t, err); e.RetryAfter != 3 || e.Message != "Too Many Requests: retry after 3" {
		t.Errorf("error = %+v, want retry after 3", e)
	}
	if c := srv.CallsTo("sendPhoto")[0]; len(c.Files["photo"].Data) == 0 || c.Status != http.StatusTooManyRequests {
		t.Errorf("call = %v, want the upload recorded with status 429", c)
	}
}

func TestFailWhen(t *testing.T) {
	srv := New(t)
	bot := newBot(t, srv)
	cancel := srv.FailWhen(func(c Call) bool { return c.ChatID() == bob.ID }, Forbidden())
	if _, err := bot.Send(tgbotapi.NewMessage(alice.ID, "hi")); err != nil {
		t.Errorf("send to Alice: %v", err)
	}
	for range 2 {
		_, err := bot.Send(tgbotapi.NewMessage(bob.ID, "hi"))
		if e := apiError(t, err); e.Code != http.StatusForbidden {
			t.Errorf("send to Bob: %d, want 403", e.Code)
		}
	}
	cancel()
	if _, err := bot.Send(tgbotapi.NewMessage(bob.ID, "hi")); err != nil {
		t.Errorf("send to Bob after cancel: %v", err)
	}
}

// A held call has no effect until released; other calls go through.
func TestHoldWhen(t *testing.T) {
	srv := New(t)
	bot := newBot(t, srv)
	held, release := srv.HoldWhen(func(c Call) bool { return c.ChatID() == 1 })
	sent := make(chan error, 1)
	go func() {
		_, err := bot.Send(tgbotapi.NewMessage(1, "held"))
		sent <- err
	}()
	if c := <-held; c.Text() != "held" {
		t.Fatalf("held %v, want the message to chat 1", c)
	}
	sendText(t, bot, 2, "free", nil)
	if n := len(srv.Messages(1)); n != 0 {
		t.Fatalf("chat 1 has %d messages while its send is held", n)
	}
	release()
	if err := <-sent; err != nil {
		t.Fatal(err)
	}
	if n := len(srv.Messages(1)); n != 1 {
		t.Errorf("chat 1 has %d messages after release, want 1", n)
	}
}
