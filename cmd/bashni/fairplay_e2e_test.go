package main

import (
	"strings"
	"testing"

	"github.com/bashni/bashni/internal/telegramtest"
)

// Forged buttons from private chats, tapped in a group, are refused with
// a toast and post nothing (issue 38: 30 forged "next lesson" taps posted
// 30 lesson photos in a group).
func TestE2EForgedPrivateButtonsRefusedInAGroup(t *testing.T) {
	srv := telegramtest.New(t)
	startBot(t, srv, nil)
	group := telegramtest.GroupChat(-1003838383838, "Forgers")
	mallory := newUser(3801, "Mallory", "en")
	say(srv, group, mallory, "/help")
	help := waitMessage(t, srv, group.ID, "the help", func(m telegramtest.Msg) bool { return m.FromBot })
	before := len(srv.Messages(group.ID))
	for _, data := range []string{"kn||-1|", "zn||-1|"} { // next lesson, next puzzle
		for range 10 {
			toast := tap(t, srv, group, mallory, help.ID, data)
			if !strings.Contains(toast, "does not work here") {
				t.Fatalf("forged %q in a group: toast %q; want it refused", data, toast)
			}
		}
	}
	if after := len(srv.Messages(group.ID)); after != before {
		t.Errorf("forged taps changed the group: %d messages, was %d", after, before)
	}
	for _, c := range srv.Calls() {
		if (c.Method == "sendPhoto" || c.Method == "editMessageMedia" || c.Method == "editMessageText") && c.ChatID() == group.ID {
			t.Errorf("a forged tap sent %s to the group", c.Method)
		}
	}
}
