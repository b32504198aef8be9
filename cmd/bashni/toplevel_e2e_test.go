package main

import (
	"strings"
	"testing"

	"github.com/bashni/bashni/ai"
	"github.com/bashni/bashni/internal/telegramtest"
)

// The top level, above the ladder, is offered in the level picker under its
// own name in the player's language, alone in the last band, and a game
// against it starts (the test bot's node cap keeps its moves short).
func TestE2ETopLevelInThePicker(t *testing.T) {
	srv := telegramtest.New(t)
	startBot(t, srv, nil)
	ivan := newUser(111, "Ivan", "ru")

	say(srv, ivan.chat, ivan, "/start")
	greet := waitMessage(t, srv, ivan.chat.ID, "greeting", func(m telegramtest.Msg) bool { return len(buttons(m)) == 4 })
	tap(t, srv, ivan.chat, ivan, greet.ID, buttons(greet)[0][1])
	levels := waitMessage(t, srv, ivan.chat.ID, "level picker", func(m telegramtest.Msg) bool {
		b := buttons(m)
		return len(b) > 0 && strings.HasPrefix(b[0][1], "l|")
	})
	bands := buttons(levels)
	top := len(ai.Levels)
	if top != ai.LadderTop+1 || bands[len(bands)-1][0] != "19 · Чемпион" {
		t.Fatalf("level bands %v, want the last one 19 · Чемпион", bands)
	}
	colours := chooseLevel(t, srv, ivan.chat, ivan, levels, top)
	tap(t, srv, ivan.chat, ivan, colours.ID, buttons(colours)[0][1]) // White
	c := waitMessage(t, srv, ivan.chat.ID, "board card", func(m telegramtest.Msg) bool { return m.Kind == "photo" })
	if !strings.Contains(c.Text, "Чемпион") {
		t.Errorf("card caption %q does not name the top level", c.Text)
	}
}
