package main

import (
	"strings"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/rules"
)

// Telegram lets a bot post about 20 messages a minute to a group, edits
// included, and every move costs a card edit and a turn notice. Players
// who move faster than that must still see the latest board at once, not
// a queue of boards long gone: a waiting edit of the card, and a waiting
// notice, give way to the newer one.
func TestE2EQuickMovesInAPacedGroupShowTheLatestBoard(t *testing.T) {
	srv := telegramtest.New(t)
	// 30 a minute, after a burst of 5: one message every 2 s.
	startBot(t, srv, map[string]string{"BASHNI_RATE_PER_GROUP": "30"})
	group := telegramtest.GroupChat(-1005555555555, "Blitz club")
	alice, bob := newUser(901, "Alice", "en"), newUser(902, "Bob", "en")

	say(srv, group, alice, "/challenge white")
	ch := waitMessage(t, srv, group.ID, "challenge", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "challenges anyone") })
	tap(t, srv, group, bob, ch.ID, buttons(ch)[0][1])
	c := waitMessage(t, srv, group.ID, "board card", func(m telegramtest.Msg) bool { return m.Kind == "photo" })
	waitTurn(t, srv, group.ID, c.ID)

	// Eight moves typed as fast as the players can, as replies to the
	// card: far more than the group's pace lets through one by one.
	g := rules.NewGame(rules.Start(rules.Bashni))
	var last string
	for i := range 8 {
		m := g.Legal()[0]
		last = m.String()
		if err := g.Play(m); err != nil {
			t.Fatal(err)
		}
		player := alice
		if i%2 == 1 {
			player = bob
		}
		srv.PushUpdate(srv.ReplyMessage(group, player.u, c.ID, "/m "+last))
	}
	start := time.Now()
	waitMessage(t, srv, group.ID, "the card showing the last move", func(m telegramtest.Msg) bool {
		return m.ID == c.ID && strings.Contains(m.Text, "Last: ") && strings.HasSuffix(lastLine(m.Text), " "+last)
	})
	// One by one, 8 edits and 8 notices would take half a minute; fewer
	// edits than moves show that waiting ones gave way. How long it took
	// is logged, not asserted.
	edits := 0
	for _, call := range srv.CallsTo("editMessageMedia") {
		if call.ChatID() == group.ID {
			edits++
		}
	}
	if edits >= 8 {
		t.Errorf("%d edits of the card for 8 moves: none gave way", edits)
	}
	t.Logf("8 moves: %d card edits, the last board after %v", edits, time.Since(start).Round(time.Millisecond))
}
