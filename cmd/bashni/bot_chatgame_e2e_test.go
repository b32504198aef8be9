package main

import (
	"strings"
	"testing"

	"github.com/bashni/bashni/internal/telegramtest"
)

// Commands in the bot's private chat act on the games of that chat, even
// when the player also has games in groups; a typed move replying to an
// old board is still answered. In English and in Russian.
func TestE2EPrivateCommandsActOnTheChatsOwnGame(t *testing.T) {
	for _, tc := range []struct {
		lang, declines string
	}{
		{"en", "The AI declines the draw"},
		{"ru", "ИИ отказывается от ничьей"},
	} {
		t.Run(tc.lang, func(t *testing.T) {
			srv := telegramtest.New(t)
			startBot(t, srv, nil)
			group := telegramtest.GroupChat(-1005555500031, "Club")
			alice, bob := newUser(9311, "Alice", tc.lang), newUser(9312, "Bob", tc.lang)

			// A game in the group…
			startGroupGame(t, srv, group, alice, bob)
			// …and one against the AI in Alice's private chat.
			say(srv, alice.chat, alice, "/play 1 white")
			c := waitMessage(t, srv, alice.chat.ID, "private card", func(m telegramtest.Msg) bool { return m.Kind == "photo" })
			waitTurn(t, srv, alice.chat.ID, c.ID)

			// /draw and /board there are about the private game: no question.
			say(srv, alice.chat, alice, "/draw")
			waitMessage(t, srv, alice.chat.ID, "the AI's answer to /draw", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, tc.declines) })
			say(srv, alice.chat, alice, "/board")
			c2 := waitMessage(t, srv, alice.chat.ID, "the card posted again", func(m telegramtest.Msg) bool { return m.Kind == "photo" && m.ID != c.ID })
			// A move typed in the chat is played in its game.
			say(srv, alice.chat, alice, "c3-d4")
			waitMessage(t, srv, alice.chat.ID, "the move on the card", func(m telegramtest.Msg) bool {
				return m.ID == c2.ID && strings.Contains(m.Text, "c3-d4")
			})
			waitTurn(t, srv, alice.chat.ID, c2.ID)
			// A move replying to the old card is answered, not dropped.
			before := len(srv.Messages(alice.chat.ID))
			srv.PushUpdate(srv.ReplyMessage(alice.chat, alice.u, c.ID, "h2-h3"))
			waitMessage(t, srv, alice.chat.ID, "an answer to the move on the old card", func(m telegramtest.Msg) bool {
				return m.FromBot && m.Kind == "text" && m.ReplyTo != 0 && m.ID > before
			})
			for _, m := range srv.Messages(alice.chat.ID) {
				if strings.Contains(m.Text, "several games") || strings.Contains(m.Text, "несколько партий") {
					t.Errorf("the bot asked which game: %q", m.Text)
				}
			}
		})
	}
}

// /board right after a game starts: one live card, the older loses its
// picker, however the two posts and their bookkeeping interleave.
func TestE2EBoardRightAfterTheStartLeavesOneLiveCard(t *testing.T) {
	srv := telegramtest.New(t)
	startBot(t, srv, nil)
	group := telegramtest.GroupChat(-1005555500032, "Club")
	alice, bob := newUser(9321, "Alice", "en"), newUser(9322, "Bob", "en")
	say(srv, group, alice, "/challenge white")
	ch := waitMessage(t, srv, group.ID, "challenge", func(m telegramtest.Msg) bool { return len(buttons(m)) > 0 })
	srv.PushUpdate(srv.CallbackQuery(group, bob.u, ch.ID, buttons(ch)[0][1]))
	say(srv, group, alice, "/board")
	var cards []telegramtest.Msg
	waitMessage(t, srv, group.ID, "two cards", func(telegramtest.Msg) bool {
		cards = cards[:0]
		for _, m := range srv.Messages(group.ID) {
			if m.Kind == "photo" {
				cards = append(cards, m)
			}
		}
		return len(cards) == 2
	})
	waitMessage(t, srv, group.ID, "the first card without its picker", func(m telegramtest.Msg) bool {
		return m.ID == cards[0].ID && len(buttons(m)) == 0
	})
	if last := card(t, srv, group.ID, cards[1].ID); len(buttons(last)) == 0 {
		t.Errorf("the newer card has no picker")
	}
}
