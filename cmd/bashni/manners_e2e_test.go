package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/bashni/bashni/internal/telegramtest"
)

// A line of conditional moves left in a private chat survives a restart
// of the bot: after it, each of Bob's expected moves in the group is
// answered at once for Alice, the card says so, and a move the line did
// not expect is left to her.
func TestE2EConditionalLineAcrossRestart(t *testing.T) {
	srv := telegramtest.New(t)
	p := startBot(t, srv, nil)
	group := telegramtest.GroupChat(-1004242424201, "Slow club")
	alice, bob := newUser(4201, "Alice", "en"), newUser(4202, "Bob", "en")
	say(srv, group, alice, "/challenge white 1d")
	ch := waitMessage(t, srv, group.ID, "challenge", func(m telegramtest.Msg) bool { return m.FromBot && len(buttons(m)) > 0 })
	tap(t, srv, group, bob, ch.ID, buttons(ch)[0][1])
	c := waitMessage(t, srv, group.ID, "board card", func(m telegramtest.Msg) bool { return m.Kind == "photo" })
	say(srv, group, alice, "/move c3-d4")
	waitMessage(t, srv, group.ID, "the card after c3-d4", func(m telegramtest.Msg) bool {
		return m.ID == c.ID && strings.Contains(m.Text, "c3-d4")
	})
	say(srv, alice.chat, alice, "/if b6-a5 g3-h4 a7-b6 h2-g3")
	waitMessage(t, srv, alice.chat.ID, "the line left", func(m telegramtest.Msg) bool {
		return m.FromBot && strings.Contains(m.Text, "Conditional moves left in your game with Bob") && strings.Contains(m.Text, "if a7-b6, then h2-g3")
	})

	p = p.restart()
	say(srv, group, bob, "/move b6-a5")
	waitMessage(t, srv, group.ID, "the card with the first answer", func(m telegramtest.Msg) bool {
		return m.ID == c.ID && strings.Contains(m.Text, "Alice's conditional move: b6-a5 answered by g3-h4")
	})
	say(srv, group, bob, "/move a7-b6")
	waitMessage(t, srv, group.ID, "the card with the second answer", func(m telegramtest.Msg) bool {
		return m.ID == c.ID && strings.Contains(m.Text, "a7-b6 answered by h2-g3")
	})
	say(srv, alice.chat, alice, "/if")
	waitMessage(t, srv, alice.chat.ID, "no line left", func(m telegramtest.Msg) bool {
		return m.FromBot && strings.HasPrefix(m.Text, "Conditional moves, for a game without a live clock")
	})
	say(srv, group, bob, "/moves")
	waitMessage(t, srv, group.ID, "the moves so far", func(m telegramtest.Msg) bool {
		return m.FromBot && strings.Contains(m.Text, "h2-g3") && strings.Contains(m.Text, "g3-h4")
	})
	p.stop()
}

// Bob aborts the game after Alice's first move: it ends with no result,
// and neither player's statistics or rating move.
func TestE2EAbortLeavesRatingsUnchanged(t *testing.T) {
	srv := telegramtest.New(t)
	startBot(t, srv, nil)
	group := telegramtest.GroupChat(-1004242424202, "Abort club")
	alice, bob := newUser(4211, "Alice", "en"), newUser(4212, "Bob", "en")
	stats := func(u user) string {
		t.Helper()
		before := 0
		for _, m := range srv.Messages(u.chat.ID) {
			before = max(before, m.ID)
		}
		say(srv, u.chat, u, "/stats")
		return waitMessage(t, srv, u.chat.ID, "stats", func(m telegramtest.Msg) bool {
			return m.FromBot && m.ID > before && strings.Contains(m.Text, "rating")
		}).Text
	}
	aliceBefore, bobBefore := stats(alice), stats(bob)
	c := startGroupGame(t, srv, group, alice, bob)
	say(srv, group, alice, "/move c3-d4")
	waitMessage(t, srv, group.ID, "the card after c3-d4", func(m telegramtest.Msg) bool {
		return m.ID == c.ID && strings.Contains(m.Text, "c3-d4")
	})
	say(srv, group, bob, "/abort")
	waitMessage(t, srv, group.ID, "the aborted card", func(m telegramtest.Msg) bool {
		return m.ID == c.ID && strings.Contains(m.Text, "Game aborted") && gameOver(m)
	})
	if got := stats(alice); got != aliceBefore {
		t.Errorf("Alice's /stats after the abort:\n%s\nwant as before:\n%s", got, aliceBefore)
	}
	if got := stats(bob); got != bobBefore {
		t.Errorf("Bob's /stats after the abort:\n%s\nwant as before:\n%s", got, bobBefore)
	}

	// Once both have moved, /abort is refused and the game goes on.
	other := telegramtest.GroupChat(-1004242424204, "Abort club 2")
	c2 := startGroupGame(t, srv, other, alice, bob)
	say(srv, other, alice, "/move c3-d4")
	say(srv, other, bob, "/move b6-a5")
	waitMessage(t, srv, other.ID, "the card after b6-a5", func(m telegramtest.Msg) bool {
		return m.ID == c2.ID && strings.Contains(m.Text, "b6-a5")
	})
	say(srv, other, alice, "/abort")
	waitMessage(t, srv, other.ID, "the refusal", func(m telegramtest.Msg) bool {
		return m.FromBot && strings.Contains(m.Text, "can no longer be aborted")
	})
}

// In a casual game Alice asks to take back her move; Bob accepts on the
// card, and the card shows the board as it was before it.
func TestE2ETakebackAcceptedInCasualGame(t *testing.T) {
	srv := telegramtest.New(t)
	startBot(t, srv, nil)
	group := telegramtest.GroupChat(-1004242424203, "Friendly club")
	alice, bob := newUser(4221, "Alice", "en"), newUser(4222, "Bob", "en")
	say(srv, group, alice, "/challenge white casual")
	ch := waitMessage(t, srv, group.ID, "challenge", func(m telegramtest.Msg) bool { return m.FromBot && len(buttons(m)) > 0 })
	if !strings.Contains(ch.Text, "Casual: not rated") {
		t.Errorf("the challenge does not say it is casual: %q", ch.Text)
	}
	tap(t, srv, group, bob, ch.ID, buttons(ch)[0][1])
	c := waitMessage(t, srv, group.ID, "board card", func(m telegramtest.Msg) bool { return m.Kind == "photo" })
	start := waitTurn(t, srv, group.ID, c.ID)
	say(srv, group, alice, "/move c3-d4")
	moved := waitMessage(t, srv, group.ID, "the card after c3-d4", func(m telegramtest.Msg) bool {
		return m.ID == c.ID && strings.Contains(m.Text, "c3-d4")
	})
	say(srv, group, alice, "/takeback")
	var accept string
	waitMessage(t, srv, group.ID, "the card asking Bob", func(m telegramtest.Msg) bool {
		for _, b := range buttons(m) {
			if strings.HasPrefix(b[1], "bk|") {
				accept = b[1]
			}
		}
		return m.ID == c.ID && accept != "" && strings.Contains(m.Text, "Alice asks to take back their last move")
	})
	if toast := tap(t, srv, group, alice, c.ID, accept); !strings.Contains(toast, "opponent's to answer") {
		t.Errorf("Alice answers her own takeback: toast %q", toast)
	}
	tap(t, srv, group, bob, c.ID, accept)
	waitMessage(t, srv, group.ID, "the chat told", func(m telegramtest.Msg) bool {
		return m.FromBot && strings.Contains(m.Text, "Bob accepted: the last move is taken back")
	})
	back := waitMessage(t, srv, group.ID, "the card after the takeback", func(m telegramtest.Msg) bool {
		return m.ID == c.ID && m.Edits > moved.Edits && !strings.Contains(m.Text, "asks to take back") && !strings.Contains(m.Text, "c3-d4")
	})
	if !bytes.Equal(back.Data, start.Data) {
		t.Error("the card's board after the takeback differs from the start")
	}
	if toast := tap(t, srv, group, bob, c.ID, accept); !strings.Contains(toast, "No takeback is asked for") {
		t.Errorf("the accept tapped again: toast %q", toast)
	}
}
