package main

import (
	"bytes"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/storage/bolt"
)

// runBot runs `bashni bot` with env (over the test defaults) until it
// returns by itself, and returns its error and logs.
func runBot(t *testing.T, srv *telegramtest.Server, env map[string]string) (logs string, err error) {
	t.Helper()
	full := withDefaults(t, srv, env)
	buf := &testkit.Buffer{}
	done := make(chan error, 1)
	go func() {
		done <- run(t.Context(), []string{"bot"}, environ(full), strings.NewReader(""), &bytes.Buffer{}, buf)
	}()
	select {
	case err := <-done:
		return buf.String(), err
	case <-time.After(60 * time.Second):
		t.Fatalf("the bot did not exit by itself\nlogs:\n%s", buf)
		return "", nil
	}
}

// The process lives or dies with its update loop: when the loop cannot go
// on, the bot exits non-zero with a clear log line rather than idling.
func TestUpdateLoopDeathExitsNonZero(t *testing.T) {
	tests := []struct {
		name    string
		fail    func(srv *telegramtest.Server)
		env     map[string]string
		wantErr string
	}{
		{"token revoked while polling (401)", func(srv *telegramtest.Server) {
			srv.FailNext("getUpdates", 1, telegramtest.Failure{Code: http.StatusUnauthorized, Description: "Unauthorized"})
		}, nil, "token refused"},
		{"setWebhook refused", func(srv *telegramtest.Server) {
			srv.FailNext("setWebhook", 1, telegramtest.BadRequest("bad webhook: Failed to resolve host"))
		}, map[string]string{
			"BASHNI_MODE": "webhook", "BASHNI_WEBHOOK_URL": "https://bot.example.org/hook",
			"BASHNI_WEBHOOK_SECRET": "s3cret", "BASHNI_WEBHOOK_LISTEN": "127.0.0.1:0",
		}, "setWebhook"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := telegramtest.New(t)
			tt.fail(srv)
			logs, err := runBot(t, srv, tt.env)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("run returned %v, want an error about %q", err, tt.wantErr)
			}
			if code := exitCode(err, &bytes.Buffer{}); code == 0 {
				t.Errorf("exit status 0, want non-zero")
			}
			if !strings.Contains(logs, "update loop died") {
				t.Errorf("no clear log line says the loop died:\n%s", logs)
			}
			if strings.Contains(logs, srv.Token()) {
				t.Errorf("the token is in the logs:\n%s", logs)
			}
		})
	}
}

// A port in use ends the bot at start, before Telegram is called.
func TestTakenPortExitsAtStart(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	addr := taken.Addr().String()
	for _, tt := range []struct {
		name, want string
		env        map[string]string
	}{
		{"ops", "ops server", map[string]string{"BASHNI_OPS_LISTEN": addr}},
		{"webhook", "webhook server", map[string]string{
			"BASHNI_MODE": "webhook", "BASHNI_WEBHOOK_URL": "https://bot.example.org/hook",
			"BASHNI_WEBHOOK_SECRET": "s3cret", "BASHNI_WEBHOOK_LISTEN": addr,
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			srv := telegramtest.New(t)
			_, err := runBot(t, srv, tt.env)
			if err == nil || !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), "address already in use") {
				t.Errorf("run returned %v, want %q: address already in use", err, tt.want)
			}
			if calls := srv.Calls(); len(calls) != 0 {
				t.Errorf("the Bot API was called %d times (first %s), want none", len(calls), calls[0].Method)
			}
		})
	}
}

// A start that fails part way closes again what it had opened: the ports
// taken before the one in use, and the store, so that the next start (a
// supervisor's restart in the same container) finds them free.
func TestFailedStartReleasesWhatItOpened(t *testing.T) {
	taken, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer taken.Close()
	app := freeAddr(t)
	path := filepath.Join(t.TempDir(), "bashni.db")
	srv := telegramtest.New(t)
	_, err = runBot(t, srv, map[string]string{
		"BASHNI_BOLT_PATH":      path,
		"BASHNI_MINIAPP_URL":    "https://board.example.org/",
		"BASHNI_MINIAPP_NAME":   "board",
		"BASHNI_MINIAPP_LISTEN": app, // taken first, before the ops port
		"BASHNI_OPS_LISTEN":     taken.Addr().String(),
	})
	if err == nil || !strings.Contains(err.Error(), "ops server") {
		t.Fatalf("run returned %v, want the ops port refused", err)
	}
	ln, err := net.Listen("tcp", app)
	if err != nil {
		t.Errorf("the Mini App's port after the failed start: %v", err)
	} else {
		ln.Close()
	}
	st, err := bolt.Open(path, time.Now)
	if err != nil {
		t.Fatalf("the store after the failed start: %v", err)
	}
	st.Close()
}

// /healthz reports the update loop: healthy while it runs and getUpdates
// answers, unhealthy once it stopped or polls have gone unanswered.
func TestHealthzReportsTheLoop(t *testing.T) {
	clock := testkit.NewClock(time.Now())
	health := newLoopHealth(clock.Now, time.Minute)
	h := opsHandler(nil, newMetrics(), health)
	status := func() (int, string) {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/healthz", nil))
		return rec.Code, rec.Body.String()
	}
	steps := []struct {
		name string
		do   func()
		want int
		body string
	}{
		{"starting", func() {}, 200, "ok"},
		{"running", health.running, 200, "ok"},
		{"polls answered", func() { clock.Advance(50 * time.Second); health.polled(nil) }, 200, "ok"},
		{"polls failing", func() { clock.Advance(50 * time.Second); health.polled(errors.New("502")) }, 200, "ok"},
		{"no answer for too long", func() { clock.Advance(20 * time.Second) }, 503, "no answer from getUpdates"},
		{"answered again", func() { health.polled(nil) }, 200, "ok"},
		{"loop stopped", func() { health.stopped(errors.New("updates: token refused")) }, 503, "update loop stopped: updates: token refused"},
	}
	for _, st := range steps {
		st.do()
		code, body := status()
		if code != st.want || !strings.Contains(body, st.body) {
			t.Errorf("%s: /healthz %d %q, want %d %q", st.name, code, body, st.want, st.body)
		}
	}
}

// A store file cut short ends the bot at start with a clear error (not a
// SIGBUS and a stack dump), before Telegram is called.
func TestTruncatedStoreFileExitsClearly(t *testing.T) {
	srv := telegramtest.New(t)
	env := withDefaults(t, srv, nil)
	path := env["BASHNI_BOLT_PATH"]
	st, err := bolt.Open(path, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 20 {
		if err := st.CreateGame(t.Context(), crashGame(i)); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	if err := os.Truncate(path, 8192); err != nil {
		t.Fatal(err)
	}
	_, err = runBot(t, srv, env)
	if err == nil || !strings.Contains(err.Error(), "damaged or cut short") {
		t.Errorf("run returned %v, want the store file called damaged", err)
	}
	if calls := srv.Calls(); len(calls) != 0 {
		t.Errorf("the Bot API was called %d times, want none", len(calls))
	}
}
