package main

import (
	"bytes"
	"encoding/json"
	"slices"

	"image/gif"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bashni/bashni/bot/telegram/updates"
	"github.com/bashni/bashni/internal/telegramtest"
)

func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(body)
}

// Webhook mode through run: the webhook is registered with its secret, a
// request with the right secret is handled, a wrong or missing one is
// refused with 401 and handled not at all. The ops endpoints answer and the
// metrics count what was handled.
func TestE2EWebhookAndOps(t *testing.T) {
	srv := telegramtest.New(t)
	hookAddr, opsAddr := freeAddr(t), freeAddr(t)
	startBotWebhook(t, srv, hookAddr, opsAddr)
	info := srv.WebhookInfo()
	if info.URL != "https://bot.example.org/tg/hook" || info.SecretToken != "s3cret-token" {
		t.Fatalf("webhook registered as %+v", info)
	}
	if want := []string{"message", "callback_query", "inline_query", "poll_answer", "chat_member"}; !slices.Equal(info.AllowedUpdates, want) {
		t.Errorf("webhook registered for %q, want the bot's own list %q", info.AllowedUpdates, want)
	}
	alice := newUser(901, "Alice", "en")
	post := func(secret string, text string) int {
		t.Helper()
		u := srv.TextMessage(alice.chat, alice.u, text)
		u.UpdateID = int(time.Now().UnixNano() % 1e9)
		body, _ := json.Marshal(u)
		req, _ := http.NewRequest(http.MethodPost, "http://"+hookAddr+"/tg/hook", bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		if secret != "" {
			req.Header.Set(updates.SecretHeader, secret)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("POST webhook: %v", err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for _, bad := range []string{"", "wrong"} {
		if code := post(bad, "/start"); code != http.StatusUnauthorized {
			t.Errorf("secret %q: status %d, want 401", bad, code)
		}
	}
	if code := post("s3cret-token", "/start"); code != http.StatusOK {
		t.Fatalf("good secret: status %d", code)
	}
	waitMessage(t, srv, alice.chat.ID, "greeting", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "Welcome") })
	// The fake shows a message a moment before it logs the call that sent it.
	srv.WaitFor(t, 10*time.Second, func(c telegramtest.Call) bool { return c.Method == "sendMessage" && c.ChatID() == alice.chat.ID })
	// Alice's chat is handled in order: had a refused /start been handled,
	// its greeting would have come first.
	if n := len(srv.CallsTo("sendMessage")); n != 1 {
		t.Errorf("refused requests were handled: %d messages sent, want the one greeting", n)
	}

	if code, _ := get(t, "http://"+opsAddr+"/healthz"); code != 200 {
		t.Errorf("/healthz %d", code)
	}
	if code, _ := get(t, "http://"+opsAddr+"/readyz"); code != 200 {
		t.Errorf("/readyz %d with the store up", code)
	}
	// The greeting reaches the fake a moment before the bot counts the
	// update handled and the call made: read /metrics until it has them.
	wants := []string{`bashni_updates_total{kind="message",outcome="ok"} 1`, "bashni_update_duration_seconds_bucket", `bashni_telegram_calls_total{method="sendMessage",outcome="ok"}`}
	code, metrics := waitMetrics(t, "http://"+opsAddr+"/metrics", wants)
	for _, want := range wants {
		if code != 200 || !strings.Contains(metrics, want) {
			t.Errorf("/metrics (%d) lacks %s", code, want)
		}
	}
}

// waitMetrics reads the metrics page until it holds every line of wants,
// asking again at once after each answer (an answer is a few hundred
// microseconds: no pause is needed), for 10 seconds at most; it returns
// the last page.
func waitMetrics(t *testing.T, url string, wants []string) (int, string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		code, page := get(t, url)
		missing := slices.ContainsFunc(wants, func(w string) bool { return !strings.Contains(page, w) })
		if code == 200 && !missing || time.Now().After(deadline) {
			return code, page
		}
	}
}

// startBotWebhook runs the bot in webhook mode with an ops server.
func startBotWebhook(t *testing.T, srv *telegramtest.Server, hookAddr, opsAddr string) *botProcess {
	t.Helper()
	p := startBotNoWait(t, srv, map[string]string{
		"BASHNI_MODE":           "webhook",
		"BASHNI_WEBHOOK_LISTEN": hookAddr,
		"BASHNI_WEBHOOK_URL":    "https://bot.example.org/tg/hook",
		"BASHNI_WEBHOOK_SECRET": "s3cret-token",
		"BASHNI_OPS_LISTEN":     opsAddr,
		"BASHNI_LOG_LEVEL":      "info", // for the "listening" lines
	})
	waitListening(t, p.logs, "webhook", "ops")
	return p
}

// Finished games offer a replay GIF; /lang switches the language.
func TestE2EReplayAndLanguage(t *testing.T) {
	srv := telegramtest.New(t)
	startBot(t, srv, nil)
	alice := newUser(951, "Alice", "en")
	c := startAIGame(t, srv, alice, "1 white")
	waitTurn(t, srv, alice.chat.ID, c.ID)
	pickFirstMove(t, srv, alice.chat, alice, c.ID)
	waitTurn(t, srv, alice.chat.ID, c.ID)
	resign(t, srv, alice.chat, alice)
	final := waitMessage(t, srv, alice.chat.ID, "final card", func(m telegramtest.Msg) bool { return m.ID == c.ID && gameOver(m) })
	for _, b := range buttons(final) {
		if strings.HasPrefix(b[1], "g|") {
			tap(t, srv, alice.chat, alice, c.ID, b[1])
		}
	}
	anim := srv.WaitFor(t, 15*time.Second, func(call telegramtest.Call) bool { return call.Method == "sendAnimation" })
	g, err := gif.DecodeAll(bytes.NewReader(anim.Files["animation"].Data))
	if err != nil {
		t.Fatalf("replay is not a GIF: %v", err)
	}
	if len(g.Image) != 3 { // the start and two moves
		t.Errorf("replay of a 2-ply game has %d frames, want 3", len(g.Image))
	}

	say(srv, alice.chat, alice, "/lang")
	pick := waitMessage(t, srv, alice.chat.ID, "language buttons", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "language") })
	tap(t, srv, alice.chat, alice, pick.ID, buttons(pick)[1][1]) // Русский
	say(srv, alice.chat, alice, "/games")
	waitMessage(t, srv, alice.chat.ID, "Russian after /lang", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "нет текущих партий") })
}
