package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bashni/bashni/bot/telegram/updates"
	"github.com/bashni/bashni/internal/telegramtest"
)

// metricValue reads one series from a /metrics text (0 when absent).
func metricValue(t *testing.T, metrics, series string) float64 {
	t.Helper()
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(series) + ` (\S+)$`).FindStringSubmatch(metrics)
	if m == nil {
		return 0
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		t.Fatalf("%s: %v", series, err)
	}
	return v
}

// A slow body without the secret (one byte, the rest never sent) is
// answered 401 and its connection closed at once: it holds nothing.
func TestE2EWebhookSlowBodyWithoutSecretIsClosed(t *testing.T) {
	srv := telegramtest.New(t)
	hookAddr, opsAddr := freeAddr(t), freeAddr(t)
	startBotWebhook(t, srv, hookAddr, opsAddr)
	conn, err := net.Dial("tcp", hookAddr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "POST /tg/hook HTTP/1.1\r\nHost: bot\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("answered %d, want 401", resp.StatusCode)
	}
	if _, err := io.ReadAll(br); err != nil { // returns when the server closes its end
		t.Errorf("reading to the end: %v", err)
	}
	t.Logf("answered and closed after %v, 99,999 bytes of the body never sent", time.Since(start))
	_, metrics := get(t, "http://"+opsAddr+"/metrics")
	if v := metricValue(t, metrics, `bashni_http_refused_total{reason="secret",server="webhook"}`); v != 1 {
		t.Errorf("refused requests counted %v, want 1", v)
	}
}

// 3,000 connections that never send a byte do not keep a real update out:
// the webhook holds at most 1,000 connections, closing the oldest quiet
// one for each new one, and the update is handled.
func TestE2EWebhookIdleConnectionFlood(t *testing.T) {
	if testing.Short() {
		t.Skip("opens 3,000 connections")
	}
	srv := telegramtest.New(t)
	hookAddr, opsAddr := freeAddr(t), freeAddr(t)
	p := startBotWebhook(t, srv, hookAddr, opsAddr)
	const idle = 3000
	conns := make([]net.Conn, 0, idle)
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for range idle {
		c, err := net.Dial("tcp", hookAddr)
		if err != nil {
			t.Fatalf("connection %d: %v", len(conns), err)
		}
		conns = append(conns, c)
	}

	alice := newUser(931, "Alice", "en")
	u := srv.TextMessage(alice.chat, alice.u, "/start")
	u.UpdateID = 931001
	body, _ := json.Marshal(u)
	req, _ := http.NewRequest(http.MethodPost, "http://"+hookAddr+"/tg/hook", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set(updates.SecretHeader, "s3cret-token")
	client := &http.Client{Timeout: 30 * time.Second} // a bound for a broken server, not a measurement
	start := time.Now()
	resp, err := client.Do(req)
	if err != nil {
		t.Fatalf("a real update behind %d idle connections: %v", idle, err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("a real update behind %d idle connections: status %d", idle, resp.StatusCode)
	}
	t.Logf("a real update behind %d idle connections handled in %v", idle, time.Since(start))
	waitMessage(t, srv, alice.chat.ID, "greeting", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "Welcome") })

	_, metrics := get(t, "http://"+opsAddr+"/metrics")
	held := metricValue(t, metrics, `bashni_http_connections{server="webhook"}`)
	closed := metricValue(t, metrics, `bashni_http_refused_total{reason="connections",server="webhook"}`)
	if held > float64(webhookLimits.MaxConns) {
		t.Errorf("the webhook holds %v connections, want at most %d", held, webhookLimits.MaxConns)
	}
	if closed < idle-float64(webhookLimits.MaxConns) {
		t.Errorf("%v idle connections closed to make room, want at least %d", closed, idle-webhookLimits.MaxConns)
	}
	t.Logf("held %v connections, closed %v idle ones", held, closed)
	// Logged, but not once per connection: at most once a minute.
	if n := strings.Count(p.logs.String(), "connections closed to stay within the bound"); n < 1 || n > 100 {
		t.Errorf("%d log lines about %v closed connections, want a few", n, closed)
	}
}
