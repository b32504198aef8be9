package main

import (
	"strings"
	"testing"
	"time"

	tgbotapi "github.com/go-telegram-bot-api/telegram-bot-api/v5"

	"github.com/bashni/bashni/internal/telegramtest"
	"github.com/bashni/bashni/internal/testkit"
)

// startPacedGame starts a game at days per move in group: white
// challenges anyone as White with pace ("1d"), black accepts. It returns
// the card.
func startPacedGame(t *testing.T, srv *telegramtest.Server, group tgbotapi.Chat, white, black user, pace string) telegramtest.Msg {
	t.Helper()
	say(srv, group, white, "/challenge white "+pace)
	ch := waitMessage(t, srv, group.ID, "challenge", func(m telegramtest.Msg) bool { return m.FromBot && len(buttons(m)) > 0 })
	if !strings.Contains(ch.Text, "Correspondence, 1 day a move") {
		t.Errorf("the challenge does not name its pace:\n%s", ch.Text)
	}
	tap(t, srv, group, black, ch.ID, buttons(ch)[0][1])
	return waitMessage(t, srv, group.ID, "board card", func(m telegramtest.Msg) bool { return m.Kind == "photo" })
}

// A game at one day a move: Alice, to move, goes away for five days; Bob
// is told once in the group and the card says her clock is stopped. Two
// days on, a game beside it at the same pace is lost on time and hers is
// not. She comes back by moving: her absence is over, and Bob's clock
// runs with his day.
func TestE2EAwayStopsTheClockOfAOneDayGame(t *testing.T) {
	srv := telegramtest.New(t)
	clock := testkit.NewClock(time.Now())
	vars := withDefaults(t, srv, map[string]string{"BASHNI_CLOCK_INTERVAL": "20ms", "BASHNI_NOTICE_DELAY": "1h"})
	logs, _ := startClockedWithLogs(t, srv, clock, vars)
	group := telegramtest.GroupChat(-1004200000001, "Slow club")
	other := telegramtest.GroupChat(-1004200000002, "Other club")
	alice, bob := newUser(4201, "Alice", "en"), newUser(4202, "Bob", "en")
	carol, dave := newUser(4203, "Carol", "en"), newUser(4204, "Dave", "en")
	say(srv, alice.chat, alice, "/start")
	waitMessage(t, srv, alice.chat.ID, "the greeting", func(m telegramtest.Msg) bool { return m.FromBot })

	c := startPacedGame(t, srv, group, alice, bob, "1d")
	if !strings.Contains(c.Text, "⏳ 1 day a move: 24 h 0 min left") {
		t.Errorf("the card does not show the time left:\n%s", c.Text)
	}
	pickFirstMove(t, srv, group, alice, c.ID) // each tap twice: confirmed
	pickFirstMove(t, srv, group, bob, c.ID)
	d := startPacedGame(t, srv, other, carol, dave, "1d")
	pickFirstMove(t, srv, other, carol, d.ID)
	pickFirstMove(t, srv, other, dave, d.ID)

	before := groupPosts(srv, group.ID)
	say(srv, alice.chat, alice, "/away 5d")
	waitMessage(t, srv, alice.chat.ID, "the absence confirmed", func(m telegramtest.Msg) bool {
		return m.FromBot && strings.Contains(m.Text, "You are away until") && strings.Contains(m.Text, "stopped in 1 game")
	})
	waitMessage(t, srv, group.ID, "Bob told", func(m telegramtest.Msg) bool {
		return m.FromBot && m.ID != c.ID && strings.Contains(m.Text, "their clock in this game is stopped")
	})
	held := waitMessage(t, srv, group.ID, "the card with the clock stopped", func(m telegramtest.Msg) bool {
		return m.ID == c.ID && strings.Contains(m.Text, "the clock is stopped until") && strings.Contains(m.Text, "🏖 Alice is away until")
	})
	if got := groupPosts(srv, group.ID) - before; got != 1 {
		t.Errorf("the absence posted %d messages to the group, want 1", got)
	}

	clock.Advance(2 * 24 * time.Hour)
	waitMessage(t, srv, other.ID, "the game beside it lost on time", func(m telegramtest.Msg) bool {
		return m.ID == d.ID && gameOver(m)
	})
	if m := card(t, srv, group.ID, c.ID); gameOver(m) || m.Edits != held.Edits {
		t.Fatalf("Alice's game changed while her clock was stopped:\n%s", m.Text)
	}

	pickFirstMove(t, srv, group, alice, c.ID)
	back := waitMessage(t, srv, group.ID, "Bob's turn with his day", func(m telegramtest.Msg) bool {
		return m.ID == c.ID && strings.Contains(m.Text, "to move: Bob") && strings.Contains(m.Text, "24 h 0 min left")
	})
	if strings.Contains(back.Text, "away") {
		t.Errorf("the card still says Alice is away:\n%s", back.Text)
	}
	say(srv, alice.chat, alice, "/away")
	waitMessage(t, srv, alice.chat.ID, "the absence over", func(m telegramtest.Msg) bool {
		return m.FromBot && strings.Contains(m.Text, "Not away: days of absence left this year: 28")
	})
	if strings.Contains(logs.String(), "absence not ended") {
		t.Errorf("the move that ended the absence logged a failure:\n%s", logs)
	}
}

// In a correspondence game a picked move waits for a second tap on it:
// the first tap changes only the card's buttons, the second plays it,
// and neither posts a message.
func TestE2EConfirmedMoveTakesTwoTaps(t *testing.T) {
	srv := telegramtest.New(t)
	clock := testkit.NewClock(time.Now())
	vars := withDefaults(t, srv, map[string]string{"BASHNI_CLOCK_INTERVAL": "20ms", "BASHNI_NOTICE_DELAY": "1h"})
	startClockedWithLogs(t, srv, clock, vars)
	group := telegramtest.GroupChat(-1004200000003, "Careful club")
	alice, bob := newUser(4211, "Alice", "en"), newUser(4212, "Bob", "en")
	// The pace chosen by its button under the challenge, the challenger's
	// alone.
	say(srv, group, alice, "/challenge white")
	ch := waitMessage(t, srv, group.ID, "challenge", func(m telegramtest.Msg) bool { return m.FromBot && buttonData(m, "sp|") != "" })
	oneDay := buttonData(ch, "sp|")
	if toast := tap(t, srv, group, bob, ch.ID, oneDay); !strings.Contains(toast, "Only the one who challenged") {
		t.Errorf("Bob's tap on the pace: toast %q", toast)
	}
	tap(t, srv, group, alice, ch.ID, oneDay)
	ch = waitMessage(t, srv, group.ID, "the challenge at a day a move", func(m telegramtest.Msg) bool {
		return m.ID == ch.ID && strings.Contains(m.Text, "Correspondence, 1 day a move")
	})
	tap(t, srv, group, bob, ch.ID, buttons(ch)[0][1])
	c := waitMessage(t, srv, group.ID, "board card", func(m telegramtest.Msg) bool { return m.Kind == "photo" })
	if !strings.Contains(c.Text, "1 day a move") {
		t.Errorf("the game is not at the pace chosen:\n%s", c.Text)
	}
	c = waitTurn(t, srv, group.ID, c.ID)
	before, keyboards := groupPosts(srv, group.ID), len(srv.CallsTo("editMessageReplyMarkup"))

	first := firstPick(c)
	if toast := tap(t, srv, group, alice, c.ID, first); toast != "" {
		t.Fatalf("the first tap refused: %s", toast)
	}
	asked := waitMessage(t, srv, group.ID, "the move to confirm", func(m telegramtest.Msg) bool {
		return m.ID == c.ID && buttonData(m, first+"!") != ""
	})
	if len(srv.CallsTo("editMessageReplyMarkup")) != keyboards+1 || asked.Text != c.Text {
		t.Errorf("the first tap did more than change the buttons: caption\n%s", asked.Text)
	}
	if !hasBack(asked) || len(buttons(asked)) != 2 {
		t.Errorf("the confirmation row: %v, want the move and Back", buttons(asked))
	}
	if toast := tap(t, srv, group, alice, c.ID, first+"!"); toast != "" {
		t.Fatalf("the second tap refused: %s", toast)
	}
	waitMessage(t, srv, group.ID, "the move played", func(m telegramtest.Msg) bool {
		return m.ID == c.ID && strings.Contains(m.Text, "to move: Bob")
	})
	if got := groupPosts(srv, group.ID) - before; got != 0 {
		t.Errorf("a confirmed move posted %d new messages, want 0", got)
	}
}
