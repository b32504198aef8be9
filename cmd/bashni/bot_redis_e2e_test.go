package main

import (
	"strings"
	"testing"
	"time"

	"github.com/bashni/bashni/bot/telegramtest"
	"github.com/bashni/bashni/storage/redis/redistest"
)

// Redis goes away in the middle of a group game: the player is told to try
// again shortly, the bot keeps running, and when Redis is back the game
// goes on where it was.
func TestE2ERedisDownMidGame(t *testing.T) {
	rds := redistest.Start(t, redistest.Persistent())
	srv := telegramtest.New(t)
	p := startBot(t, srv, map[string]string{"REDIS_URL": rds.URL()})
	group := telegramtest.GroupChat(-1005555555555, "Club")
	alice, bob := newUser(701, "Alice", "en"), newUser(702, "Bob", "en")

	say(srv, group, alice, "/challenge white")
	ch := waitMessage(t, srv, group.ID, "challenge", func(m telegramtest.Msg) bool { return strings.Contains(m.Text, "challenges anyone") })
	tap(t, srv, group, bob, ch.ID, buttons(ch)[0][1])
	c := waitMessage(t, srv, group.ID, "board card", func(m telegramtest.Msg) bool { return m.Kind == "photo" })
	waitTurn(t, srv, group.ID, c.ID)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("bot logs:\n%s", p.logs.String())
		}
	})
	pickFirstMove(t, srv, group, alice, c.ID)
	before := waitTurn(t, srv, group.ID, c.ID)

	rds.Stop(t)
	start := time.Now()
	var data string
	for _, b := range buttons(before) {
		if isPick(b[1]) {
			data = b[1]
			break
		}
	}
	if toast := tap(t, srv, group, bob, c.ID, data); !strings.Contains(toast, "try again shortly") {
		t.Errorf("tap while Redis is down: toast %q, want 'try again shortly'", toast)
	}
	say(srv, group, bob, "/move f6-e5")
	waitMessage(t, srv, group.ID, "typed move refused politely", func(m telegramtest.Msg) bool {
		return m.FromBot && strings.Contains(m.Text, "try again shortly")
	})
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("answers with Redis down took %v; they must fail fast", d)
	}
	if got := card(t, srv, group.ID, c.ID); got.Text != before.Text {
		t.Errorf("the card changed while Redis was down: %q", got.Text)
	}

	rds.Restart(t)
	// The same game goes on: Bob moves by typing, and the card shows it.
	deadline := time.Now().Add(15 * time.Second)
	for {
		say(srv, group, bob, "/move f6-e5")
		time.Sleep(300 * time.Millisecond)
		if m := card(t, srv, group.ID, c.ID); strings.Contains(m.Text, "f6-e5") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("play did not resume after Redis came back; card %q\nlogs:\n%s", card(t, srv, group.ID, c.ID).Text, p.logs.String())
		}
	}
	after := waitTurn(t, srv, group.ID, c.ID)
	if !strings.Contains(after.Text, "Move 2 · White") {
		t.Errorf("after Redis came back: %q", after.Text)
	}
}
