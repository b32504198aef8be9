package main

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/miniapp"
)

// One user opening 1,000 event streams of a game (as many as the server
// holds connections) does not lock anyone out: a user's fifth stream ends
// their oldest, and the page, the API and another user's stream are
// served beside them.
func TestE2EMiniAppStreamFlood(t *testing.T) {
	if testing.Short() {
		t.Skip("opens 1,000 streams")
	}
	srv := telegramtest.New(t)
	addr := freeAddr(t)
	p := startBot(t, srv, map[string]string{
		"BASHNI_MINIAPP_URL":    "https://board.example.org/",
		"BASHNI_MINIAPP_NAME":   "board",
		"BASHNI_MINIAPP_LISTEN": addr,
		"BASHNI_LOG_LEVEL":      "info", // for the "listening" line
	})
	waitListening(t, p.logs, "miniapp")
	alice, bob := newUser(971, "Alice", "en"), newUser(972, "Bob", "en")
	card := startAIGame(t, srv, alice, "1 white")
	var game string
	for _, row := range card.ReplyMarkup.InlineKeyboard {
		for _, b := range row {
			if b.URL != nil {
				game, _ = strings.CutPrefix(*b.URL, "https://t.me/"+srv.Bot().UserName+"/board?startapp=")
			}
		}
	}
	if game == "" {
		t.Fatalf("no Open board link on the card")
	}
	stream := func(u user) (net.Conn, string) {
		t.Helper()
		c, err := net.Dial("tcp", addr)
		if err != nil {
			return nil, err.Error()
		}
		auth := miniapp.SignUser(srv.Token(), miniapp.User{ID: u.u.ID, FirstName: u.u.FirstName}, game, time.Now())
		fmt.Fprintf(c, "GET /api/games/%s/events HTTP/1.1\r\nHost: %s\r\nAuthorization: tma %s\r\n\r\n", game, addr, auth)
		_ = c.SetReadDeadline(time.Now().Add(30 * time.Second)) // a bound for a broken server, not a measurement
		status, err := bufio.NewReader(c).ReadString('\n')
		_ = c.SetReadDeadline(time.Time{})
		if err != nil {
			c.Close()
			return nil, err.Error()
		}
		return c, strings.TrimSpace(status)
	}
	flood := miniappLimits.MaxConns
	conns := make([]net.Conn, 0, flood)
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for i := range flood {
		c, status := stream(alice)
		if c == nil {
			t.Fatalf("stream %d: %s", i, status)
		}
		conns = append(conns, c)
	}
	code, page := get(t, "http://"+addr+"/")
	if code != http.StatusOK || !strings.Contains(page, "app.js") {
		t.Errorf("the page beside %d streams of one user: %d", flood, code)
	}
	c, status := stream(bob)
	if c == nil || status != "HTTP/1.1 200 OK" {
		t.Errorf("another user's stream beside %d streams of one user: %s", flood, status)
	}
	if c != nil {
		c.Close()
	}
}
