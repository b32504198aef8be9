package main

import (
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/miniapp"
)

// A game started in the Mini App's lobby is a game of the chat too: the
// bot posts its card in the player's private chat, under the rules chosen
// in the app, with the Open board link to it; the AI, playing White, moves
// once the card is there, and the card shows the move.
func TestE2EMiniAppLobbyGamePostsItsCard(t *testing.T) {
	srv := telegramtest.New(t)
	addr := freeAddr(t)
	p := startBotNoWait(t, srv, map[string]string{
		"BASHNI_MINIAPP_URL":    "https://board.example.org/",
		"BASHNI_MINIAPP_NAME":   "board",
		"BASHNI_MINIAPP_LISTEN": addr,
		"BASHNI_LOG_LEVEL":      "info", // for the "listening" line
	})
	waitListening(t, p.logs, "miniapp")
	dana := newUser(971, "Dana", "en")
	auth := miniapp.SignUser(srv.Token(), miniapp.User{ID: dana.u.ID, FirstName: "Dana", LanguageCode: "en"}, "", time.Now())

	post := func(body string) (int, []byte) {
		req, _ := http.NewRequest("POST", "http://"+addr+"/api/lobby/ai", strings.NewReader(body))
		req.Header.Set("Authorization", "tma "+auth)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, data
	}
	if code, body := post(`{"rules":"checkers","level":1,"color":"black"}`); code != http.StatusUnprocessableEntity {
		t.Errorf("unknown rules: %d %s; want 422", code, body)
	}
	code, body := post(`{"rules":"russian","level":1,"color":"black"}`)
	var st struct {
		ID  string `json:"id"`
		You string `json:"you"`
	}
	if err := json.Unmarshal(body, &st); code != http.StatusOK || err != nil || st.ID == "" || st.You != "b" {
		t.Fatalf("POST /api/lobby/ai: %d %s (%v)", code, body, err)
	}
	link := "https://t.me/" + srv.Bot().UserName + "/board?startapp=" + st.ID
	hasLink := func(m telegramtest.Msg) bool {
		if m.ReplyMarkup == nil {
			return false
		}
		for _, row := range m.ReplyMarkup.InlineKeyboard {
			for _, b := range row {
				if b.URL != nil && *b.URL == link {
					return true
				}
			}
		}
		return false
	}
	card := waitMessage(t, srv, dana.chat.ID, "the card of the game started in the app", func(m telegramtest.Msg) bool {
		return m.Kind == "photo" && hasLink(m)
	})
	if !strings.Contains(card.Text, "Russian draughts") {
		t.Errorf("the card does not say the rules: %q", card.Text)
	}
	// The AI's first move, on that card.
	move := regexp.MustCompile(`\b[a-h][1-8][-:][a-h][1-8]`)
	waitMessage(t, srv, dana.chat.ID, "the card showing the AI's first move", func(m telegramtest.Msg) bool {
		return m.ID == card.ID && m.Edits > 0 && move.MatchString(m.Text)
	})
	n := 0
	for _, m := range srv.Messages(dana.chat.ID) {
		if m.Kind == "photo" {
			n++
		}
	}
	if n != 1 {
		t.Errorf("%d cards in Dana's chat; want the one (the refused request posts none)", n)
	}
}
