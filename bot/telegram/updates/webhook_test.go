package updates_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot/telegram/updates"
	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/internal/testkit"
)

const secret = "s3cret_token-1"

// hook serves a Webhook over TLS, as Telegram requires, until the test ends.
func hook(t *testing.T, secret string, h updates.HandleFunc, opts updates.WebhookOptions) (*updates.Webhook, *httptest.Server) {
	t.Helper()
	wh := updates.WebhookHandler(secret, h, opts)
	hs := httptest.NewTLSServer(wh)
	t.Cleanup(func() {
		hs.Close()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := wh.Drain(ctx); err != nil {
			t.Errorf("Drain: %v", err)
		}
	})
	return wh, hs
}

func TestWebhookChecksTheSecret(t *testing.T) {
	tests := []struct {
		name   string
		sent   string // "" sends no header
		status int
	}{
		{"right secret", secret, http.StatusOK},
		{"wrong secret", "s3cret_token-2", http.StatusUnauthorized},
		{"prefix of the secret", secret[:5], http.StatusUnauthorized},
		{"no secret", "", http.StatusUnauthorized},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, _ := newAPI(t)
			rec := newRecorder()
			wh, hs := hook(t, secret, rec.handle, updates.WebhookOptions{})
			resp, err := srv.DeliverWebhook(t.Context(), hs.URL, tt.sent, srv.TextMessage(telegramtest.PrivateChat(ann), ann, "/start"))
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tt.status {
				t.Errorf("status %d, want %d", resp.StatusCode, tt.status)
			}
			ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
			defer cancel()
			if err := wh.Drain(ctx); err != nil {
				t.Fatal(err)
			}
			if got, want := len(rec.all()), map[bool]int{true: 1, false: 0}[tt.status == http.StatusOK]; got != want {
				t.Errorf("%d updates handled, want %d", got, want)
			}
		})
	}
}

func TestWebhookWithoutASecretRefusesEverything(t *testing.T) {
	srv, _ := newAPI(t)
	rec := newRecorder()
	_, hs := hook(t, "", rec.handle, updates.WebhookOptions{Logger: logger(&testkit.Buffer{})})
	resp, err := srv.DeliverWebhook(t.Context(), hs.URL, "", srv.TextMessage(telegramtest.PrivateChat(ann), ann, "/start"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("status %d, want 401", resp.StatusCode)
	}
}

func TestWebhookRefusesWhatIsNotAnUpdate(t *testing.T) {
	rec := newRecorder()
	wh, hs := hook(t, secret, rec.handle, updates.WebhookOptions{MaxBodyBytes: 1000})
	tests := []struct {
		name, method, body string
		status             int
	}{
		{"bad JSON", http.MethodPost, `{"update_id": 1, "message": `, http.StatusBadRequest},
		{"not an object", http.MethodPost, `[1, 2]`, http.StatusBadRequest},
		{"too big", http.MethodPost, `{"update_id": 1, "x": "` + strings.Repeat("a", 2000) + `"}`, http.StatusBadRequest},
		{"GET", http.MethodGet, ``, http.StatusMethodNotAllowed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req, err := http.NewRequestWithContext(t.Context(), tt.method, hs.URL, strings.NewReader(tt.body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set(updates.SecretHeader, secret)
			resp, err := hs.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != tt.status {
				t.Errorf("status %d, want %d", resp.StatusCode, tt.status)
			}
		})
	}
	// Drain waits for every update that was accepted: none was.
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	if err := wh.Drain(ctx); err != nil {
		t.Fatal(err)
	}
	if n := len(rec.all()); n != 0 {
		t.Errorf("%d updates handled, want none", n)
	}
}

// The webhook answers 200 only once the update is handled: an update
// acknowledged to Telegram has had its effects. Chats are handled
// concurrently, each in order.
func TestWebhookAnswersOnceHandledAndKeepsEachChatInOrder(t *testing.T) {
	srv, _ := newAPI(t)
	var mu sync.Mutex
	byChat := map[int64][]int{}
	handled := map[int]bool{}
	handle := func(_ context.Context, u tgbotapi.Update) {
		mu.Lock()
		defer mu.Unlock()
		byChat[updates.ChatOf(u)] = append(byChat[updates.ChatOf(u)], u.UpdateID)
		handled[u.UpdateID] = true
	}
	wh, hs := hook(t, secret, handle, updates.WebhookOptions{Workers: 4})
	var wg sync.WaitGroup
	var ids atomic.Int64
	ids.Store(5000)
	for _, u := range []tgbotapi.User{ann, bob, cleo} {
		wg.Go(func() {
			for range 5 { // one chat's updates one after another, as Telegram sends them
				up := srv.TextMessage(telegramtest.PrivateChat(u), u, "/move")
				up.UpdateID = int(ids.Add(1))
				resp, err := srv.DeliverWebhook(t.Context(), hs.URL, secret, up)
				if err != nil {
					t.Error(err)
					return
				}
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					t.Errorf("status %d", resp.StatusCode)
				}
				mu.Lock()
				if !handled[up.UpdateID] {
					t.Errorf("update %d answered 200 before it was handled", up.UpdateID)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	if err := wh.Drain(ctx); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	for chat, ids := range byChat {
		if len(ids) != 5 || !slices.IsSorted(ids) {
			t.Errorf("chat %d handled %v, want 5 in order", chat, ids)
		}
	}
	if len(byChat) != 3 {
		t.Errorf("%d chats handled, want 3", len(byChat))
	}
}

func TestWebhookDrainWaitsForHandlers(t *testing.T) {
	srv, _ := newAPI(t)
	var mu sync.Mutex
	done := 0
	started, release := make(chan struct{}, 2), make(chan struct{})
	handle := func(context.Context, tgbotapi.Update) {
		started <- struct{}{}
		<-release // held until Drain has been called
		mu.Lock()
		done++
		mu.Unlock()
	}
	wh, hs := hook(t, secret, handle, updates.WebhookOptions{})
	// The requests are answered once their updates are handled, so they
	// wait in goroutines of their own.
	var deliveries sync.WaitGroup
	for _, u := range []tgbotapi.User{ann, bob} {
		up := srv.TextMessage(telegramtest.PrivateChat(u), u, "/start")
		deliveries.Go(func() {
			resp, err := srv.DeliverWebhook(t.Context(), hs.URL, secret, up)
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				t.Errorf("an update handled during the drain answered %d, want 200", resp.StatusCode)
			}
		})
	}
	<-started
	<-started
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	drained := make(chan error, 1)
	go func() { drained <- wh.Drain(ctx) }()
	close(release)
	if err := <-drained; err != nil {
		t.Fatal(err)
	}
	deliveries.Wait()
	mu.Lock()
	defer mu.Unlock()
	if done != 2 {
		t.Errorf("Drain returned with %d of 2 handlers done", done)
	}
}

func TestWebhookDrainDeadline(t *testing.T) {
	srv, _ := newAPI(t)
	handle := func(ctx context.Context, _ tgbotapi.Update) { <-ctx.Done() }
	// A short HandleTimeout: each request is answered 503 while its
	// update waits, so Telegram would deliver it again.
	wh := updates.WebhookHandler(secret, handle, updates.WebhookOptions{Workers: 1, HandleTimeout: time.Millisecond, Logger: logger(&testkit.Buffer{})})
	hs := httptest.NewTLSServer(wh)
	defer hs.Close()
	for range 3 {
		resp, err := srv.DeliverWebhook(t.Context(), hs.URL, secret, srv.TextMessage(telegramtest.PrivateChat(ann), ann, "/start"))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusServiceUnavailable {
			t.Errorf("an update not handled in time answered %d, want 503", resp.StatusCode)
		}
	}
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	err := wh.Drain(ctx)
	if err == nil || !strings.Contains(err.Error(), "2 webhook updates dropped") {
		t.Errorf("Drain: %v, want 2 dropped", err)
	}
}

func TestSetWebhookSendsTheSecret(t *testing.T) {
	srv, api := newAPI(t)
	allowed := []string{"message", "callback_query", "inline_query"}
	if err := updates.SetWebhook(api, "https://bot.example.org/hook", secret, allowed); err != nil {
		t.Fatal(err)
	}
	calls := srv.CallsTo("setWebhook")
	if len(calls) != 1 || calls[0].Params["secret_token"] != secret {
		t.Fatalf("setWebhook calls %v, want one with secret_token", calls)
	}
	info := srv.WebhookInfo()
	if info.URL != "https://bot.example.org/hook" || info.SecretToken != secret || !slices.Equal(info.AllowedUpdates, allowed) {
		t.Errorf("webhook is %+v", info)
	}

	if err := updates.DeleteWebhook(api, false); err != nil {
		t.Fatal(err)
	}
	if info := srv.WebhookInfo(); info.URL != "" {
		t.Errorf("webhook still %+v after DeleteWebhook", info)
	}
	if c := srv.CallsTo("deleteWebhook"); len(c) != 1 || c[0].Params["drop_pending_updates"] != "false" {
		t.Errorf("deleteWebhook calls %v", c)
	}
}

func TestSetWebhookRefusesBadSecrets(t *testing.T) {
	srv, api := newAPI(t)
	for _, s := range []string{"", "has space", "ümlaut", strings.Repeat("a", 257)} {
		if err := updates.SetWebhook(api, "https://bot.example.org/hook", s, nil); err == nil {
			t.Errorf("secret %q accepted", s)
		}
	}
	if n := len(srv.CallsTo("setWebhook")); n != 0 {
		t.Errorf("%d setWebhook calls made with bad secrets", n)
	}
}

func TestSetWebhookErrorsHideTheToken(t *testing.T) {
	srv, api := newAPI(t)
	srv.FailNext("setWebhook", 1, telegramtest.BadRequest("bad webhook: An HTTPS URL must be provided for webhook"))
	err := updates.SetWebhook(api, "http://plain.example.org", secret, nil)
	if err == nil || !strings.Contains(err.Error(), "HTTPS") {
		t.Errorf("SetWebhook: %v, want Telegram's refusal", err)
	}
	api.SetAPIEndpoint("http://127.0.0.1:1/bot%s/%s")
	for _, err := range []error{
		updates.SetWebhook(api, "https://bot.example.org/hook", secret, nil),
		updates.DeleteWebhook(api, true),
	} {
		if err == nil || strings.Contains(err.Error(), api.Token) {
			t.Errorf("error %v: want one without the token", err)
		}
	}
}
