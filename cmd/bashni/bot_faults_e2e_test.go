package main

import (
	"strings"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/telegramtest"
)

// startAIGame starts a game against the AI by command and returns the card.
func startAIGame(t *testing.T, srv *telegramtest.Server, u user, args string) telegramtest.Msg {
	t.Helper()
	say(srv, u.chat, u, "/play "+args)
	return waitMessage(t, srv, u.chat.ID, "board card", func(m telegramtest.Msg) bool { return m.Kind == "photo" })
}

// Telegram says 429 during a game: the bot waits retry_after and the card
// still shows the move.
func TestE2ETooManyRequestsDuringGame(t *testing.T) {
	srv := telegramtest.New(t)
	startBot(t, srv, nil)
	alice := newUser(301, "Alice", "en")
	c := startAIGame(t, srv, alice, "1 white")
	waitTurn(t, srv, alice.chat.ID, c.ID)
	srv.FailNext("editMessageMedia", 1, telegramtest.TooManyRequests(1))
	start := time.Now()
	pickFirstMove(t, srv, alice.chat, alice, c.ID)
	after := waitTurn(t, srv, alice.chat.ID, c.ID)
	if !strings.Contains(after.Text, "Last:") {
		t.Errorf("card after the move: %q", after.Text)
	}
	var refused, sent int
	for _, call := range srv.CallsTo("editMessageMedia") {
		if call.Status == 429 {
			refused++
		} else if call.OK() {
			sent++
		}
	}
	// A floor retry_after sets: a busy machine can only widen it.
	if refused != 1 || time.Since(start) < time.Second {
		t.Errorf("429s seen %d (want 1), elapsed %v (want ≥ retry_after 1 s)", refused, time.Since(start))
	}
}

// A restart in the middle of a game loses nothing: the same card's buttons
// work afterwards and the game goes on from where it was.
func TestE2ERestartMidGame(t *testing.T) {
	srv := telegramtest.New(t)
	p := startBot(t, srv, nil)
	alice := newUser(401, "Alice", "en")
	c := startAIGame(t, srv, alice, "2 white")
	for i := 0; i < 3; i++ {
		waitTurn(t, srv, alice.chat.ID, c.ID)
		pickFirstMove(t, srv, alice.chat, alice, c.ID)
	}
	before := waitTurn(t, srv, alice.chat.ID, c.ID)
	p = p.restart()
	pickFirstMove(t, srv, alice.chat, alice, c.ID)
	after := waitTurn(t, srv, alice.chat.ID, c.ID)
	if !strings.Contains(before.Text, "Move 4") || !strings.Contains(after.Text, "Move 5") {
		t.Errorf("before restart %q, after %q: want move 4 then move 5", before.Text, after.Text)
	}
	say(srv, alice.chat, alice, "/games")
	waitMessage(t, srv, alice.chat.ID, "games list", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "1 game in progress") })
	p.stop()
}

// A Russian-speaking user reads Russian, with correct plural forms.
func TestE2ERussianUser(t *testing.T) {
	srv := telegramtest.New(t)
	startBot(t, srv, nil)
	ivan := newUser(501, "Иван", "ru")
	say(srv, ivan.chat, ivan, "/start")
	waitMessage(t, srv, ivan.chat.ID, "Russian greeting", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "Добро пожаловать") })
	c := startAIGame(t, srv, ivan, "1 white")
	if !strings.Contains(c.Text, "ходят белые") || !strings.Contains(c.Text, "🤖 Новичок (1)") {
		t.Errorf("Russian caption %q, want the AI named in Russian", c.Text)
	}
	say(srv, ivan.chat, ivan, "/games")
	waitMessage(t, srv, ivan.chat.ID, "games list", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "1 текущая партия") })
	say(srv, ivan.chat, ivan, "c3-c5")
	waitMessage(t, srv, ivan.chat.ID, "illegal move in Russian", func(m telegramtest.Msg) bool {
		return strings.Contains(m.Text, "Башня с c3 так не ходит.") && strings.Contains(m.Text, "Возможные ходы")
	})
	resign(t, srv, ivan.chat, ivan)
	waitMessage(t, srv, ivan.chat.ID, "result in Russian", func(m telegramtest.Msg) bool {
		return strings.Contains(m.Text, "Партия окончена") && strings.Contains(m.Text, "Партия длилась 0 ходов")
	})
	// The command menu is registered in both languages.
	var langs []string
	for _, call := range srv.CallsTo("setMyCommands") {
		langs = append(langs, call.Params["language_code"])
	}
	if len(langs) != 2 {
		t.Errorf("setMyCommands for languages %q, want default and ru", langs)
	}
}
