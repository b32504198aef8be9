package main

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bashni/bashni/internal/telegramtest"
)

// In a group game, once a capture has built a tower, the card carries a
// "Towers" button; anyone who taps it, the player not to move too, reads
// every tower top first in an alert that only they see: the group gets
// no message for it. The same in Russian.
func TestE2ETowersListedInAnAlert(t *testing.T) {
	srv := telegramtest.New(t)
	startBot(t, srv, nil)
	group := telegramtest.GroupChat(-1007777777790, "Club")
	alice, bob := newUser(891, "Alice", "en"), newUser(892, "Bob", "ru")
	c := startGroupGame(t, srv, group, alice, bob)
	waitTurn(t, srv, group.ID, c.ID)
	for _, tb := range buttons(card(t, srv, group.ID, c.ID)) {
		if strings.HasPrefix(tb[1], "tw|") {
			t.Fatalf("the start position has no tower, but the card offers %q", tb[0])
		}
	}

	// 1. c3-d4 f6-e5 2. d4:f6: White's man takes Black's and stands on it
	// at f6.
	play := func(from user, move, want string) {
		t.Helper()
		srv.PushUpdate(srv.ReplyMessage(group, from.u, c.ID, "/m "+move))
		waitMessage(t, srv, group.ID, "the card after "+move, func(m telegramtest.Msg) bool {
			return m.ID == c.ID && strings.HasSuffix(lastLine(m.Text), want)
		})
	}
	play(alice, "c3-d4", "c3-d4")
	play(bob, "f6-e5", "f6-e5")
	play(alice, "d4:f6", "d4:f6")
	waitTurn(t, srv, group.ID, c.ID)
	// The move's own notice comes first, so it is not counted below.
	waitMessage(t, srv, group.ID, "Bob's turn notice", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "(d4:f6)") })

	towers := ""
	for _, tb := range buttons(card(t, srv, group.ID, c.ID)) {
		if strings.HasPrefix(tb[1], "tw|") {
			towers = tb[1]
		}
	}
	if towers == "" {
		t.Fatalf("no Towers button on the card with a tower: %v", buttons(card(t, srv, group.ID, c.ID)))
	}
	messages := len(srv.Messages(group.ID))
	for _, tc := range []struct {
		who  user
		want string
	}{
		// Alice is not to move; Bob, whose piece is the prisoner, reads it
		// in Russian.
		{alice, "Towers, top first:\nf6: ⚪ ⚫"},
		{bob, "Башни, сверху вниз:\nf6: ⚪ ⚫"},
	} {
		u := srv.CallbackQuery(group, tc.who.u, c.ID, towers)
		srv.PushUpdate(u)
		text := waitAnswer(t, srv, u.CallbackQuery.ID, towers)
		_, alert, _ := srv.CallbackAnswer(u.CallbackQuery.ID)
		if text != tc.want || !alert {
			t.Errorf("%s tapped Towers: answer %q (alert %v), want the alert %q", tc.who.u.FirstName, text, alert, tc.want)
		}
		if n := utf8.RuneCountInString(text); n > 200 {
			t.Errorf("the alert is %d characters, Telegram takes 200", n)
		}
	}
	if ms := srv.Messages(group.ID); len(ms) != messages {
		t.Errorf("the group got %d new messages for the towers, want none: %+v", len(ms)-messages, ms[messages:])
	}
}
