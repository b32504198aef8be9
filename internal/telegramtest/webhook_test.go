package telegramtest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"
)

func TestSetWebhook(t *testing.T) {
	tests := []struct {
		name   string
		params tgbotapi.Params
		want   string // refusal; "" for success
	}{
		{"https with secret", tgbotapi.Params{"url": "https://bot.example/hook", "secret_token": "s3cr-et_X", "max_connections": "10"}, ""},
		{"plain http", tgbotapi.Params{"url": "http://bot.example/hook"}, "Bad Request: bad webhook: An HTTPS URL must be provided for webhook"},
		{"bad secret", tgbotapi.Params{"url": "https://bot.example/hook", "secret_token": "no spaces"}, "Bad Request: secret token contains unallowed characters"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := New(t)
			bot := newBot(t, srv)
			resp, err := bot.MakeRequest("setWebhook", tt.params)
			if tt.want != "" {
				wantRefusal(t, err, tt.want)
				if got := srv.WebhookInfo(); got.URL != "" {
					t.Errorf("webhook = %+v after a refusal, want none", got)
				}
				return
			}
			if err != nil || resp.Description != "Webhook was set" {
				t.Fatalf("setWebhook = %+v, %v", resp, err)
			}
			got := srv.WebhookInfo()
			if got.URL != tt.params["url"] || got.SecretToken != tt.params["secret_token"] || got.MaxConnections != 10 {
				t.Errorf("webhook = %+v, want %v", got, tt.params)
			}
			info, err := bot.GetWebhookInfo()
			if err != nil || !info.IsSet() || info.URL != tt.params["url"] {
				t.Errorf("getWebhookInfo = %+v, %v", info, err)
			}
			if _, err := bot.Request(tgbotapi.DeleteWebhookConfig{DropPendingUpdates: true}); err != nil {
				t.Fatalf("deleteWebhook: %v", err)
			}
			if got := srv.WebhookInfo(); got.URL != "" {
				t.Errorf("webhook after delete = %+v, want none", got)
			}
		})
	}
}

func TestDeliverWebhook(t *testing.T) {
	srv := New(t)
	type delivery struct {
		secret string
		update tgbotapi.Update
	}
	got := make(chan delivery, 1)
	hook := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var u tgbotapi.Update
		if r.Header.Get("Content-Type") != "application/json" || json.NewDecoder(r.Body).Decode(&u) != nil {
			http.Error(w, "bad update", http.StatusBadRequest)
			return
		}
		got <- delivery{r.Header.Get("X-Telegram-Bot-Api-Secret-Token"), u}
	}))
	defer hook.Close()

	u := srv.CallbackQuery(PrivateChat(alice), alice, 1, "x")
	resp, err := srv.DeliverWebhook(t.Context(), hook.URL, "s3cret", u)
	if err != nil {
		t.Fatalf("DeliverWebhook: %v", err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("webhook answered %s", resp.Status)
	}
	d := <-got
	if d.secret != "s3cret" || d.update.UpdateID == 0 || d.update.CallbackQuery.Data != "x" {
		t.Errorf("delivered secret %q update %+v, want s3cret and the callback", d.secret, d.update)
	}
	// The delivered query can be answered, like a polled one.
	bot := newBot(t, srv)
	if _, err := bot.Request(tgbotapi.NewCallback(d.update.CallbackQuery.ID, "")); err != nil {
		t.Errorf("answering the delivered query: %v", err)
	}

	resp, err = srv.DeliverWebhook(t.Context(), hook.URL, "", srv.TextMessage(PrivateChat(alice), alice, "hi"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if d := <-got; d.secret != "" {
		t.Errorf("secret header %q without a secret, want none", d.secret)
	}
}
