package updates_test

import (
	"bufio"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/bashni/bashni/bot/telegram/updates"
	"github.com/bashni/bashni/internal/testkit"
)

// Refused requests are counted each, and logged at most once a minute
// with how many there were: a flood of wrong secrets cannot flood the log.
func TestWebhookRefusalsAreCountedAndLoggedRateLimited(t *testing.T) {
	clock := testkit.NewClock(time.Now())
	logs := &testkit.Buffer{}
	var counted atomic.Int32
	wh := updates.WebhookHandler(secret, newRecorder().handle, updates.WebhookOptions{
		Logger: logger(logs), Now: clock.Now,
		OnRefused: func(reason string) {
			if reason == "secret" {
				counted.Add(1)
			}
		},
	})
	refuse := func() {
		rec := httptest.NewRecorder()
		req := httptest.NewRequest(http.MethodPost, "/hook", strings.NewReader("{}"))
		req.Header.Set(updates.SecretHeader, "wrong")
		wh.ServeHTTP(rec, req)
		if rec.Code != http.StatusUnauthorized {
			t.Fatalf("wrong secret answered %d, want 401", rec.Code)
		}
	}
	for range 20 {
		refuse()
	}
	if n := strings.Count(logs.String(), "webhook requests refused"); n != 1 {
		t.Errorf("20 refusals within a minute logged %d lines, want 1:\n%s", n, logs)
	}
	clock.Advance(time.Minute)
	refuse()
	if n := strings.Count(logs.String(), "webhook requests refused"); n != 2 {
		t.Errorf("a refusal a minute later: %d lines, want 2:\n%s", n, logs)
	}
	if !strings.Contains(logs.String(), "refused=20") {
		t.Errorf("the second line does not count the 20 refusals since the first:\n%s", logs)
	}
	if n := counted.Load(); n != 21 {
		t.Errorf("OnRefused heard %d wrong secrets, want 21", n)
	}
}

// A request without the secret is answered and its connection closed at
// once, its body never read: a slow body cannot hold the connection.
func TestWebhookClosesASlowBodyWithoutTheSecret(t *testing.T) {
	wh := updates.WebhookHandler(secret, newRecorder().handle, updates.WebhookOptions{Logger: logger(&testkit.Buffer{})})
	plain := httptest.NewServer(wh)
	defer plain.Close()
	conn, err := net.Dial("tcp", plain.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// 1000 bytes announced, one sent; the rest never comes.
	if _, err := io.WriteString(conn, "POST /hook HTTP/1.1\r\nHost: bot\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized || !resp.Close {
		t.Errorf("answered %d (close %v), want 401 and the connection closed", resp.StatusCode, resp.Close)
	}
	// The server closes its end without waiting for the body.
	if _, err := io.ReadAll(br); err != nil {
		t.Errorf("reading to the end: %v", err)
	}
}
