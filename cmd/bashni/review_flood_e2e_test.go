package main

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/miniapp"
)

// One user asking for the analysis of many finished games at once gets
// their share of the review queue (2), each admitted review finishes, and
// the rest are refused with the reason, at once; nothing fails for
// everyone.
func TestE2EReviewFloodFromOneUser(t *testing.T) {
	srv := telegramtest.New(t)
	addr := freeAddr(t)
	p := startBot(t, srv, map[string]string{
		"BASHNI_MINIAPP_URL":    "https://board.example.org/",
		"BASHNI_MINIAPP_NAME":   "board",
		"BASHNI_MINIAPP_LISTEN": addr,
		"BASHNI_LOG_LEVEL":      "info", // for the "listening" line
	})
	waitListening(t, p.logs, "miniapp")
	const games = 6
	ids := make([]string, games)
	for i := range ids {
		u := newUser(int64(981+i), "Player", "en")
		c := startAIGame(t, srv, u, "1 white")
		for _, row := range c.ReplyMarkup.InlineKeyboard {
			for _, b := range row {
				if b.URL != nil {
					ids[i], _ = strings.CutPrefix(*b.URL, "https://t.me/"+srv.Bot().UserName+"/board?startapp=")
				}
			}
		}
		resign(t, srv, u.chat, u)
		waitMessage(t, srv, u.chat.ID, "finished card", func(m telegramtest.Msg) bool { return m.ID == c.ID && gameOver(m) })
	}
	mallory := miniapp.User{ID: 999, FirstName: "Mallory", LanguageCode: "en"}
	ask := func(id string) (int, string) {
		req, _ := http.NewRequest("POST", "http://"+addr+"/api/games/"+id+"/analysis", nil)
		req.Header.Set("Authorization", "tma "+miniapp.SignUser(srv.Token(), mallory, id, time.Now()))
		client := &http.Client{Timeout: 60 * time.Second} // a bound for a broken server, not a measurement
		resp, err := client.Do(req)
		if err != nil {
			return 0, err.Error()
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	codes := make([]int, games)
	bodies := make([]string, games)
	var wg sync.WaitGroup
	for i, id := range ids {
		wg.Go(func() { codes[i], bodies[i] = ask(id) })
	}
	wg.Wait()
	admitted := []string{}
	for i, code := range codes {
		switch code {
		case http.StatusOK, http.StatusAccepted:
			admitted = append(admitted, ids[i])
		case http.StatusTooManyRequests:
			var eb struct{ Error string }
			if json.Unmarshal([]byte(bodies[i]), &eb) != nil || !strings.Contains(eb.Error, "as many analyses queued") {
				t.Errorf("a refused review says %q", bodies[i])
			}
		default:
			t.Errorf("review %d: %d %s", i, code, bodies[i])
		}
	}
	if len(admitted) != 2 {
		t.Fatalf("%d of %d reviews admitted for one user (%v); want 2", len(admitted), games, codes)
	}
	// Each admitted review finishes: asked again (as the page does), 200.
	finished := func(id string) {
		t.Helper()
		for range 30 { // each request waits for the review up to 20 s: a bound, not a measurement
			code, body := ask(id)
			if code == http.StatusOK {
				return
			}
			if code != http.StatusAccepted {
				t.Fatalf("review of %s: %d %s", id, code, body)
			}
		}
		t.Fatalf("review of %s never finished", id)
	}
	for _, id := range admitted {
		finished(id)
	}
	// And the user's share is free again.
	rest := ""
	for _, id := range ids {
		if id != admitted[0] && id != admitted[1] {
			rest = id
			break
		}
	}
	finished(rest)
}
