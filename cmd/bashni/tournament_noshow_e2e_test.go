package main

import (
	"strings"
	"testing"
	"time"

	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/internal/testkit"
	"github.com/bashni/bashni/play"
)

// An arena player who lets a game run out without moving is paused after
// that one game, as lichess's arenas do: the game counts for nobody (no
// points for the opponent who waited), they are told why in their chat,
// the group's card shows them paused, and they are not paired again
// until they tap Join; the two others are paired meanwhile. Each arena
// game's card says it is one and how long the arena has left.
func TestE2EArenaNoShowPaused(t *testing.T) {
	srv := telegramtest.New(t)
	clock := testkit.NewClock(time.Now())
	vars := withDefaults(t, srv, map[string]string{"BASHNI_CLOCK_INTERVAL": "20ms"})
	startClockedWithLogs(t, srv, clock, vars)
	group := telegramtest.GroupChat(-1004000000079, "Arena club")
	alice, boris, carol := newUser(7101, "Alice", "en"), newUser(7102, "Boris", "en"), newUser(7103, "Carol", "en")
	for _, u := range []user{alice, boris, carol} {
		say(srv, u.chat, u, "/start")
		waitMessage(t, srv, u.chat.ID, "the greeting", func(m telegramtest.Msg) bool { return m.FromBot })
	}
	say(srv, group, alice, "/tournament 1+0 30m")
	tc := waitMessage(t, srv, group.ID, "the tournament card", func(m telegramtest.Msg) bool {
		return m.FromBot && strings.Contains(m.Text, "Arena 1+0 · 30 min") && len(buttons(m)) == 3
	})
	join := tourButton(t, tc, "tj")
	tap(t, srv, group, alice, tc.ID, join)
	tap(t, srv, group, boris, tc.ID, join)
	aCard := tourGameCard(t, srv, alice, 0, "Alice's first game")
	bCard := tourGameCard(t, srv, boris, 0, "Boris's first game")
	if !strings.Contains(aCard.Text, "Arena game · 30 min left in the arena") {
		t.Errorf("the arena game's card does not say so:\n%s", aCard.Text)
	}
	tap(t, srv, group, carol, tc.ID, join)

	// Alice (White) never moves: her flag falls after the minute. Her
	// clock starts when the bot hears that her card reached her, which
	// may come after the card is seen here, or at the latest twice the
	// grace after the game began (play/shown.go): the clock is moved past
	// the latest fall, wherever it started.
	clock.Advance(time.Minute + 2*play.DefaultShowGrace + time.Second)
	waitMessage(t, srv, alice.chat.ID, "why Alice is paused", func(m telegramtest.Msg) bool {
		return m.FromBot && strings.Contains(m.Text, "you are paused")
	})
	// Boris, who waited, meets Carol; Alice is not paired.
	bc2 := tourGameCard(t, srv, boris, bCard.ID, "Boris's second game")
	tourGameCard(t, srv, carol, 0, "Carol's first game")
	if !strings.Contains(bc2.Text, "Carol") {
		t.Errorf("Boris's second game %q, want against Carol", bc2.Text)
	}
	clock.Advance(5 * time.Second)
	shown := waitMessage(t, srv, group.ID, "Alice paused on the card", func(m telegramtest.Msg) bool {
		return m.ID == tc.ID && strings.Contains(m.Text, "Alice — <b>0</b> ⏸") || m.ID == tc.ID && strings.Contains(m.Text, "Alice — 0 ⏸")
	})
	if !strings.Contains(shown.Text, "Boris — 0") {
		t.Errorf("Boris got points for a game nobody played:\n%s", shown.Text)
	}
	for _, m := range srv.Messages(alice.chat.ID) {
		if m.FromBot && m.Kind == "photo" && m.ID > aCard.ID {
			t.Errorf("Alice, paused, got another game: %q", m.Text)
		}
	}

	// She comes back with Join: the toast says so, and she is paired as
	// soon as someone is free.
	if toast := tap(t, srv, group, alice, tc.ID, join); !strings.Contains(toast, "You are in") {
		t.Errorf("Alice's return: toast %q", toast)
	}
}
