package main

import (
	"fmt"
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/internal/testkit"
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

// joinGroup makes users members of group, as Telegram's getChatMember
// answers (a user who only taps buttons is not seen there otherwise).
func joinGroup(srv *telegramtest.Server, group tgbotapi.Chat, users ...user) {
	for _, u := range users {
		srv.SetChatMember(group.ID, u.u.ID, "member")
	}
}

// An outsider cannot join a group's tournament with the /start link its
// Join button gives, nor vote in its team game with the game's button
// data, in the group or from another chat (issue 38). Telegram is asked
// once per person (getChatMember), not once per vote.
func TestE2EOutsidersRefusedInAGroupsGames(t *testing.T) {
	srv := telegramtest.New(t)
	startBotWithClock(t, srv, testkit.NewClock(time.Now()))
	group := telegramtest.GroupChat(-1003838383839, "Members only")
	alice, mallory := newUser(3811, "Alice", "en"), newUser(3812, "Mallory", "en")
	joinGroup(srv, group, alice)
	say(srv, mallory.chat, mallory, "/start")
	waitMessage(t, srv, mallory.chat.ID, "the greeting", func(m telegramtest.Msg) bool { return m.FromBot })

	say(srv, group, alice, "/tournament 20+0 15m")
	tc := waitMessage(t, srv, group.ID, "the tournament card", func(m telegramtest.Msg) bool {
		return m.FromBot && strings.Contains(m.Text, "Arena 20+0") && len(buttons(m)) == 3
	})
	id := strings.Split(tourButton(t, tc, "tj"), "|")[1]
	say(srv, mallory.chat, mallory, fmt.Sprintf("/start tj%d_%s", group.ID, id))
	waitMessage(t, srv, mallory.chat.ID, "the join refused", func(m telegramtest.Msg) bool {
		return m.FromBot && strings.Contains(m.Text, "Only members of the group")
	})

	say(srv, group, alice, "/team 1")
	c := waitMessage(t, srv, group.ID, "team card", func(m telegramtest.Msg) bool { return m.Kind == "photo" && len(buttons(m)) > 0 })
	vote := voteButton(t, c, "g3-h4")
	for range 5 {
		if toast := tap(t, srv, group, mallory, c.ID, vote); !strings.Contains(toast, "Only members of the group") {
			t.Fatalf("an outsider's vote: toast %q; want it refused", toast)
		}
	}
	elsewhere := telegramtest.GroupChat(-1003838383840, "Elsewhere")
	say(srv, elsewhere, mallory, "/help")
	help := waitMessage(t, srv, elsewhere.ID, "the help elsewhere", func(m telegramtest.Msg) bool { return m.FromBot })
	if toast := tap(t, srv, elsewhere, mallory, help.ID, vote); !strings.Contains(toast, "does not work here") {
		t.Errorf("a vote from another chat: toast %q; want it refused", toast)
	}
	for range 3 {
		tap(t, srv, group, alice, c.ID, vote) // a member: counted once, then "already"
	}
	asked := map[string]int{}
	for _, call := range srv.CallsTo("getChatMember") {
		asked[call.Params["user_id"]]++
	}
	if asked["3811"] != 1 || asked["3812"] != 1 {
		t.Errorf("getChatMember calls by user: %v; want one each, the answer remembered", asked)
	}
	tc, _ = srv.Message(group.ID, tc.ID)
	if strings.Contains(tc.Text, "Mallory") {
		t.Errorf("the outsider is on the tournament card:\n%s", tc.Text)
	}
}
