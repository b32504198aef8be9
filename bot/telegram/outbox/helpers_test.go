package outbox_test

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"path/filepath"
	"sync"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/bot/telegram/outbox"
	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/storage/bolt"
)

// newAPI starts a fake Bot API server and a real tgbotapi client for it.
func newAPI(t *testing.T) (*telegramtest.Server, *tgbotapi.BotAPI) {
	t.Helper()
	srv := telegramtest.New(t)
	api, err := tgbotapi.NewBotAPIWithAPIEndpoint(srv.Token(), srv.Endpoint())
	if err != nil {
		t.Fatalf("connecting to the fake: %v", err)
	}
	api.Client.(*http.Client).Timeout = 10 * time.Second
	return srv, api
}

// newJournalStore is a real bbolt store for journals, on a clock the test
// moves (the leases' clock), closed when the test ends.
func newJournalStore(t *testing.T) (*bolt.Store, *testkit.Clock) {
	t.Helper()
	clock := testkit.NewClock(time.Now())
	st, err := bolt.Open(filepath.Join(t.TempDir(), "journal.db"), clock.Now)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st, clock
}

// fast returns options that pace nothing noticeably, for tests that are
// not about pacing, with logs collected in the returned buffer.
func fast() (outbox.Options, *testkit.Buffer) {
	logs := &testkit.Buffer{}
	return outbox.Options{
		PerChat:       1000,
		PerChatBurst:  100,
		PerGroup:      1000,
		PerGroupBurst: 100,
		Global:        1000,
		GlobalBurst:   100,
		Backoff:       time.Millisecond,
		Logger:        slog.New(slog.NewTextHandler(logs, &slog.HandlerOptions{Level: slog.LevelDebug})),
	}, logs
}

// run runs the outbox until the test ends, or until the returned stop is
// called; stop returns Run's error.
func run(t *testing.T, ob *outbox.Outbox) (stop func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ob.Run(ctx) }()
	var once sync.Once
	var err error
	stop = func() error {
		once.Do(func() {
			cancel()
			select {
			case err = <-done:
			case <-time.After(15 * time.Second):
				err = errors.New("Run did not return within 15 s of its context ending")
			}
		})
		return err
	}
	t.Cleanup(func() { _ = stop() })
	return stop
}

func flush(t *testing.T, ob *outbox.Outbox) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := ob.Flush(ctx); err != nil {
		t.Fatalf("Flush: %v", err)
	}
}

// result is what a Done callback reported.
type result struct {
	msg *tgbotapi.Message
	err error
}

// results records Done callbacks by name.
type results struct {
	mu sync.Mutex
	m  map[string][]result
}

func newResults() *results { return &results{m: make(map[string][]result)} }

func (r *results) done(name string) func(*tgbotapi.Message, error) {
	return func(msg *tgbotapi.Message, err error) {
		r.mu.Lock()
		defer r.mu.Unlock()
		r.m[name] = append(r.m[name], result{msg, err})
	}
}

// get returns the one result for name, failing the test unless Done was
// called exactly once.
func (r *results) get(t *testing.T, name string) result {
	t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	if got := len(r.m[name]); got != 1 {
		t.Fatalf("Done for %q called %d times, want once", name, got)
	}
	return r.m[name][0]
}

func texts(calls []telegramtest.Call) []string {
	out := make([]string, len(calls))
	for i, c := range calls {
		out[i] = c.Text()
	}
	return out
}
