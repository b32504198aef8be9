package main

import (
	"bytes"
	"image/png"
	"strings"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/telegramtest"
)

// What a player sees of the game so far: both players' last moves on the
// card, /moves, why a typed move is refused, and a final image that says
// the game is over. In English and in Russian.
func TestE2ESeeTheGameSoFar(t *testing.T) {
	for _, tc := range []struct {
		lang, last, moves, light, noTower, notYours, capture string
	}{
		{"en", "Last: ", "Moves so far", "h3 is a light square", "There is no tower on a5", "The tower on b6 is not yours", "Capturing is compulsory"},
		{"ru", "Последний ход: ", "Ходы партии", "h3 — светлое поле", "На a5 нет башни", "Башня на b6 не ваша", "Бить обязательно"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			srv := telegramtest.New(t)
			startBot(t, srv, nil)
			group := telegramtest.GroupChat(-1005555500051, "Club")
			alice, bob := newUser(9511, "Alice", tc.lang), newUser(9512, "Bob", tc.lang)
			c := startGroupGame(t, srv, group, alice, bob)

			say(srv, group, alice, "/m c3-d4")
			say(srv, group, bob, "/m f6-e5")
			// The group has chosen no language, and both players speak
			// tc.lang: the card is in it (docs/playing.md).
			waitMessage(t, srv, group.ID, "both last moves on the card", func(m telegramtest.Msg) bool {
				return m.ID == c.ID && lastLine(m.Text) == tc.last+"1. c3-d4 f6-e5"
			})
			say(srv, group, alice, "/moves")
			waitMessage(t, srv, group.ID, "the moves so far", func(m telegramtest.Msg) bool {
				return strings.Contains(m.Text, tc.moves) && strings.Contains(m.Text, "1. c3-d4 f6-e5")
			})
			for _, e := range []struct{ move, want string }{
				{"h2-h3", tc.light}, {"a5-b6", tc.noTower}, {"b6-a5", tc.notYours}, {"a3-b4", tc.capture},
			} {
				say(srv, group, alice, "/m "+e.move)
				waitMessage(t, srv, group.ID, "why "+e.move+" is refused", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, e.want) })
			}

			resign(t, srv, group, alice)
			final := waitMessage(t, srv, group.ID, "the final card", func(m telegramtest.Msg) bool { return m.ID == c.ID && gameOver(m) })
			img, err := png.Decode(bytes.NewReader(final.Data))
			if err != nil {
				t.Fatal(err)
			}
			// The strip under the board says "game over".
			if b := img.Bounds(); b.Dy() <= b.Dx() {
				t.Errorf("the final image is %v: no strip under the board", b)
			}
		})
	}
}

// A game the AI starts shows that it is thinking on the very first card.
func TestE2EThinkingLineWhenTheAIMovesFirst(t *testing.T) {
	for _, tc := range []struct{ lang, thinking string }{{"en", "thinking…"}, {"ru", "думает…"}} {
		t.Run(tc.lang, func(t *testing.T) {
			srv := telegramtest.New(t)
			startBot(t, srv, nil)
			alice := newUser(9521, "Alice", tc.lang)
			say(srv, alice.chat, alice, "/play 1 black")
			first := srv.WaitFor(t, 10*time.Second, func(c telegramtest.Call) bool { return c.Method == "sendPhoto" })
			if !strings.Contains(first.Text(), tc.thinking) {
				t.Errorf("the first card says %q; want a line saying the AI is thinking", first.Text())
			}
		})
	}
}

// A turn notice by DM that Telegram refuses (403) is sent as a mention in
// the group instead: the turn is never unannounced.
func TestE2EForbiddenNoticeFallsBackToTheGroup(t *testing.T) {
	srv := telegramtest.New(t)
	startBot(t, srv, nil)
	group := telegramtest.GroupChat(-1005555500052, "Club")
	alice, bob := newUser(9531, "Alice", "en"), newUser(9532, "Bob", "en")
	// Bob started the bot once, so notices go to him by DM…
	say(srv, bob.chat, bob, "/start")
	waitMessage(t, srv, bob.chat.ID, "greeting", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "Welcome") })
	startGroupGame(t, srv, group, alice, bob)
	// …but has blocked it since.
	srv.FailWhen(func(c telegramtest.Call) bool { return c.Method == "sendMessage" && c.ChatID() == bob.u.ID }, telegramtest.Forbidden())
	say(srv, group, alice, "/m c3-d4")
	srv.WaitFor(t, 10*time.Second, func(c telegramtest.Call) bool {
		return c.Method == "sendMessage" && c.ChatID() == group.ID && c.OK() && strings.Contains(c.Params["text"], "tg://user?id=9532")
	})
}

// A player who has not moved within the notice delay is told, once; the
// mention goes when they move.
func TestE2ENoticeForAPlayerWhoIsAway(t *testing.T) {
	srv := telegramtest.New(t)
	startBot(t, srv, map[string]string{"BASHNI_NOTICE_DELAY": "200ms", "BASHNI_CLOCK_INTERVAL": "50ms"})
	group := telegramtest.GroupChat(-1005555500053, "Club")
	alice, bob := newUser(9541, "Alice", "en"), newUser(9542, "Bob", "en")
	startGroupGame(t, srv, group, alice, bob)
	say(srv, group, alice, "/m c3-d4")
	// Bob is away: after the delay he is mentioned.
	notice := srv.WaitFor(t, 10*time.Second, func(c telegramtest.Call) bool {
		return c.Method == "sendMessage" && c.ChatID() == group.ID && c.OK() && strings.Contains(c.Params["text"], "tg://user?id=9542")
	})
	if !strings.Contains(notice.Text(), "c3-d4") {
		t.Errorf("the notice %q does not say the last move", notice.Text())
	}
	say(srv, group, bob, "/m f6-e5")
	srv.WaitFor(t, 10*time.Second, func(c telegramtest.Call) bool {
		return c.Method == "deleteMessage" && c.ChatID() == group.ID && c.OK()
	})
	mentions := 0
	for _, c := range srv.CallsTo("sendMessage") {
		if c.ChatID() == group.ID && strings.Contains(c.Params["text"], "tg://user?id=9542") {
			mentions++
		}
	}
	if mentions != 1 {
		t.Errorf("Bob was mentioned %d times; want once", mentions)
	}
}
