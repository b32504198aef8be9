package main

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/miniapp"
)

// With the Mini App configured, `bashni bot` serves the page, every card
// has its "Open board" link, and the API answers a signed request.
func TestE2EMiniApp(t *testing.T) {
	srv := telegramtest.New(t)
	addr := freeAddr(t)
	p := startBotNoWait(t, srv, map[string]string{
		"BASHNI_MINIAPP_URL":    "https://board.example.org/",
		"BASHNI_MINIAPP_NAME":   "board",
		"BASHNI_MINIAPP_LISTEN": addr,
		"BASHNI_LOG_LEVEL":      "info", // for the "listening" line
	})
	waitListening(t, p.logs, "miniapp")
	alice := newUser(961, "Alice", "en")
	card := startAIGame(t, srv, alice, "1 white")
	var link string
	for _, row := range card.ReplyMarkup.InlineKeyboard {
		for _, b := range row {
			if b.URL != nil {
				link = *b.URL
			}
		}
	}
	game, ok := strings.CutPrefix(link, "https://t.me/"+srv.Bot().UserName+"/board?startapp=")
	if !ok || game == "" {
		t.Fatalf("the card has no Open board link: %+v", card.ReplyMarkup)
	}

	code, page := get(t, "http://"+addr+"/")
	if code != http.StatusOK || !strings.Contains(page, "app.js") {
		t.Fatalf("GET /: %d %.80q", code, page)
	}
	auth := miniapp.SignUser(srv.Token(), miniapp.User{ID: alice.u.ID, FirstName: "Alice"}, game, time.Now())
	for _, tc := range []struct {
		auth string
		want int
	}{{auth, http.StatusOK}, {auth + "0", http.StatusUnauthorized}} {
		req, _ := http.NewRequest("GET", "http://"+addr+"/api/games/"+game, nil)
		req.Header.Set("Authorization", "tma "+tc.auth)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Fatalf("GET /api/games/%s: %d, want %d: %s", game, resp.StatusCode, tc.want, body)
		}
		if tc.want == http.StatusOK {
			var st struct {
				You string `json:"you"`
				Ply int    `json:"ply"`
			}
			if err := json.Unmarshal(body, &st); err != nil || st.You != "w" {
				t.Errorf("state %s: you %q (%v); want w", body, st.You, err)
			}
			t.Logf("game %s at ply %s", game, strconv.Itoa(st.Ply))
		}
	}
}

// The Mini App's settings come both or neither, and the page is https.
func TestMiniAppConfig(t *testing.T) {
	for _, tc := range []struct {
		env  map[string]string
		okay bool
	}{
		{map[string]string{}, true},
		{map[string]string{"BASHNI_MINIAPP_URL": "https://b.example.org/", "BASHNI_MINIAPP_NAME": "board"}, true},
		{map[string]string{"BASHNI_MINIAPP_URL": "https://b.example.org/"}, false},
		{map[string]string{"BASHNI_MINIAPP_NAME": "board"}, false},
		{map[string]string{"BASHNI_MINIAPP_URL": "http://b.example.org/", "BASHNI_MINIAPP_NAME": "board"}, false},
		{map[string]string{"BASHNI_MINIAPP_URL": "https://b.example.org/", "BASHNI_MINIAPP_NAME": "bot/board"}, false},
	} {
		_, err := loadConfig("", func(k string) string { return tc.env[k] })
		if (err == nil) != tc.okay {
			t.Errorf("%v: err %v, want ok %v", tc.env, err, tc.okay)
		}
	}
}
