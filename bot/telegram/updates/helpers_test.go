package updates_test

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"sync"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot/telegram/updates"
	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/internal/testkit"
)

func newAPI(t *testing.T) (*telegramtest.Server, *tgbotapi.BotAPI) {
	t.Helper()
	srv := telegramtest.New(t)
	api, err := tgbotapi.NewBotAPIWithClient(srv.Token(), srv.Endpoint(), &http.Client{Timeout: 60 * time.Second})
	if err != nil {
		t.Fatalf("connecting to the fake: %v", err)
	}
	return srv, api
}

func logger(b *testkit.Buffer) *slog.Logger {
	return slog.New(slog.NewTextHandler(b, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

// recorder is a handler that records what it handled.
type recorder struct {
	mu      sync.Mutex
	handled []tgbotapi.Update
	changed chan struct{}
}

func newRecorder() *recorder { return &recorder{changed: make(chan struct{}, 1)} }

func (r *recorder) handle(_ context.Context, u tgbotapi.Update) {
	r.mu.Lock()
	r.handled = append(r.handled, u)
	r.mu.Unlock()
	select {
	case r.changed <- struct{}{}:
	default:
	}
}

func (r *recorder) all() []tgbotapi.Update {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]tgbotapi.Update(nil), r.handled...)
}

// waitFor waits until n updates were handled.
func (r *recorder) waitFor(t *testing.T, n int) []tgbotapi.Update {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		if got := r.all(); len(got) >= n {
			return got
		}
		select {
		case <-r.changed:
		case <-deadline:
			t.Fatalf("handled %d updates in 10 s, want %d", len(r.all()), n)
		}
	}
}

// poll runs Poll until the test ends or stop is called; stop returns Poll's
// error, or an error if Poll hangs after its context ended.
func poll(t *testing.T, api *tgbotapi.BotAPI, opts updates.PollOptions, h updates.HandleFunc) (stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- updates.Poll(ctx, api, opts, h) }()
	var once sync.Once
	var err error
	stop = func() error {
		once.Do(func() {
			cancel()
			select {
			case err = <-done:
			case <-time.After(20 * time.Second):
				err = errors.New("Poll did not return within 20 s of its context ending") // a hang guard
			}
		})
		return err
	}
	t.Cleanup(func() { stop() })
	return stop
}
