package main

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/miniapp"
	"github.com/bashni/bashni/storage/redis/redistest"
)

// A move made in the Mini App on replica A, which is killed while the
// AI thinks and before the card could be edited: the card is edited and
// the AI's answer arrives through replica B, with nobody touching the
// game.
func TestMiniAppMoveGoesOnAfterItsReplicaDies(t *testing.T) {
	if testing.Short() {
		t.Skip("starts two bots as child processes")
	}
	rds := redistest.Start(t)
	srv := telegramtest.New(t)
	const secret = "miniapp-crash-secret"
	replica := func() (*childBot, string, string) {
		app := freeAddr(t)
		c, hook := startWebhookChild(t, srv, rds.URL(), secret, map[string]string{
			"BASHNI_MINIAPP_URL":    "https://board.example.org/",
			"BASHNI_MINIAPP_NAME":   "board",
			"BASHNI_MINIAPP_LISTEN": app,
			"BASHNI_AI_MAX_NODES":   "0", // level 18's own budget: it thinks long enough to be killed
			"BASHNI_CLOCK_INTERVAL": "1s",
		})
		waitListening(t, c.logs, "miniapp")
		return c, hook, "http://" + app
	}
	a, hookA, appA := replica()
	b, _, _ := replica()

	alice := newUser(9601, "Alice", "en")
	resp, err := srv.DeliverWebhook(t.Context(), hookA, secret, srv.TextMessage(alice.chat, alice.u, "/play 18 white"))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	c := waitMessage(t, srv, alice.chat.ID, "board card", func(m telegramtest.Msg) bool { return m.Kind == "photo" && m.ReplyMarkup != nil })
	var game string
	for _, row := range c.ReplyMarkup.InlineKeyboard {
		for _, btn := range row {
			if btn.URL != nil {
				game, _ = strings.CutPrefix(*btn.URL, "https://t.me/"+srv.Bot().UserName+"/board?startapp=")
			}
		}
	}
	if game == "" {
		t.Fatalf("the card has no Open board link")
	}

	// A cannot edit the card before it dies.
	held, release := srv.HoldWhen(func(call telegramtest.Call) bool {
		return strings.HasPrefix(call.Method, "editMessage") && call.ChatID() == alice.chat.ID
	})
	auth := miniapp.SignUser(srv.Token(), miniapp.User{ID: alice.u.ID, FirstName: "Alice"}, game, time.Now())
	req, _ := http.NewRequest("POST", appA+"/api/games/"+game+"/move", strings.NewReader(`{"ply":0,"move":"c3-d4"}`))
	req.Header.Set("Authorization", "tma "+auth)
	req.Header.Set("Content-Type", "application/json")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("the move in the Mini App: %d", resp.StatusCode)
	}
	// The move is stored, with the AI's turn owed, before its card edit
	// goes out: once A tries to edit the card, killing A leaves B both
	// the edit and the AI's move to take over. ("typing" is no sign: it
	// follows the held "thinking" board, so it never comes here.)
	select {
	case <-held:
	case <-time.After(30 * time.Second):
		t.Fatal("replica A never tried to edit the card after the move")
	}
	a.kill(t)
	release()
	killed := time.Now()

	waitMessageWithin(t, srv, alice.chat.ID, 90*time.Second, "the AI's answer on the card", func(m telegramtest.Msg) bool {
		return m.ID == c.ID && m.Edits > 0 && strings.Contains(m.Text, "Move 2 · White to move") && len(buttons(m)) > 1
	})
	t.Logf("the card showed the AI's answer %v after replica A was killed", time.Since(killed).Round(time.Millisecond))
	b.stop(t)
}
