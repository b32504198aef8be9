package main

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/miniapp"
)

// A private game against the AI (level 18) in a chat that holds another
// game in progress: Alice types c3-d4 as a reply to the new game's card,
// the bot is killed (SIGKILL) as soon as the live board's API shows the
// move stored, before the AI answers, and a new process starts on the
// same bbolt file. The card shows the AI's answer.
func TestCrashAfterATypedMoveTheCardShowsTheAIsAnswer(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the bot as a child process twice")
	}
	srv := telegramtest.New(t)
	app := freeAddr(t)
	env := withDefaults(t, srv, map[string]string{
		"BASHNI_AI_MAX_NODES": "0", // level 18's own budget: it thinks long enough to be killed
		// As the review ran it: the clock, the turn notices and Telegram's
		// pace at their defaults (the harness speeds them up).
		"BASHNI_CLOCK_INTERVAL": "15s",
		"BASHNI_NOTICE_DELAY":   "45s",
		"BASHNI_RATE_PER_CHAT":  "1",
		"BASHNI_RATE_PER_GROUP": "20",
		"BASHNI_RATE_GLOBAL":    "30",
		"BASHNI_MINIAPP_URL":    "https://board.example.org/",
		"BASHNI_MINIAPP_NAME":   "board",
		"BASHNI_MINIAPP_LISTEN": app,
		"BASHNI_LOG_LEVEL":      "info", // for the "listening" line
	})
	alice := newUser(9701, "Alice", "en")
	first := startChild(t, env)
	waitListening(t, first.logs, "miniapp")

	// The older game, in progress: Alice has moved and the AI answered.
	say(srv, alice.chat, alice, "/play 1 white")
	old := waitMessageWithin(t, srv, alice.chat.ID, 30*time.Second, "the first card", func(m telegramtest.Msg) bool { return m.Kind == "photo" })
	srv.PushUpdate(srv.ReplyMessage(alice.chat, alice.u, old.ID, "c3-d4"))
	waitMessageWithin(t, srv, alice.chat.ID, 60*time.Second, "the first game's answer", func(m telegramtest.Msg) bool {
		return m.ID == old.ID && strings.Contains(m.Text, "Move 2 · White to move")
	})
	say(srv, alice.chat, alice, "/play 18 white")
	card := waitMessageWithin(t, srv, alice.chat.ID, 30*time.Second, "the new card", func(m telegramtest.Msg) bool { return m.Kind == "photo" && m.ID != old.ID })
	var game string
	for _, row := range card.ReplyMarkup.InlineKeyboard {
		for _, b := range row {
			if b.URL != nil {
				game, _ = strings.CutPrefix(*b.URL, "https://t.me/"+srv.Bot().UserName+"/board?startapp=")
			}
		}
	}
	auth := miniapp.SignUser(srv.Token(), miniapp.User{ID: alice.u.ID, FirstName: "Alice"}, game, time.Now())
	ply1 := func() bool {
		req, _ := http.NewRequest("GET", "http://"+app+"/api/games/"+game, nil)
		req.Header.Set("Authorization", "tma "+auth)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return false
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return strings.Contains(string(body), `"ply":1,`)
	}

	// The card is recorded as the game's just after Telegram took it; a
	// reply that comes before is asked which game it is for, and sent again.
	for asked := 0; ; {
		srv.PushUpdate(srv.ReplyMessage(alice.chat, alice.u, card.ID, "c3-d4"))
		moved := false
		srv.WaitUntil(30*time.Second, func() bool {
			if ply1() {
				moved = true
				return true
			}
			n := 0
			for _, m := range srv.Messages(alice.chat.ID) {
				if strings.Contains(m.Text, "several games") {
					n++
				}
			}
			return n > asked
		})
		if moved {
			break
		}
		if asked++; asked > 20 {
			t.Fatalf("the move was never stored; calls %v", srv.Calls())
		}
	}
	first.kill(t)
	before := len(srv.Calls())
	killed := time.Now()

	second := startChild(t, env)
	defer func() { t.Logf("after %v, calls since the kill %v", time.Since(killed), srv.Calls()[before:]) }()
	waitMessageWithin(t, srv, alice.chat.ID, 90*time.Second, "the AI's answer on the card", func(m telegramtest.Msg) bool {
		return m.ID == card.ID && strings.Contains(m.Text, "Move 2 · White to move") && len(buttons(m)) > 1
	})
	second.stop(t)
}
